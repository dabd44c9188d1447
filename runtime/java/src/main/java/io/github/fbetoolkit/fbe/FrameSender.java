package io.github.fbetoolkit.fbe;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes messages as frames (docs/format.md 7.3) to an {@link OutputStream}, one {@code write}
 * call per frame, serializing into one reused {@link Writer} (no allocation per message once
 * warm). Generated senders extend it with a {@code send} per message. Safe for concurrent use:
 * frames never interleave.
 */
public abstract class FrameSender {
    private final OutputStream out;
    private final Writer writer = new Writer();
    private long sent;

    /** @param out where the frames go */
    protected FrameSender(OutputStream out) {
        this.out = out;
    }

    /** Serializes one message into a writer and returns the frame's size. */
    @FunctionalInterface
    protected interface Frame {
        /**
         * @param w the sender's writer
         * @return the frame's size
         */
        int write(Writer w);
    }

    /**
     * Serializes one message and writes its frame.
     *
     * @param frame the message's generated {@code writeFbe} or {@code writeFinal}
     * @return the frame's size
     * @throws IOException from the stream
     */
    protected synchronized int sendFrame(Frame frame) throws IOException {
        int size = frame.write(writer);
        out.write(writer.buffer(), 0, size);
        sent++;
        return size;
    }

    /** @return the messages sent */
    public synchronized long sentMessages() {
        return sent;
    }
}
