// The original's protocol streams (protocol.fbe.bin, protocol.final.bin of SHARED's vectors)
// through the generated com.chronoxor.proto Receiver and FinalReceiver: whole, one byte at a time
// and in random chunks, the same three messages each time; the generated Sender and FinalSender
// write them back byte for byte; a frame size below the minimum loses the stream, one above the
// maximum is skipped as it arrives and the next frame is delivered. Args: the two stream files.
// Prints a summary; exits 1 on any problem.

import com.chronoxor.proto.AccountMessage;
import com.chronoxor.proto.BalanceMessage;
import com.chronoxor.proto.FinalReceiver;
import com.chronoxor.proto.FinalSender;
import com.chronoxor.proto.Handler;
import com.chronoxor.proto.OrderMessage;
import com.chronoxor.proto.Proxy;
import com.chronoxor.proto.ProxyHandler;
import com.chronoxor.proto.Receiver;
import com.chronoxor.proto.Sender;

import io.github.fbetoolkit.fbe.FrameException;
import io.github.fbetoolkit.fbe.FrameReceiver;
import io.github.fbetoolkit.fbe.Limits;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

public final class ProtocolCheck {
    private ProtocolCheck() {}

    static final List<Object> GOT = new ArrayList<>();
    static final List<FrameException> ERRORS = new ArrayList<>();

    static FrameReceiver receiver(boolean finalModel) {
        Handler h = new Handler() {
            @Override
            public void onMessage(Object value) {
                GOT.add(value);
            }
        };
        FrameReceiver r = finalModel ? new FinalReceiver(h) : new Receiver(h);
        r.onError(ERRORS::add);
        return r;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static int cases;

    static void feed(byte[] stream, boolean finalModel, int[] chunks) throws Exception {
        GOT.clear();
        ERRORS.clear();
        FrameReceiver r = receiver(finalModel);
        int p = 0;
        for (int k = 0; p < stream.length; k++) {
            int n = Math.min(chunks[k % chunks.length], stream.length - p);
            r.receive(Arrays.copyOfRange(stream, p, p + n));
            p += n;
        }
        check(ERRORS.isEmpty(), "errors " + ERRORS);
        check(GOT.size() == 3 && GOT.get(0) instanceof OrderMessage && GOT.get(1) instanceof BalanceMessage
                && GOT.get(2) instanceof AccountMessage, "messages " + GOT);
        check(((AccountMessage) GOT.get(2)).body.orders.size() == 3 && r.pending() == 0, "account");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (finalModel) {
            FinalSender s = new FinalSender(out);
            s.send((OrderMessage) GOT.get(0));
            s.send((BalanceMessage) GOT.get(1));
            s.send((AccountMessage) GOT.get(2));
        } else {
            Sender s = new Sender(out);
            s.send((OrderMessage) GOT.get(0));
            s.send((BalanceMessage) GOT.get(1));
            s.send((AccountMessage) GOT.get(2));
        }
        check(Arrays.equals(out.toByteArray(), stream), "sent back differently");
        cases++;
    }

    public static void main(String[] args) throws Exception {
        Random random = new Random(7);
        for (int m = 0; m < 2; m++) {
            boolean finalModel = m == 1;
            byte[] stream = Files.readAllBytes(Path.of(args[m]));
            int first = (stream[0] & 0xFF) | (stream[1] & 0xFF) << 8;                  // the order frame's size
            int third = first + ((stream[first] & 0xFF) | (stream[first + 1] & 0xFF) << 8);   // the account frame
            feed(stream, finalModel, new int[] {stream.length});
            feed(stream, finalModel, new int[] {1});
            for (int k = 0; k < 20; k++) {
                feed(stream, finalModel, new int[] {1 + random.nextInt(40), 1 + random.nextInt(7), 1 + random.nextInt(300)});
            }
            // a frame above the maximum is skipped as it arrives, the next one is delivered
            GOT.clear();
            ERRORS.clear();
            FrameReceiver r = receiver(finalModel);
            r.limits(Limits.DEFAULT.withMaxFrameSize(100));
            for (byte b : stream) {
                r.receive(new byte[] {b});
            }
            check(GOT.size() == 2 && ERRORS.size() == 1 && ERRORS.get(0).kind() == FrameException.Kind.FRAME_TOO_LARGE
                    && ERRORS.get(0).offset() == third, "too large: " + GOT + " " + ERRORS);
            // without an error handler, receive throws at the bad frame and goes on after it
            FrameReceiver strict = finalModel ? new FinalReceiver(new Handler() {}) : new Receiver(new Handler() {});
            byte[] bad = stream.clone();
            bad[first + (finalModel ? 4 : 12)] ^= 0x7F;       // the balance frame's type id
            try {
                strict.receive(bad);
                check(false, "a bad type id was delivered");
            } catch (FrameException e) {
                check(e.offset() == first && e.kind() == FrameException.Kind.UNKNOWN_TYPE, e.getMessage());
            }
            strict.receive(new byte[0]);
            check(strict.receivedMessages() == 2 && strict.receiveErrors() == 1, "resumed after the bad frame");
            // a size below the minimum loses the stream
            FrameReceiver lost = receiver(finalModel);
            try {
                lost.receive(new byte[] {4, 0, 0, 0, 1, 2, 3, 4});
                check(false, "a 4-byte frame was taken");
            } catch (FrameException e) {
                check(e.kind() == FrameException.Kind.FRAME_TOO_SMALL && lost.broken() != null, e.getMessage());
            }
        }
        // the Proxy forwards the versioned frames unchanged, in any chunking
        byte[] stream = Files.readAllBytes(Path.of(args[0]));
        for (int chunk : new int[] {stream.length, 1, 5}) {
            ByteArrayOutputStream forwarded = new ByteArrayOutputStream();
            List<String> seen = new ArrayList<>();
            Proxy proxy = new Proxy(new ProxyHandler() {
                @Override
                public void onFrame(int typeId, byte[] frame, int offset, int size) {
                    forwarded.write(frame, offset, size);
                }

                @Override
                public void onAccountMessageFrame(byte[] frame, int offset, int size) {
                    seen.add("account");
                    onFrame(AccountMessage.TYPE_ID, frame, offset, size);
                }
            });
            for (int p = 0; p < stream.length; p += chunk) {
                proxy.receive(stream, p, Math.min(chunk, stream.length - p));
            }
            check(Arrays.equals(forwarded.toByteArray(), stream) && seen.equals(List.of("account")), "proxy");
            cases++;
        }
        System.out.println(cases + " streams received and sent back");
    }
}
