package fbebench;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.OrderSide;
import com.chronoxor.proto.OrderType;
import com.chronoxor.proto.State;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.google.flatbuffers.FlatBufferBuilder;
import com.google.protobuf.CodedOutputStream;
import io.github.fbetoolkit.fbe.DecodeException;
import io.github.fbetoolkit.fbe.JsonWriter;
import io.github.fbetoolkit.fbe.Limits;
import io.github.fbetoolkit.fbe.Writer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmark's rows (docs/benchmarks.md "Java"), each with its own reused state. Every row
 * converts from and to the domain object (proto.Account as fbec --java generates it), reusing what
 * a server would reuse: its buffer, builder or message, and the domain object where the peer's API
 * reads into one.
 */
public final class Rows {
    private Rows() {}

    /** @return every row, in the table's order */
    public static List<Row<?>> all() {
        List<Row<?>> rows = new ArrayList<>();
        rows.add(fbe());
        rows.add(fbeFinal());
        rows.add(fbeJson());
        rows.addAll(kotlin());
        rows.add(protobuf());
        rows.add(flatbuffers());
        rows.add(sbe());
        rows.add(kryo());
        rows.add(jackson());
        return rows;
    }

    /**
     * @param id a row id
     * @return that row, with fresh state, as a row of objects (its own domain object's type is
     *         known to the row only; TradeBench passes it back the objects the row made)
     */
    @SuppressWarnings("unchecked")
    public static Row<Object> byId(String id) {
        for (Row<?> r : all()) {
            if (r.id.equals(id)) {
                return (Row<Object>) r;
            }
        }
        throw new IllegalArgumentException("no row " + id);
    }

    // ---------------------------------------------------------------- ours

    /** Our versioned model: writeFbe into a reused Writer, readFbe into the reused account. */
    static AccountRow fbe() {
        Writer w = new Writer();
        return new AccountRow("fbe", "FBE (ours)") {
            @Override
            public int serialize(Account a) {
                int n = a.writeFbe(w);
                out = w.buffer();
                return n;
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) throws DecodeException {
                reuse.readFbe(data, offset, length, Limits.DEFAULT);
                return reuse;
            }

            @Override
            public boolean hasVerify() {
                return true;
            }

            @Override
            public void verify(byte[] data, int offset, int length) throws DecodeException {
                Account.verifyFbe(data, offset, length, Limits.DEFAULT);
            }
        };
    }

    /** Our final model: writeFinal, readFinal, verifyFinal. */
    static AccountRow fbeFinal() {
        Writer w = new Writer();
        return new AccountRow("fbe-final", "FBE final (ours)") {
            @Override
            public int serialize(Account a) {
                int n = a.writeFinal(w);
                out = w.buffer();
                return n;
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) throws DecodeException {
                reuse.readFinal(data, offset, length, Limits.DEFAULT);
                return reuse;
            }

            @Override
            public boolean hasVerify() {
                return true;
            }

            @Override
            public void verify(byte[] data, int offset, int length) throws DecodeException {
                Account.verifyFinal(data, offset, length, Limits.DEFAULT);
            }
        };
    }

    /**
     * Our JSON (FBE's JSON format, fbec --java --json): writeJson into a reused JsonWriter (UTF-8
     * bytes), fromJson(byte[]) (the JSON reader makes a new value).
     */
    static AccountRow fbeJson() {
        JsonWriter j = new JsonWriter();
        return new AccountRow("fbe-json", "FBE JSON (ours)") {
            @Override
            public int serialize(Account a) {
                int n = a.writeJson(j);
                out = j.buffer();
                return n;
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) throws DecodeException {
                byte[] text = offset == 0 && length == data.length ? data : Arrays.copyOfRange(data, offset,
                        offset + length);
                return Account.fromJson(text);
            }
        };
    }

    /** The ids and names of the Kotlin rows (KotlinRows.kt), in the table's order. */
    static final String[][] KOTLIN = {
        {"kotlin", "FBE Kotlin (ours)"},
        {"kotlin-final", "FBE Kotlin final (ours)"},
        {"kotlin-json", "FBE Kotlin JSON (ours)"},
    };

