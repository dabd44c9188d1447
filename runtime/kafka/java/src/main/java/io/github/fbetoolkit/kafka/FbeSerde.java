package io.github.fbetoolkit.kafka;

import io.github.fbetoolkit.fbe.DecodeException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka's Serializer, Deserializer and Serde for one generated FBE type (docs/kafka.md). The record
 * value is exactly the message bytes of the schema's model; the schema travels in the headers.
 *
 * <pre>{@code
 * FbeSchema schema = new FbeSchema("proto", "1.0", FINGERPRINT, FbeSchema.Model.VERSIONED);
 * FbeSerde<Account> serde = FbeSerde.of(schema, Account::toFbe, Account::fromFbe);
 * new KafkaProducer<>(props, new StringSerializer(), serde.serializer());
 * }</pre>
 *
 * <p>The deserializer reads a record only when its headers name the same package and model and a
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

    private FbeSerde(FbeSchema schema, Encoder<T> encoder, Decoder<T> decoder, Set<String> accepted) {
        this.schema = schema;
        this.encoder = encoder;
        this.decoder = decoder;
        this.accepted = accepted;
    }

    public static <T> FbeSerde<T> of(FbeSchema schema, Encoder<T> encoder, Decoder<T> decoder) {
        return new FbeSerde<>(schema, encoder, decoder, Set.of(schema.fingerprint()));
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
        return new FbeSerde<>(schema, encoder, decoder, Set.copyOf(all));
    }

    public FbeSchema schema() {
        return schema;
    }

    /** The writer fingerprints the deserializer reads: the schema's own and the accepted ones. */
    public Set<String> accepted() {
        return accepted;
    }

    @Override
    public Serializer<T> serializer() {
        return new Serializer<>() {
            @Override
            public byte[] serialize(String topic, T data) {
                return data == null ? null : encoder.encode(data);
            }

            @Override
            public byte[] serialize(String topic, Headers headers, T data) {
                if (data == null) {
                    return null;
                }
                schema.writeTo(headers);
                return encoder.encode(data);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return new Deserializer<>() {
            @Override
            public T deserialize(String topic, byte[] data) {
                return data == null ? null : decode(data);
            }

            @Override
            public T deserialize(String topic, Headers headers, byte[] data) {
                if (data == null) {
                    return null;
                }
                FbeSchema writer;
                try {
                    writer = FbeSchema.readFrom(headers);
                } catch (FbeRecordException e) {
                    throw new FbeRecordException("a record this consumer of " + schema + " cannot check: "
                        + e.getMessage());
                }
                String differs = differs(writer);
                if (differs != null) {
                    throw new FbeRecordException("a record written with " + writer + " cannot be read by "
                        + schema + ": " + differs);
                }
                return decode(data);
            }
        };
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
