package fbebench.kafka;

import com.chronoxor.proto.Account;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.google.protobuf.InvalidProtocolBufferException;
import fbebench.Domain;
import io.github.fbetoolkit.kafka.FbeSchema;
import io.github.fbetoolkit.kafka.FbeSerde;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import pb.trade.Trade;

/**
 * The rows of the Kafka benchmark: one serializer and deserializer of kafka-clients each, over the
 * type its users hold (the generated FBE Account, protobuf-java's message, a Jackson record), and
 * the trade sample as that type (bench/java's fbebench.Domain.sample(): id 1 "Test", wallet USD 1000,
 * asset EUR 100, three EURUSD orders), built once. A consumer reads every field of each record it gets (touch).
 *
 * <p>{@code java fbebench.kafka.Rows} checks every row's round trip of the sample and prints
 * "row ID VALUE_BYTES HEADER_BYTES NAME" per row: the bytes a record carries besides its key.
 */
public final class Rows {
    private Rows() {}

    /** One serializer under test. */
    public interface Row<T> {
        String id();

        String name();

        T sample();

        Serializer<T> serializer();

        Deserializer<T> deserializer();

        /** Reads every field of a value (what a consumer of the record does). */
        int touch(T value);
    }

    public static List<Row<?>> all() {
        return List.of(fbe(FbeSchema.Model.VERSIONED, true), fbe(FbeSchema.Model.FINAL, true),
            fbe(FbeSchema.Model.FINAL, false), jackson(), protobuf());
    }

    @SuppressWarnings("unchecked")
    public static Row<Object> byId(String id) {
        for (Row<?> row : all()) {
            if (row.id().equals(id)) {
                return (Row<Object>) row;
            }
        }
        throw new IllegalArgumentException("no row " + id);
    }