    /**
     * The Kotlin rows: fbec --kotlin's code of the same schema over the same runtime, with the Kotlin
     * domain object (fbebench.KotlinRows, compiled by make bench-java after this project, its
     * generated package under fbebench.kotlin: fbec --package-prefix). Found by name, so that the
     * Java rows build and run without them; when they are not on the classpath the rows say so.
     */
    static List<Row<?>> kotlin() {
        try {
            Class<?> rows = Class.forName("fbebench.KotlinRows");
            @SuppressWarnings("unchecked")
            List<Row<?>> found = (List<Row<?>>) rows.getMethod("all").invoke(null);
            return found;
        } catch (ClassNotFoundException e) {
            List<Row<?>> placeholders = new ArrayList<>();
            for (String[] k : KOTLIN) {
                AccountRow row = new AccountRow(k[0], k[1]) {
                    @Override
                    public int serialize(Account a) {
                        throw new UnsupportedOperationException(missing);
                    }

                    @Override
                    public Account deserialize(byte[] data, int offset, int length, Account reuse) {
                        throw new UnsupportedOperationException(missing);
                    }
                };
                row.missing = "the Kotlin rows' classes are not on the classpath (make bench-java compiles them)";
                placeholders.add(row);
            }
            return placeholders;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("fbebench.KotlinRows.all(): " + e, e);
        }
    }

    // ---------------------------------------------------------------- protobuf-java

    /**
     * protobuf-java: bench/cpp/schemas/trade.proto through protoc (Debian); a reused builder (clear,
     * its sub-builders), build() and writeTo a CodedOutputStream over a reused array;
     * parser().parseFrom (protobuf-java's messages are immutable: a new message per read), then
     * the domain object from it.
     */
    static AccountRow protobuf() {
        pb.trade.Trade.Account.Builder b = pb.trade.Trade.Account.newBuilder();
        byte[] buf = new byte[4096];
        return new AccountRow("protobuf", "protobuf-java") {
            @Override
            public int serialize(Account a) throws Exception {
                b.clear();
                b.setId(a.id).setName(a.name).setState(a.state.value() & 0xFF);
                b.getWalletBuilder().setCurrency(a.wallet.currency).setAmount(a.wallet.amount);
                if (a.asset != null) {
                    b.getAssetBuilder().setCurrency(a.asset.currency).setAmount(a.asset.amount);
                }
                for (int i = 0, n = a.orders.size(); i < n; i++) {
                    Order o = a.orders.get(i);
                    b.addOrdersBuilder().setId(o.id).setSymbol(o.symbol).setSideValue(o.side.value())
                            .setTypeValue(o.type.value()).setPrice(o.price).setVolume(o.volume);
                }
                pb.trade.Trade.Account m = b.build();
                int size = m.getSerializedSize();
                if (size > buf.length) {
                    throw new IllegalStateException("message of " + size + " bytes");
                }
                CodedOutputStream cos = CodedOutputStream.newInstance(buf, 0, size);
                m.writeTo(cos);
                cos.checkNoSpaceLeft();
                out = buf;
                return size;
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) throws Exception {
                pb.trade.Trade.Account m = pb.trade.Trade.Account.parser().parseFrom(data, offset, length);
                reuse.id = m.getId();
                reuse.name = m.getName();
                reuse.state = State.of((byte) m.getState());
                pb.trade.Trade.Balance w = m.getWallet();
                reuse.wallet.currency = w.getCurrency();
                reuse.wallet.amount = w.getAmount();
                if (m.hasAsset()) {
                    Balance x = Domain.asset(reuse);
                    x.currency = m.getAsset().getCurrency();
                    x.amount = m.getAsset().getAmount();
                } else {
                    reuse.asset = null;
                }
                List<Order> orders = Domain.orders(reuse, m.getOrdersCount());
                for (int i = 0, n = orders.size(); i < n; i++) {
                    pb.trade.Trade.Order p = m.getOrders(i);
                    Order o = orders.get(i);
                    o.id = p.getId();
                    o.symbol = p.getSymbol();
                    o.side = OrderSide.of((byte) p.getSideValue());
                    o.type = OrderType.of((byte) p.getTypeValue());
                    o.price = p.getPrice();
                    o.volume = p.getVolume();
                }
                return reuse;
            }
        };
    }

    // ---------------------------------------------------------------- FlatBuffers

