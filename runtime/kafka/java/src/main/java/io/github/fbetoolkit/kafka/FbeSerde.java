package io.github.fbetoolkit.kafka;

import io.github.fbetoolkit.fbe.DecodeException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka's Serializer, Deserializer and Serde for one generated FBE type (docs/kafka.md). The record
 * value is exactly the message bytes of the schema's model; the schema travels in the {@code fbe} header.
 *
 * <pre>{@code
 * FbeSchema schema = new FbeSchema("proto", "1.0", FINGERPRINT, FbeSchema.Model.VERSIONED);
 * FbeSerde<Account> serde = FbeSerde.of(schema, Account::toFbe, Account::fromFbe);
 * new KafkaProducer<>(props, new StringSerializer(), serde.serializer());
 * }</pre>
 *
 * <p>The deserializer reads a record only when its header names the same package and model and a
 * fingerprint it accepts: its own, or one given to {@link #accepting} (what {@code fbec topic accept}
 * prints for the schema, docs/kafka.md "Compatible writers"); anything else, and a value that is not
 * a valid message, is an {@link FbeRecordException} naming both schemas or the reason and the byte
 * offset.
 * Without headers (the two-argument forms Kafka calls where a record has none, such as a state
 * store) the value is written and read without the gate.
 */
public final class FbeSerde<T> implements Serde<T> {

    /** Writes a value as the bytes of one message ({@code Account::toFbe}, {@code Account::toFinal}). */
    @FunctionalInterface
    public interface Encoder<T> {
        byte[] encode(T value);
    }

    /** Reads one message ({@code Account::fromFbe}, {@code Account::fromFinal}). */
    @FunctionalInterface
    public interface Decoder<T> {
        T decode(byte[] data) throws DecodeException;
    }

    private final FbeSchema schema;
    private final Encoder<T> encoder;
    private final Decoder<T> decoder;
    private final Set<String> accepted;
    private final int maxValueBytes;
    /** The fbe header the serializer writes (one array for every record: Kafka only reads it). */
    private final byte[] header;
    /** What the deserializer compares a header with, byte for byte: "PACKAGE " and the raw fingerprints. */
    private final byte[] packagePrefix;
    private final byte[][] acceptedRaw;

    /** The config key of the value size limit (bytes), for a serializer or deserializer Kafka configures. */
    public static final String MAX_VALUE_BYTES_CONFIG = "fbe.max.value.bytes";
    /** No limit of the serde's own: kafka-clients' and the broker's (max.request.size, message.max.bytes) apply. */
    public static final int NO_LIMIT = Integer.MAX_VALUE;

    private FbeSerde(FbeSchema schema, Encoder<T> encoder, Decoder<T> decoder, Set<String> accepted,
            int maxValueBytes) {
        this.schema = schema;
        this.encoder = encoder;
        this.decoder = decoder;
        this.accepted = accepted;
        this.maxValueBytes = maxValueBytes;
        this.header = schema.header();
        this.packagePrefix = (schema.packageName() + " ").getBytes(StandardCharsets.UTF_8);
        this.acceptedRaw = accepted.stream().map(FbeSchema::rawFingerprint).toArray(byte[][]::new);
    }

    public static <T> FbeSerde<T> of(FbeSchema schema, Encoder<T> encoder, Decoder<T> decoder) {
        return new FbeSerde<>(schema, encoder, decoder, Set.of(schema.fingerprint()), NO_LIMIT);
    }