    /** The environment variable's value; make sets them (FBE_KAFKA_BOOTSTRAP, FBE_KAFKA_FINGERPRINT). */
    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException(name + " is not set (make bench-kafka sets it)");
        }
        return value;
    }

    // ---------------------------------------------------------------- FBE

    /**
     * Our FbeSerde (runtime/kafka/java) over the generated Account, with the schema gate (the fbe
     * header written and checked per record) or without (its two-argument forms only, as Kafka
     * calls them where a record has no headers: the cost of the codec alone).
     */
    static Row<Account> fbe(FbeSchema.Model model, boolean gate) {
        FbeSchema schema = new FbeSchema("proto", "1.0", env("FBE_KAFKA_FINGERPRINT"), model);
        FbeSerde<Account> serde = model == FbeSchema.Model.FINAL
            ? FbeSerde.of(schema, Account::toFinal, Account::fromFinal)
            : FbeSerde.of(schema, Account::toFbe, Account::fromFbe);
        boolean fin = model == FbeSchema.Model.FINAL;
        return new Row<>() {
            public String id() {
                return (fin ? "fbe-final" : "fbe") + (gate ? "" : "-nogate");
            }

            public String name() {
                return (fin ? "FBE final" : "FBE versioned") + (gate ? " (FbeSerde)" : " (FbeSerde, no headers)");
            }

            public Account sample() {
                return Domain.sample();
            }

            public Serializer<Account> serializer() {
                Serializer<Account> serializer = serde.serializer();
                return gate ? serializer : serializer::serialize;
            }

            public Deserializer<Account> deserializer() {
                Deserializer<Account> deserializer = serde.deserializer();
                return gate ? deserializer : deserializer::deserialize;
            }

            public int touch(Account a) {
                return Domain.touch(a);
            }
        };
    }

    // ---------------------------------------------------------------- Jackson

    /** The JSON a Jackson user sends: records with FBE's JSON member names, enums as numbers. */
    public record JOrder(int id, String symbol, int side, int type, double price, double volume) {}

    public record JBalance(String currency, double amount) {}

    public record JAccount(int id, String name, int state, JBalance wallet, JBalance asset, List<JOrder> orders) {}

    /** Jackson databind's ObjectWriter/ObjectReader of one ObjectMapper (what a JSON serde of Kafka wraps). */
    static Row<JAccount> jackson() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectWriter writer = mapper.writerFor(JAccount.class);
        ObjectReader reader = mapper.readerFor(JAccount.class);
        return new Row<>() {
            public String id() {
                return "jackson";
            }

            public String name() {
                return "JSON (Jackson " + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION + ")";
            }

            public JAccount sample() {
                return new JAccount(1, "Test", 1, new JBalance("USD", 1000), new JBalance("EUR", 100), List.of(
                    new JOrder(1, "EURUSD", 0, 0, 1.23456, 1000),
                    new JOrder(2, "EURUSD", 1, 1, 1.0, 100),
                    new JOrder(3, "EURUSD", 0, 2, 1.5, 10)));
            }

            public Serializer<JAccount> serializer() {
                return (topic, value) -> {
                    try {
                        return value == null ? null : writer.writeValueAsBytes(value);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
            }

            public Deserializer<JAccount> deserializer() {
                return (topic, data) -> {
                    try {
                        return data == null ? null : reader.readValue(data);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
            }

            public int touch(JAccount a) {
                int n = a.id() + a.name().length() + a.state() + a.wallet().currency().length() + (int) a.wallet().amount();
                if (a.asset() != null) {
                    n += a.asset().currency().length() + (int) a.asset().amount();
                }
                for (JOrder o : a.orders()) {
                    n += o.id() + o.symbol().length() + o.side() + o.type() + (int) o.price() + (int) o.volume();
                }
                return n;
            }
        };
    }

    // ---------------------------------------------------------------- protobuf-java

    /** protobuf-java's toByteArray and parseFrom (bench/cpp/schemas/trade.proto through protoc). */
    static Row<Trade.Account> protobuf() {
        return new Row<>() {
            public String id() {
                return "protobuf";
            }

            public String name() {
                return "Protobuf (protobuf-java " + com.google.protobuf.RuntimeVersion.MAJOR + "."
                    + com.google.protobuf.RuntimeVersion.MINOR + "." + com.google.protobuf.RuntimeVersion.PATCH + ")";
            }

            public Trade.Account sample() {
                Trade.Account.Builder b = Trade.Account.newBuilder().setId(1).setName("Test").setState(1);
                b.getWalletBuilder().setCurrency("USD").setAmount(1000);
                b.getAssetBuilder().setCurrency("EUR").setAmount(100);
                b.addOrders(pbOrder(1, Trade.OrderSide.BUY, Trade.OrderType.MARKET, 1.23456, 1000));
                b.addOrders(pbOrder(2, Trade.OrderSide.SELL, Trade.OrderType.LIMIT, 1.0, 100));
                b.addOrders(pbOrder(3, Trade.OrderSide.BUY, Trade.OrderType.STOP, 1.5, 10));
                return b.build();
            }

            public Serializer<Trade.Account> serializer() {
                return (topic, value) -> value == null ? null : value.toByteArray();
            }

            public Deserializer<Trade.Account> deserializer() {
                return (topic, data) -> {
                    try {
                        return data == null ? null : Trade.Account.parseFrom(data);
                    } catch (InvalidProtocolBufferException e) {
                        throw new org.apache.kafka.common.errors.SerializationException(e);
                    }
                };
            }

            public int touch(Trade.Account a) {
                int n = a.getId() + a.getName().length() + a.getState() + a.getWallet().getCurrency().length()
                    + (int) a.getWallet().getAmount();
                if (a.hasAsset()) {
                    n += a.getAsset().getCurrency().length() + (int) a.getAsset().getAmount();
                }
                for (Trade.Order o : a.getOrdersList()) {
                    n += o.getId() + o.getSymbol().length() + o.getSideValue() + o.getTypeValue() + (int) o.getPrice()
                        + (int) o.getVolume();
                }
                return n;
            }
        };
    }

    static Trade.Order pbOrder(int id, Trade.OrderSide side, Trade.OrderType type, double price, double volume) {
        return Trade.Order.newBuilder().setId(id).setSymbol("EURUSD").setSide(side).setType(type).setPrice(price)
            .setVolume(volume).build();
    }

    /** Checks each row's round trip through its serializer with headers and prints its sizes. */
    public static void main(String[] args) {
        boolean ok = true;
        for (Row<?> row : all()) {
            ok &= check(row);
        }
        System.exit(ok ? 0 : 1);
    }

    static <T> boolean check(Row<T> row) {
        RecordHeaders headers = new RecordHeaders();
        T sample = row.sample();
        byte[] value = row.serializer().serialize("bench", headers, sample);
        T back = row.deserializer().deserialize("bench", headers, value);
        int headerBytes = 0;
        for (Header h : headers) {
            headerBytes += h.key().getBytes(StandardCharsets.UTF_8).length + (h.value() == null ? 0 : h.value().length);
        }
        if (row.touch(back) != row.touch(sample)) {
            System.out.println("failed\t" + row.id() + "\tthe sample read back differs: " + back);
            return false;
        }
        System.out.println("row\t" + row.id() + "\t" + value.length + "\t" + headerBytes + "\t" + row.name());
        return true;
    }
}