    /**
     * FlatBuffers Java: bench/cpp/schemas/trade.fbs through flatc 2.0.8 (Debian) and its runtime
     * 2.0.8; a reused FlatBufferBuilder (clear); the tables read in place (reused table objects)
     * into the domain object. FlatBuffers' Java runtime has no verifier: reads trust the input.
     */
    static AccountRow flatbuffers() {
        FlatBufferBuilder fbb = new FlatBufferBuilder(512);
        fb.trade.Account acc = new fb.trade.Account();
        fb.trade.Balance bal = new fb.trade.Balance();
        fb.trade.Order ord = new fb.trade.Order();
        return new AccountRow("flatbuffers", "FlatBuffers") {
            int[] offsets = new int[16];

            int balance(Balance x) {
                int cur = fbb.createString(x.currency);
                fb.trade.Balance.startBalance(fbb);
                fb.trade.Balance.addCurrency(fbb, cur);
                fb.trade.Balance.addAmount(fbb, x.amount);
                return fb.trade.Balance.endBalance(fbb);
            }

            @Override
            public int serialize(Account a) {
                fbb.clear();
                int name = fbb.createString(a.name);
                int wallet = balance(a.wallet);
                int asset = a.asset != null ? balance(a.asset) : 0;
                int n = a.orders.size();
                if (offsets.length < n) {
                    offsets = new int[n];
                }
                for (int i = 0; i < n; i++) {
                    Order o = a.orders.get(i);
                    int sym = fbb.createString(o.symbol);
                    fb.trade.Order.startOrder(fbb);
                    fb.trade.Order.addId(fbb, o.id);
                    fb.trade.Order.addSymbol(fbb, sym);
                    fb.trade.Order.addSide(fbb, o.side.value());
                    fb.trade.Order.addType(fbb, o.type.value());
                    fb.trade.Order.addPrice(fbb, o.price);
                    fb.trade.Order.addVolume(fbb, o.volume);
                    offsets[i] = fb.trade.Order.endOrder(fbb);
                }
                fb.trade.Account.startOrdersVector(fbb, n);
                for (int i = n - 1; i >= 0; i--) {
                    fbb.addOffset(offsets[i]);
                }
                int vec = fbb.endVector();
                fb.trade.Account.startAccount(fbb);
                fb.trade.Account.addId(fbb, a.id);
                fb.trade.Account.addName(fbb, name);
                fb.trade.Account.addState(fbb, a.state.value());
                fb.trade.Account.addWallet(fbb, wallet);
                if (a.asset != null) {
                    fb.trade.Account.addAsset(fbb, asset);
                }
                fb.trade.Account.addOrders(fbb, vec);
                fbb.finish(fb.trade.Account.endAccount(fbb));
                ByteBuffer bb = fbb.dataBuffer();
                out = bb.array();
                outOffset = bb.position();
                return bb.remaining();
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) {
                fb.trade.Account.getRootAsAccount(ByteBuffer.wrap(data, offset, length), acc);
                reuse.id = acc.id();
                reuse.name = acc.name();
                reuse.state = State.of((byte) acc.state());
                if (acc.wallet(bal) != null) {
                    reuse.wallet.currency = bal.currency();
                    reuse.wallet.amount = bal.amount();
                } else {
                    reuse.wallet.currency = "";
                    reuse.wallet.amount = 0;
                }
                if (acc.asset(bal) != null) {
                    Balance x = Domain.asset(reuse);
                    x.currency = bal.currency();
                    x.amount = bal.amount();
                } else {
                    reuse.asset = null;
                }
                List<Order> orders = Domain.orders(reuse, acc.ordersLength());
                for (int i = 0, n = orders.size(); i < n; i++) {
                    acc.orders(ord, i);
                    Order o = orders.get(i);
                    o.id = ord.id();
                    o.symbol = ord.symbol();
                    o.side = OrderSide.of((byte) ord.side());
                    o.type = OrderType.of((byte) ord.type());
                    o.price = ord.price();
                    o.volume = ord.volume();
                }
                return reuse;
            }
        };
    }

    // ---------------------------------------------------------------- SBE

