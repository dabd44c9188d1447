package io.github.fbetoolkit.kafka;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A record value the deserializer refuses: an fbe header naming another schema, missing or
 * malformed, or bytes that are not a valid message ({@link #getCause()} is then the runtime's {@code DecodeException}, with the
 * field path and the byte offset). The consumer wraps it in a {@code RecordDeserializationException}
 * that gives the partition and offset; seek past the offset to keep consuming.
 */
public class FbeRecordException extends SerializationException {
    private static final long serialVersionUID = 1L;

    public FbeRecordException(String message) {
        super(message);
    }

    public FbeRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
