package io.github.fbetoolkit.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Sends the records a consumer refused to a dead-letter topic, as Spring Kafka's
 * DeadLetterPublishingRecoverer does (docs/kafka.md "Hostile records"): the raw key, value and
 * headers of the record to {@code TOPIC.DLT}, the same partition number, with Spring's headers
 * naming where it came from and why ({@code kafka_dlt-original-topic}, {@code -partition} as a
 * 4-byte and {@code -offset} as an 8-byte big-endian integer, {@code kafka_dlt-exception-fqcn},
 * {@code kafka_dlt-exception-message}).
 *
 * <pre>{@code
 * FbeDeadLetters dlt = new FbeDeadLetters(new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer()));
 * } catch (RecordDeserializationException e) {
 *     dlt.publish(e).get();                                     // the record, as it was, to accounts.DLT
 *     consumer.seek(e.topicPartition(), e.offset() + 1);        // and go on
 * }
 * }</pre>
 */
public final class FbeDeadLetters {
    public static final String SUFFIX = ".DLT";
    public static final String ORIGINAL_TOPIC = "kafka_dlt-original-topic";
    public static final String ORIGINAL_PARTITION = "kafka_dlt-original-partition";
    public static final String ORIGINAL_OFFSET = "kafka_dlt-original-offset";
    public static final String EXCEPTION_FQCN = "kafka_dlt-exception-fqcn";
    public static final String EXCEPTION_MESSAGE = "kafka_dlt-exception-message";

    private final Producer<byte[], byte[]> producer;

    public FbeDeadLetters(Producer<byte[], byte[]> producer) {
        this.producer = producer;
    }

    /** The dead-letter topic of a topic: {@code accounts.DLT}. */
    public static String topicOf(String topic) {
        return topic + SUFFIX;
    }

    /** Sends the refused record (its bytes as the consumer received them) and the reason. */
    public Future<RecordMetadata> publish(RecordDeserializationException e) {
        Throwable reason = e.getCause() != null ? e.getCause() : e;
        Headers headers = new RecordHeaders();
        if (e.headers() != null) {
            for (Header h : e.headers()) {
                headers.add(h.key(), h.value());
            }
        }
        headers.add(ORIGINAL_TOPIC, e.topicPartition().topic().getBytes(StandardCharsets.UTF_8));
        headers.add(ORIGINAL_PARTITION, ByteBuffer.allocate(Integer.BYTES).putInt(e.topicPartition().partition()).array());
        headers.add(ORIGINAL_OFFSET, ByteBuffer.allocate(Long.BYTES).putLong(e.offset()).array());
        headers.add(EXCEPTION_FQCN, reason.getClass().getName().getBytes(StandardCharsets.UTF_8));
        headers.add(EXCEPTION_MESSAGE, String.valueOf(reason.getMessage()).getBytes(StandardCharsets.UTF_8));
        return producer.send(new ProducerRecord<>(topicOf(e.topicPartition().topic()), e.topicPartition().partition(),
            null, bytes(e.keyBuffer()), bytes(e.valueBuffer()), headers));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
