package io.github.fbetoolkit.fbe;

/**
 * Why a receiver did not deliver a frame (docs/limits.md 6): what ({@link #kind()}, the message),
 * where (the frame's first byte in the stream, counted from the receiver's start or last reset;
 * the size the frame declared) and, for a body that does not decode, the {@link DecodeException}
 * naming the type, field and offset inside the frame ({@link #getCause()}).
 */
public class FrameException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why a frame was not delivered. */
    public enum Kind {
        /** The frame size is below the minimum (16 versioned, 8 final): the rest of the stream is lost. */
        FRAME_TOO_SMALL("frame too small"),
        /** The frame size is above the maximum frame size: the frame is skipped as it arrives. */
        FRAME_TOO_LARGE("frame too large"),
        /** A versioned frame whose struct offset points outside it: skipped. */
        BAD_HEADER("bad frame header"),
        /** No message of the package or its imports has the frame's type id: skipped. */
        UNKNOWN_TYPE("unknown type"),
        /** The frame's body does not decode: skipped. */
        INVALID_BODY("invalid body"),
        /**
         * The other end's model notice (docs/format.md 7.4): it refused a frame of ours as making no
         * sense in its model and closes; the rest of the stream is lost.
         */
        MODEL_NOTICE("model notice");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private final Kind kind;
    private final long offset;
    private final long size;

    /**
     * A frame error.
     *
     * @param kind    why
     * @param message what, in plain words
     * @param offset  the frame's first byte in the stream
     * @param size    the size the frame declared
     * @param cause   the body's decode error, or null
     */
    public FrameException(Kind kind, String message, long offset, long size, DecodeException cause) {
        super(kind + ": " + message + (cause != null ? ": " + cause.getMessage() : "") + " (frame at stream offset "
                + offset + ")", cause);
        this.kind = kind;
        this.offset = offset;
        this.size = size;
    }

    /** @return why the frame was not delivered */
    public Kind kind() {
        return kind;
    }

    /** @return the frame's first byte in the stream */
    public long offset() {
        return offset;
    }

    /** @return the size the frame declared */
    public long size() {
        return size;
    }
}
