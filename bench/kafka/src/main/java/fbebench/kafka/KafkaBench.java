package fbebench.kafka;

import java.time.Duration;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Records per second through the broker of FBE_KAFKA_BOOTSTRAP (docs/kafka.md "Benchmark"), one
 * row ({@link Rows}) per fork: produce (BATCH sends of the sample to partition 0 of a topic of the
 * fork's own, then flush: every record acknowledged) and consume (BATCH records read from a topic of
 * FILL records written at setup, from its start again when at its end, every value touched; the
 * client deserializes in poll). kafka-clients' defaults otherwise (acks all, idempotence, linger.ms
 * 5, batch.size 16 KiB, no compression; the consumer's fetch.max.wait.ms 10 ms); keys are null. One producer thread, one consumer thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class KafkaBench {
    static final int BATCH = 1000;
    static final int FILL = 50_000;
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Param({"fbe-final"})
    public String row;

    private Rows.Row<Object> r;
    private Object sample;
    private String produceTopic;
    private TopicPartition consumed;
    private long end;
    private KafkaProducer<String, Object> producer;
    private KafkaConsumer<String, Object> consumer;
    private Iterator<ConsumerRecord<String, Object>> pending = Collections.emptyIterator();
    private volatile Exception failed;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        r = Rows.byId(row);
        sample = r.sample();
        String bootstrap = Rows.env("FBE_KAFKA_BOOTSTRAP");
        String suffix = row + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        produceTopic = "bench-produce-" + suffix;
        String consumeTopic = "bench-consume-" + suffix;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(produceTopic, 1, (short) 1), new NewTopic(consumeTopic, 1, (short) 1)))
                .all().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new StringSerializer(), r.serializer());
        for (int i = 0; i < FILL; i++) {
            producer.send(new ProducerRecord<>(consumeTopic, 0, null, sample));
        }
        producer.flush();
        // fetch.max.wait.ms 10, not 500: the fetch the consumer sends at the topic's end, before it
        // seeks to the start again, would otherwise hold the next one for half a second
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10"),
            new StringDeserializer(), r.deserializer());
        consumed = new TopicPartition(consumeTopic, 0);
        consumer.assign(List.of(consumed));
        consumer.seekToBeginning(List.of(consumed));
        end = consumer.endOffsets(List.of(consumed)).get(consumed);
        if (end != FILL) {
            throw new IllegalStateException(consumeTopic + " holds " + end + " records, not " + FILL);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        producer.close();
        consumer.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void produce() {
        for (int i = 0; i < BATCH; i++) {
            producer.send(new ProducerRecord<>(produceTopic, 0, null, sample), (metadata, e) -> {
                if (e != null) {
                    failed = e;
                }
            });
        }
        producer.flush();
        if (failed != null) {
            throw new IllegalStateException("a record was not written", failed);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int consume() {
        int sum = 0;
        for (int i = 0; i < BATCH; i++) {
            while (!pending.hasNext()) {
                if (consumer.position(consumed) >= end) {
                    consumer.seekToBeginning(List.of(consumed));
                }
                pending = consumer.poll(TIMEOUT).iterator();
            }
            sum += r.touch(pending.next().value());
        }
        return sum;
    }
}