    /**
     * The same serde with a limit on a value's size: the serializer refuses to write and the
     * deserializer to read a value of more than {@code bytes} bytes, naming the size and the limit.
     * {@code fbe.max.value.bytes} in the configs Kafka passes to {@code configure} sets it too.
     */
    public FbeSerde<T> withMaxValueBytes(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException(MAX_VALUE_BYTES_CONFIG + " must not be negative, got " + bytes);
        }
        return new FbeSerde<>(schema, encoder, decoder, accepted, bytes);
    }

    public int maxValueBytes() {
        return maxValueBytes;
    }

    /**
     * The same serde, whose deserializer also reads the records of these writer fingerprints (of the
     * same package and model): the ones {@code fbec topic accept TOPIC.json SCHEMA} prints.
     */
    public FbeSerde<T> accepting(Collection<String> fingerprints) {
        Set<String> all = new LinkedHashSet<>(accepted);
        for (String f : fingerprints) {
            all.add(FbeSchema.requireFingerprint(f));
        }
        return new FbeSerde<>(schema, encoder, decoder, Set.copyOf(all), maxValueBytes);
    }

    public FbeSchema schema() {
        return schema;
    }

    /** The writer fingerprints the deserializer reads: the schema's own and the accepted ones. */
    public Set<String> accepted() {
        return accepted;
    }

    /** The limit of {@code fbe.max.value.bytes} in Kafka's configs, else this serde's. */
    private int limit(Map<String, ?> configs) {
        Object v = configs == null ? null : configs.get(MAX_VALUE_BYTES_CONFIG);
        if (v == null) {
            return maxValueBytes;
        }
        try {
            int bytes = Integer.parseInt(v.toString().trim());
            if (bytes >= 0) {
                return bytes;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new ConfigException(MAX_VALUE_BYTES_CONFIG, v, "a size in bytes, 0 or more");
    }

    private void checkSize(int size, int limit, String what) {
        if (size > limit) {
            throw new FbeRecordException("a " + schema + " value of " + size + " bytes is larger than the limit of "
                + limit + " bytes (" + MAX_VALUE_BYTES_CONFIG + "): not " + what);
        }
    }

    @Override
    public Serializer<T> serializer() {
        return new Serializer<>() {
            private int limit = maxValueBytes;

            @Override
            public void configure(Map<String, ?> configs, boolean isKey) {
                limit = limit(configs);
            }

            @Override
            public byte[] serialize(String topic, T data) {
                return data == null ? null : encode(data);
            }

            @Override
            public byte[] serialize(String topic, Headers headers, T data) {
                if (data == null) {
                    return null;
                }
                byte[] bytes = encode(data);
                headers.remove(FbeSchema.HEADER);
                headers.add(FbeSchema.HEADER, header);
                return bytes;
            }

            private byte[] encode(T data) {
                byte[] bytes = encoder.encode(data);
                checkSize(bytes.length, limit, "written");
                return bytes;
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return new Deserializer<>() {
            private int limit = maxValueBytes;

            @Override
            public void configure(Map<String, ?> configs, boolean isKey) {
                limit = limit(configs);
            }

            @Override
            public T deserialize(String topic, byte[] data) {
                if (data == null) {
                    return null;
                }
                checkSize(data.length, limit, "read");
                return decode(data);
            }

            @Override
            public T deserialize(String topic, Headers headers, byte[] data) {
                if (data == null) {
                    return null;
                }
                Header h = headers.lastHeader(FbeSchema.HEADER);
                byte[] value = h == null ? null : h.value();
                if (!accepts(value)) {
                    checkHeader(value);
                }
                checkSize(data.length, limit, "read");
                return decode(data);
            }
        };
    }

    /**
     * Whether the fbe header's value names this serde's package and model and a fingerprint it
     * accepts, by comparing its bytes: no string is made on this path, every record takes it.
     */
    private boolean accepts(byte[] value) {
        int name = FbeSchema.NAME_OFFSET + packagePrefix.length;
        if (value == null || value.length <= name || value[0] != FbeSchema.LAYOUT
            || value[1] != schema.model().code()
            || !Arrays.equals(value, FbeSchema.NAME_OFFSET, name, packagePrefix, 0, packagePrefix.length)) {
            return false;
        }
        for (byte[] fingerprint : acceptedRaw) {
            if (Arrays.equals(value, 2, FbeSchema.NAME_OFFSET, fingerprint, 0, 32)) {
                return FbeSchema.isUtf8(value, name, value.length);
            }
        }
        return false;
    }

    /** The whole check of a header {@link #accepts} did not take: throws when it is malformed or names another schema. */
    private void checkHeader(byte[] value) {
        FbeSchema writer;
        try {
            writer = FbeSchema.fromHeader(value);
        } catch (FbeRecordException e) {
            throw new FbeRecordException("a record this consumer of " + schema + " cannot check: "
                + e.getMessage());
        }
        String differs = differs(writer);
        if (differs != null) {
            throw new FbeRecordException("a record written with " + writer + " cannot be read by "
                + schema + ": " + differs);
        }
    }

    private String differs(FbeSchema writer) {
        if (!writer.packageName().equals(schema.packageName())) {
            return "another package";
        }
        if (writer.model() != schema.model()) {
            return "another binary model";
        }
        if (!accepted.contains(writer.fingerprint())) {
            return "another schema (fingerprints differ; fbec compat says whether the schemas are compatible)";
        }
        return null;
    }

    private T decode(byte[] data) {
        try {
            return decoder.decode(data);
        } catch (DecodeException e) {
            throw new FbeRecordException("an invalid " + schema + " value of " + data.length + " bytes: "
                + e.getMessage(), e);
        }
    }
}