    /**
     * SBE: Java codecs generated by uk.co.real-logic:sbe-all (as the C++ row) from
     * bench/cpp/schemas/trade-sbe.xml, over Agrona's UnsafeBuffer (reused, wrapping a reused array
     * to write and the message to read); strings through the codecs' String accessors; decoding
     * walks the message in schema order (fixed block, groups, variable-length data). SBE has no
     * verifier; its accessors bounds-check positions as they go.
     */
    static AccountRow sbe() {
        byte[] buf = new byte[4096];
        UnsafeBuffer write = new UnsafeBuffer(buf);
        UnsafeBuffer read = new UnsafeBuffer(new byte[0]);
        sbe_trade.MessageHeaderEncoder headerOut = new sbe_trade.MessageHeaderEncoder();
        sbe_trade.MessageHeaderDecoder headerIn = new sbe_trade.MessageHeaderDecoder();
        sbe_trade.AccountEncoder enc = new sbe_trade.AccountEncoder();
        sbe_trade.AccountDecoder dec = new sbe_trade.AccountDecoder();
        return new AccountRow("sbe", "SBE") {
            @Override
            public int serialize(Account a) {
                enc.wrapAndApplyHeader(write, 0, headerOut)
                        .id(a.id)
                        .state((short) (a.state.value() & 0xFF))
                        .walletAmount(a.wallet.amount)
                        .hasAsset((short) (a.asset != null ? 1 : 0))
                        .assetAmount(a.asset != null ? a.asset.amount : 0.0);
                sbe_trade.AccountEncoder.OrdersEncoder orders = enc.ordersCount(a.orders.size());
                for (int i = 0, n = a.orders.size(); i < n; i++) {
                    Order o = a.orders.get(i);
                    orders.next()
                            .id(o.id)
                            .side(sbe_trade.OrderSide.get((short) (o.side.value() & 0xFF)))
                            .type(sbe_trade.OrderType.get((short) (o.type.value() & 0xFF)))
                            .price(o.price)
                            .volume(o.volume)
                            .symbol(o.symbol);
                }
                enc.name(a.name);
                enc.walletCurrency(a.wallet.currency);
                enc.assetCurrency(a.asset != null ? a.asset.currency : "");
                out = buf;
                return sbe_trade.MessageHeaderEncoder.ENCODED_LENGTH + enc.encodedLength();
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) {
                read.wrap(data, offset, length);
                headerIn.wrap(read, 0);
                if (headerIn.templateId() != sbe_trade.AccountDecoder.TEMPLATE_ID) {
                    throw new IllegalArgumentException("template id " + headerIn.templateId());
                }
                dec.wrap(read, sbe_trade.MessageHeaderDecoder.ENCODED_LENGTH, headerIn.blockLength(),
                        headerIn.version());
                reuse.id = dec.id();
                reuse.state = State.of((byte) dec.state());
                reuse.wallet.amount = dec.walletAmount();
                boolean hasAsset = dec.hasAsset() != 0;
                double assetAmount = dec.assetAmount();
                sbe_trade.AccountDecoder.OrdersDecoder group = dec.orders();
                List<Order> orders = Domain.orders(reuse, group.count());
                for (int i = 0, n = orders.size(); i < n; i++) {
                    group.next();
                    Order o = orders.get(i);
                    o.id = group.id();
                    o.side = OrderSide.of((byte) group.sideRaw());
                    o.type = OrderType.of((byte) group.typeRaw());
                    o.price = group.price();
                    o.volume = group.volume();
                    o.symbol = group.symbol();
                }
                reuse.name = dec.name();
                reuse.wallet.currency = dec.walletCurrency();
                String assetCurrency = dec.assetCurrency();
                if (hasAsset) {
                    Balance x = Domain.asset(reuse);
                    x.currency = assetCurrency;
                    x.amount = assetAmount;
                } else {
                    reuse.asset = null;
                }
                return reuse;
            }
        };
    }

    // ---------------------------------------------------------------- Kryo

    /** Kryo's serializer of an FBE enum or flags value class: its wire byte. */
    abstract static class ByteValue<T> extends Serializer<T> {
        ByteValue() {
            setImmutable(true);
        }
    }

    /**
     * Kryo: the domain objects themselves (public fields, FieldSerializer), classes registered,
     * references off; the enum and flags value classes as their byte; a reused Output (reset) and
     * Input (setBuffer). Kryo reads into new objects (its API makes them), so deserialize returns
     * a new account.
     */
    static AccountRow kryo() {
        Kryo kryo = new Kryo();
        kryo.setReferences(false);
        kryo.setRegistrationRequired(true);
        kryo.register(Account.class);
        kryo.register(Balance.class);
        kryo.register(Order.class);
        kryo.register(ArrayList.class);
        kryo.register(State.class, new ByteValue<State>() {
            @Override
            public void write(Kryo k, Output output, State v) {
                output.writeByte(v.value());
            }

            @Override
            public State read(Kryo k, Input input, Class<? extends State> type) {
                return State.of(input.readByte());
            }
        });
        kryo.register(OrderSide.class, new ByteValue<OrderSide>() {
            @Override
            public void write(Kryo k, Output output, OrderSide v) {
                output.writeByte(v.value());
            }

            @Override
            public OrderSide read(Kryo k, Input input, Class<? extends OrderSide> type) {
                return OrderSide.of(input.readByte());
            }
        });
        kryo.register(OrderType.class, new ByteValue<OrderType>() {
            @Override
            public void write(Kryo k, Output output, OrderType v) {
                output.writeByte(v.value());
            }

            @Override
            public OrderType read(Kryo k, Input input, Class<? extends OrderType> type) {
                return OrderType.of(input.readByte());
            }
        });
        Output output = new Output(1024, -1);
        Input input = new Input();
        return new AccountRow("kryo", "Kryo") {
            @Override
            public int serialize(Account a) {
                output.reset();
                kryo.writeObject(output, a);
                out = output.getBuffer();
                return output.position();
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) {
                input.setBuffer(data, offset, length);
                return kryo.readObject(input, Account.class);
            }
        };
    }

