// The original's protocol streams (protocol.fbe.bin, protocol.final.bin of ../shared's vectors,
// the folder the system property fbe.shared names) through the generated com.chronoxor.proto
// Receiver and FinalReceiver: whole, one byte at a time and in random chunks, the same three
// messages each time; the generated Sender and FinalSender write them back byte for byte; a frame
// size below the minimum loses the stream, one above the maximum is skipped as it arrives and the
// next frame is delivered; the Proxy forwards the frames unchanged. Run by tests/java/junit_java.py.

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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class ProtocolTest {
    final List<Object> got = new ArrayList<>();
    final List<FrameException> errors = new ArrayList<>();

    static byte[] stream(boolean finalModel) throws Exception {
        String name = finalModel ? "protocol.final.bin" : "protocol.fbe.bin";
        return Files.readAllBytes(Path.of(System.getProperty("fbe.shared"), "vectors", name));
    }

    FrameReceiver receiver(boolean finalModel) {
        Handler h = new Handler() {
            @Override
            public void onMessage(Object value) {
                got.add(value);
            }
        };
        FrameReceiver r = finalModel ? new FinalReceiver(h) : new Receiver(h);
        r.onError(errors::add);
        return r;
    }

    void feed(byte[] stream, boolean finalModel, int[] chunks) throws Exception {
        got.clear();
        errors.clear();
        FrameReceiver r = receiver(finalModel);
        int p = 0;
        for (int k = 0; p < stream.length; k++) {
            int n = Math.min(chunks[k % chunks.length], stream.length - p);
            r.receive(Arrays.copyOfRange(stream, p, p + n));
            p += n;
        }
        assertEquals(List.of(), errors);
        assertTrue(got.size() == 3 && got.get(0) instanceof OrderMessage && got.get(1) instanceof BalanceMessage
                && got.get(2) instanceof AccountMessage, "messages " + got);
        assertTrue(((AccountMessage) got.get(2)).body.orders.size() == 3 && r.pending() == 0, "account");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (finalModel) {
            FinalSender s = new FinalSender(out);
            s.send((OrderMessage) got.get(0));
            s.send((BalanceMessage) got.get(1));
            s.send((AccountMessage) got.get(2));
        } else {
            Sender s = new Sender(out);
            s.send((OrderMessage) got.get(0));
            s.send((BalanceMessage) got.get(1));
            s.send((AccountMessage) got.get(2));
        }
        assertArrayEquals(stream, out.toByteArray(), "sent back");
    }

    @Test
    void versionedStreams() throws Exception {
        streams(false);
    }

    @Test
    void finalStreams() throws Exception {
        streams(true);
    }

    void streams(boolean finalModel) throws Exception {
        Random random = new Random(7);
        byte[] stream = stream(finalModel);
        int first = (stream[0] & 0xFF) | (stream[1] & 0xFF) << 8;                  // the order frame's size
        int third = first + ((stream[first] & 0xFF) | (stream[first + 1] & 0xFF) << 8);   // the account frame
        feed(stream, finalModel, new int[] {stream.length});
        feed(stream, finalModel, new int[] {1});
        for (int k = 0; k < 20; k++) {
            feed(stream, finalModel, new int[] {1 + random.nextInt(40), 1 + random.nextInt(7), 1 + random.nextInt(300)});
        }
        // a frame above the maximum is skipped as it arrives, the next one is delivered
        got.clear();
        errors.clear();
        FrameReceiver r = receiver(finalModel);
        r.limits(Limits.DEFAULT.withMaxFrameSize(100));
        for (byte b : stream) {
            r.receive(new byte[] {b});
        }
        assertTrue(got.size() == 2 && errors.size() == 1 && errors.get(0).kind() == FrameException.Kind.FRAME_TOO_LARGE
                && errors.get(0).offset() == third, "too large: " + got + " " + errors);
        // without an error handler, receive throws at the bad frame and goes on after it
        FrameReceiver strict = finalModel ? new FinalReceiver(new Handler() {}) : new Receiver(new Handler() {});
        byte[] bad = stream.clone();
        bad[first + (finalModel ? 4 : 12)] ^= 0x7F;       // the balance frame's type id
        FrameException e = assertThrows(FrameException.class, () -> strict.receive(bad), "a bad type id");
        assertTrue(e.offset() == first && e.kind() == FrameException.Kind.UNKNOWN_TYPE, e.getMessage());
        strict.receive(new byte[0]);
        assertTrue(strict.receivedMessages() == 2 && strict.receiveErrors() == 1, "resumed after the bad frame");
        // a size below the minimum loses the stream
        FrameReceiver lost = receiver(finalModel);
        FrameException small = assertThrows(FrameException.class,
                () -> lost.receive(new byte[] {4, 0, 0, 0, 1, 2, 3, 4}), "a 4-byte frame");
        assertTrue(small.kind() == FrameException.Kind.FRAME_TOO_SMALL && lost.broken() != null, small.getMessage());
    }

    @Test
    void proxyForwardsTheFramesUnchanged() throws Exception {
        // in any chunking
        byte[] stream = stream(false);
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
            assertArrayEquals(stream, forwarded.toByteArray(), "forwarded");
            assertEquals(List.of("account"), seen);
        }
    }
}
