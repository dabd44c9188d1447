package io.github.fbetoolkit.fbe;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Splits a byte stream fed in chunks of any size (single bytes included) into frames and hands
 * each whole frame to {@link #dispatch} (docs/format.md 7.4, docs/limits.md 6). Generated
 * receivers extend it with a switch over the package's dispatch table (its own messages first,
 * then its imports'). Not safe for concurrent use: one thread feeds it.
 *
 * <p>Every frame is checked: a size above the maximum frame size is refused before any byte of
 * the frame is buffered and the frame's bytes are skipped as they arrive; a frame whose bytes
 * arrive over several chunks is buffered as they arrive (its declared size is never allocated
 * ahead); each body is decoded under the limits (depth, decode budget). A size below the minimum
 * frame leaves no way to find the next frame: the rest of the stream is dropped until
 * {@link #reset}.
 *
 * <p>Without an error handler, {@link #receive} throws the first bad frame's
 * {@link FrameException} and keeps the bytes after it, which the next call handles first
 * ({@code receive(new byte[0])} goes on at once): a server drops the client. With one
 * ({@link #onError}), each bad frame is reported there and receiving goes on.
 */
public abstract class FrameReceiver {
    /** The smallest versioned frame: the root of an empty struct. */
    public static final int MIN_VERSIONED_FRAME = 16;
    /** The smallest final frame. */
    public static final int MIN_FINAL_FRAME = 8;
    /** The frame sizes of the model notice: its sender reads versioned (1) or final (2) frames. */
    private static final int MODEL_NOTICE_VERSIONED = 1;
    private static final int MODEL_NOTICE_FINAL = 2;
    private static final int KEEP_CAPACITY = 64 << 10;
    private static final byte[] NONE = new byte[0];

    private final boolean finalModel;
    private Limits limits = Limits.DEFAULT;
    private Consumer<FrameException> errors;
    private byte[] pending = new byte[256];
    private int pendingSize;
    private byte[] carry = NONE;
    private long skip;
    private FrameException broken;
    private long offset;
    private long received;
    private long refused;

    /**
     * A receiver of one model.
     *
     * @param finalModel whether the stream holds final-model frames (the bytes do not say)
     */
    protected FrameReceiver(boolean finalModel) {
        this.finalModel = finalModel;
    }

    /**
     * Decodes and delivers one whole frame.
     *
     * @param typeId the frame's type id
     * @param frame  the buffer
     * @param offset the frame's first byte
     * @param size   the frame's size
     * @param limits the decode limits
     * @return false when no message has the type id
     * @throws DecodeException when the body does not decode
     */
    protected abstract boolean dispatch(int typeId, byte[] frame, int offset, int size, Limits limits)
            throws DecodeException;

    /** @param value the frame size limit and the decode limits of every frame */
    public void limits(Limits value) {
        limits = value;
    }

    /** @return the limits */
    public Limits limits() {
        return limits;
    }

    /** @param handler where each bad frame is reported (receiving goes on); null: {@link #receive} throws */
    public void onError(Consumer<FrameException> handler) {
        errors = handler;
    }

    /** Forgets a partial frame, a frame being skipped, kept bytes and a lost stream; offsets count from 0 again. */
    public void reset() {
        pendingSize = 0;
        carry = NONE;
        skip = 0;
        broken = null;
        offset = 0;
    }

    /** @return the bytes of an incomplete frame buffered */
    public int pending() {
        return pendingSize;
    }

    /** @return the error that lost the stream (a frame size below the minimum), or null */
    public FrameException broken() {
        return broken;
    }

    /** @return the frames delivered */
    public long receivedMessages() {
        return received;
    }

    /** @return the frames refused (and a lost stream) */
    public long receiveErrors() {
        return refused;
    }

    /**
     * Handles one chunk of the stream.
     *
     * @param data the chunk
     * @throws FrameException the first bad frame's (without an error handler), and a lost stream's
     */
    public void receive(byte[] data) throws FrameException {
        receive(data, 0, data.length);
    }

    private boolean report(FrameException e) {
        refused++;
        if (errors != null) {
            errors.accept(e);
            return false;
        }
        return true;
    }

    private static long u32(byte[] b, int p) {
        return (b[p] & 0xFFL) | (b[p + 1] & 0xFFL) << 8 | (b[p + 2] & 0xFFL) << 16 | (b[p + 3] & 0xFFL) << 24;
    }

    /**
     * Handles one chunk of the stream: every frame it completes is dispatched in order; the start of
     * an incomplete frame is buffered.
     *
     * @param chunk the buffer
     * @param from  the chunk's first byte
     * @param count the chunk's size
     * @throws FrameException the first bad frame's (without an error handler), and a lost stream's
     */
    public void receive(byte[] chunk, int from, int count) throws FrameException {
        if (broken != null) {
            throw broken;
        }
        byte[] data = chunk;
        int p = from;
        int end = from + count;
        if (carry.length > 0) {
            data = Arrays.copyOf(carry, carry.length + count);
            System.arraycopy(chunk, from, data, carry.length, count);
            p = 0;
            end = data.length;
            carry = NONE;
        }
        int minimum = finalModel ? MIN_FINAL_FRAME : MIN_VERSIONED_FRAME;
        while (true) {
            if (skip > 0) {
                int n = (int) Math.min(skip, end - p);
                skip -= n;
                offset += n;
                p += n;
            }
            if (p == end) {
                return;
            }
            if (pendingSize == 0) {
                if (end - p < 4) {
                    append(data, p, end - p);
                    return;
                }
                long size = u32(data, p);
                FrameException e = checkSize(size, minimum);
                if (e != null) {
                    if (broken != null) {
                        refused++;
                        if (errors != null) {
                            errors.accept(e);
                        }
                        throw e;
                    }
                    skip = size;
                    if (report(e)) {
                        int n = (int) Math.min(skip, end - p);
                        skip -= n;
                        offset += n;
                        keep(data, p + n, end);
                        throw e;
                    }
                    continue;
                }
                if (size > end - p) {
                    append(data, p, end - p);
                    return;
                }
                FrameException bad = process(data, p, (int) size);
                offset += size;
                p += (int) size;
                if (bad != null && report(bad)) {
                    keep(data, p, end);
                    throw bad;
                }
                continue;
            }
            if (pendingSize < 4) {
                int n = Math.min(4 - pendingSize, end - p);
                append(data, p, n);
                p += n;
                if (pendingSize < 4) {
                    return;
                }
                long size = u32(pending, 0);
                FrameException e = checkSize(size, minimum);
                if (e != null) {
                    if (broken != null) {
                        refused++;
                        if (errors != null) {
                            errors.accept(e);
                        }
                        throw e;
                    }
                    offset += 4;
                    skip = size - 4;
                    pendingSize = 0;
                    if (report(e)) {
                        int k = (int) Math.min(skip, end - p);
                        skip -= k;
                        offset += k;
                        keep(data, p + k, end);
                        throw e;
                    }
                    continue;
                }
            }
            int size = (int) u32(pending, 0);
            int n = Math.min(size - pendingSize, end - p);
            append(data, p, n);
            p += n;
            if (pendingSize < size) {
                return;
            }
            FrameException bad = process(pending, 0, size);
            offset += size;
            pendingSize = 0;
            if (pending.length > KEEP_CAPACITY) {
                pending = new byte[256];
            }
            if (bad != null && report(bad)) {
                keep(data, p, end);
                throw bad;
            }
        }
    }

    private void append(byte[] data, int p, int n) {
        if (pendingSize + n > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingSize + n));
        }
        System.arraycopy(data, p, pending, pendingSize, n);
        pendingSize += n;
    }

    private void keep(byte[] data, int p, int end) {
        carry = p < end ? Arrays.copyOfRange(data, p, end) : NONE;
    }

    /**
     * The model notice (docs/format.md 7.4): the 4 bytes an end sends before it closes a connection
     * whose frames made no sense in its model, the frame size 1 (it reads versioned frames) or 2
     * (final frames).
     *
     * @param finalModel whether the sender reads final-model frames
     * @return the 4 bytes of the notice
     */
    public static byte[] modelNotice(boolean finalModel) {
        return new byte[] {(byte) (finalModel ? MODEL_NOTICE_FINAL : MODEL_NOTICE_VERSIONED), 0, 0, 0};
    }

    /**
     * @param size the frame size of a model notice (1 or 2)
     * @param finalModel whether the receiver reads final-model frames
     * @return what the receiver says of it
     */
    public static String modelNoticeText(long size, boolean finalModel) {
        String theirs = size == MODEL_NOTICE_FINAL ? "final" : "versioned";
        String ours = finalModel ? "final" : "versioned";
        if (theirs.equals(ours)) {
            return "the other end (reading " + theirs + " frames too) refused a frame of ours and closed";
        }
        return "the other end reads " + theirs + " frames and refused ours: this end sends " + ours
                + " frames (start both ends with the same model)";
    }

    private FrameException checkSize(long size, int minimum) {
        if (size == MODEL_NOTICE_VERSIONED || size == MODEL_NOTICE_FINAL) {
            broken = new FrameException(FrameException.Kind.MODEL_NOTICE, modelNoticeText(size, finalModel), offset,
                    size, null);
            return broken;
        }
        if (size < minimum) {
            broken = new FrameException(FrameException.Kind.FRAME_TOO_SMALL, "frame size " + size
                    + " is below the minimum " + minimum + " of a frame; the rest of the stream is dropped until reset",
                    offset, size, null);
            return broken;
        }
        if (size > limits.maxFrameSize()) {
            return new FrameException(FrameException.Kind.FRAME_TOO_LARGE, "frame size " + size
                    + " is above the maximum " + limits.maxFrameSize() + "; the frame is skipped", offset, size, null);
        }
        return null;
    }

    private FrameException process(byte[] frame, int p, int size) {
        int typeId;
        if (finalModel) {
            typeId = (int) u32(frame, p + 4);
        } else {
            long off = u32(frame, p + 4);
            if (off < 8 || off > size - 8) {
                return new FrameException(FrameException.Kind.BAD_HEADER, "struct offset " + off
                        + " points outside the frame of " + size + " bytes", offset, size, null);
            }
            typeId = (int) u32(frame, p + (int) off + 4);
        }
        try {
            if (!dispatch(typeId, frame, p, size, limits)) {
                return new FrameException(FrameException.Kind.UNKNOWN_TYPE, "no message has type id "
                        + Integer.toUnsignedString(typeId) + " (frame of " + size + " bytes skipped)", offset, size, null);
            }
        } catch (DecodeException e) {
            return new FrameException(FrameException.Kind.INVALID_BODY, "type id " + Integer.toUnsignedString(typeId)
                    + ", frame of " + size + " bytes skipped", offset, size, e);
        }
        received++;
        return null;
    }
}