    // ---------------------------------------------------------------- Jackson

    /** Jackson's mirror of Order, with FBE's JSON member names (enums as their numbers). */
    public static final class JOrder {
        public int id;
        public String symbol;
        public int side;
        public int type;
        public double price;
        public double volume;
    }

    /** Jackson's mirror of Balance. */
    public static final class JBalance {
        public String currency;
        public double amount;
    }

    /** Jackson's mirror of Account. */
    public static final class JAccount {
        public int id;
        public String name;
        public int state;
        public JBalance wallet = new JBalance();
        public JBalance asset;
        public List<JOrder> orders = new ArrayList<>();
    }

    /** A ByteArrayOutputStream whose array is read in place. */
    static final class Bytes extends ByteArrayOutputStream {
        Bytes() {
            super(1024);
        }

        byte[] array() {
            return buf;
        }
    }

    /**
     * Jackson (databind): mirror classes with FBE's JSON member names (so Jackson's own binding is
     * measured, whatever the generated types implement), a reused mirror and ObjectWriter into a
     * reused stream; ObjectReader into a new mirror (Jackson's usual read), then the domain object.
     */
    static AccountRow jackson() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectWriter writer = mapper.writerFor(JAccount.class);
        ObjectReader reader = mapper.readerFor(JAccount.class);
        JAccount mirror = new JAccount();
        Bytes bytes = new Bytes();
        return new AccountRow("jackson", "Jackson") {
            @Override
            public int serialize(Account a) throws Exception {
                mirror.id = a.id;
                mirror.name = a.name;
                mirror.state = a.state.value() & 0xFF;
                mirror.wallet.currency = a.wallet.currency;
                mirror.wallet.amount = a.wallet.amount;
                if (a.asset != null) {
                    if (mirror.asset == null) {
                        mirror.asset = new JBalance();
                    }
                    mirror.asset.currency = a.asset.currency;
                    mirror.asset.amount = a.asset.amount;
                } else {
                    mirror.asset = null;
                }
                List<JOrder> orders = mirror.orders;
                int n = a.orders.size();
                while (orders.size() > n) {
                    orders.remove(orders.size() - 1);
                }
                while (orders.size() < n) {
                    orders.add(new JOrder());
                }
                for (int i = 0; i < n; i++) {
                    Order o = a.orders.get(i);
                    JOrder j = orders.get(i);
                    j.id = o.id;
                    j.symbol = o.symbol;
                    j.side = o.side.value() & 0xFF;
                    j.type = o.type.value() & 0xFF;
                    j.price = o.price;
                    j.volume = o.volume;
                }
                bytes.reset();
                writer.writeValue(bytes, mirror);
                out = bytes.array();
                return bytes.size();
            }

            @Override
            public Account deserialize(byte[] data, int offset, int length, Account reuse) throws Exception {
                JAccount m = reader.readValue(data, offset, length);
                reuse.id = m.id;
                reuse.name = m.name;
                reuse.state = State.of((byte) m.state);
                reuse.wallet.currency = m.wallet.currency;
                reuse.wallet.amount = m.wallet.amount;
                if (m.asset != null) {
                    Balance x = Domain.asset(reuse);
                    x.currency = m.asset.currency;
                    x.amount = m.asset.amount;
                } else {
                    reuse.asset = null;
                }
                List<Order> orders = Domain.orders(reuse, m.orders.size());
                for (int i = 0, n = orders.size(); i < n; i++) {
                    JOrder j = m.orders.get(i);
                    Order o = orders.get(i);
                    o.id = j.id;
                    o.symbol = j.symbol;
                    o.side = OrderSide.of((byte) j.side);
                    o.type = OrderType.of((byte) j.type);
                    o.price = j.price;
                    o.volume = j.volume;
                }
                return reuse;
            }
        };
    }
}
