package io.github.fbetoolkit.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Fbe;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.OrderSide;
import com.chronoxor.proto.OrderType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * FbeSerde through a real broker (the one FBE_KAFKA_BOOTSTRAP names, tests/kafka/broker.py): both
 * models round trip with the fbe header, a record of another schema or model and an invalid value
 * are refused with the offset and the reason, and the consumer goes on with the records after them.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FbeSerdeTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final AtomicInteger TOPICS = new AtomicInteger();

    private static String bootstrap;
    private static FbeSchema versioned;

    @BeforeAll
    static void broker() {
        versioned = FbeSchema.of(Fbe.class);
        bootstrap = System.getenv("FBE_KAFKA_BOOTSTRAP");
        assertTrue(bootstrap != null && !bootstrap.isEmpty(), "no FBE_KAFKA_BOOTSTRAP: run the tests under "
            + "tests/kafka/broker.py run -- (make test-kafka does)");
    }

    @Test
    void theGeneratedClassNamesTheSchemaFbecFingerprintPrints() {
        String fingerprint = System.getProperty("fbe.fingerprint", "");
        assertEquals(List.of("proto", "1.0", fingerprint), List.of(Fbe.PACKAGE, Fbe.VERSION, Fbe.FINGERPRINT));
        assertEquals(new FbeSchema("proto", "1.0", fingerprint, FbeSchema.Model.VERSIONED), FbeSchema.of(Fbe.class));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FbeSchema.of(Account.class));
        assertEquals("com.chronoxor.proto.Account is not a schema class fbec generated: no public static String PACKAGE",
            e.getMessage());
    }

    static Account account(int id) {
        Account a = new Account();
        a.id = id;
        a.name = "Account " + id + " \u00e9\u20ac";
        a.wallet.currency = "USD";
        a.wallet.amount = 1000.5 + id;
        a.asset = new Balance();
        a.asset.currency = "EUR";
        a.asset.amount = 10;
        for (int i = 0; i < 3; i++) {
            Order o = new Order();
            o.id = id * 10 + i;
            o.symbol = "EURUSD";
            o.side = i % 2 == 0 ? OrderSide.buy : OrderSide.sell;
            o.type = OrderType.limit;
            o.price = 1.23456 + i;
            o.volume = 1000.0 * i;
            a.orders.add(o);
        }
        return a;
    }

    static FbeSerde<Account> versionedSerde() {
        return FbeSerde.of(versioned, Account::toFbe, Account::fromFbe);
    }

    static FbeSerde<Account> finalSerde() {
        return FbeSerde.of(versioned.withModel(FbeSchema.Model.FINAL), Account::toFinal, Account::fromFinal);
    }

    static String topic() throws Exception {
        return topic("java-test-" + TOPICS.incrementAndGet() + "-" + System.nanoTime());
    }

    static String topic(String name) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        return name;
    }

    static <T> void produce(String topic, Serializer<T> serializer, List<T> values) throws Exception {
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), serializer)) {
            for (T v : values) {
                producer.send(new ProducerRecord<>(topic, "k", v)).get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** A record whose headers name `schema` (null: no headers) and whose value is `value` as it is. */
    static void produceRaw(String topic, FbeSchema schema, byte[] value) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new StringSerializer(), new ByteArraySerializer())) {
            RecordHeaders headers = new RecordHeaders();
            if (schema != null) {
                schema.writeTo(headers);
            }
            producer.send(new ProducerRecord<>(topic, null, "k", value, headers)).get(60, TimeUnit.SECONDS);
        }
    }

    /** Reads `want` good records from the start of the topic; each refused record adds "offset: reason" to
     * `refused` and the consumer seeks past it and goes on. */
    static <T> List<ConsumerRecord<String, T>> consume(String topic, Deserializer<T> deserializer, int want,
            List<String> refused) {
        return consume(topic, deserializer, want, refused, e -> { });
    }

    /** consume, handing each refused record's exception to onRefused before going on. */
    static <T> List<ConsumerRecord<String, T>> consume(String topic, Deserializer<T> deserializer, int want,
            List<String> refused, java.util.function.Consumer<RecordDeserializationException> onRefused) {
        List<ConsumerRecord<String, T>> records = new ArrayList<>();
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, T> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), deserializer)) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (records.size() < want && System.nanoTime() < deadline) {
                try {
                    consumer.poll(Duration.ofMillis(500)).forEach(records::add);
                } catch (RecordDeserializationException e) {
                    refused.add(e.offset() + ": " + e.getCause().getMessage());
                    onRefused.accept(e);
                    consumer.seek(e.topicPartition(), e.offset() + 1);
                }
            }
        }
        return records;
    }

    static void roundTrip(FbeSerde<Account> serde) throws Exception {
        String topic = topic();
        List<Account> sent = List.of(account(1), account(2), account(3));
        produce(topic, serde.serializer(), sent);
        List<String> refused = new ArrayList<>();
        var got = consume(topic, serde.deserializer(), sent.size(), refused);
        assertEquals(List.of(), refused);
        assertEquals(sent.size(), got.size());
        for (int i = 0; i < sent.size(); i++) {
            assertEquals(sent.get(i).toString(), got.get(i).value().toString());
            var h = got.get(i).headers().toArray();
            assertEquals(1, h.length);
            assertEquals(FbeSchema.HEADER, h[0].key());
            assertTrue(Arrays.equals(serde.schema().header(), h[0].value()));
            assertEquals(serde.schema(), FbeSchema.readFrom(got.get(i).headers()));
        }
    }

    @Test
    void versionedRoundTrip() throws Exception {
        roundTrip(versionedSerde());
    }

    @Test
    void finalRoundTrip() throws Exception {
        roundTrip(finalSerde());
    }

    @Test
    void theValueIsExactlyTheMessageBytes() throws Exception {
        String topic = topic();
        Account a = account(7);
        produce(topic, versionedSerde().serializer(), List.of(a));
        var got = consume(topic, Serdes.ByteArray().deserializer(), 1,
            new ArrayList<>());
        assertEquals(1, got.size());
        assertTrue(Arrays.equals(a.toFbe(), got.get(0).value()));
    }

    @Test
    void aForeignSchemaIsRefusedNamingBothAndTheConsumerGoesOn() throws Exception {
        String topic = topic();
        FbeSchema foreign = new FbeSchema("proto", "2.0", "ab".repeat(32), FbeSchema.Model.VERSIONED);
        produce(topic, FbeSerde.of(foreign, Account::toFbe, Account::fromFbe).serializer(), List.of(account(1)));
        produce(topic, finalSerde().serializer(), List.of(account(2)));
        produceRaw(topic, null, account(3).toFbe());
        produce(topic, versionedSerde().serializer(), List.of(account(4)));
        List<String> refused = new ArrayList<>();
        var got = consume(topic, versionedSerde().deserializer(), 1, refused);
        assertEquals(1, got.size());
        assertEquals(3, got.get(0).offset());
        assertEquals(account(4).toString(), got.get(0).value().toString());
        assertEquals(3, refused.size(), refused.toString());
        assertTrue(refused.get(0).startsWith("0: a record written with proto 2.0 (versioned, fingerprint "
            + "ab".repeat(32) + ") cannot be read by proto 1.0 (versioned, fingerprint " + versioned.fingerprint()
            + "): another schema"), refused.get(0));
        assertTrue(refused.get(1).startsWith("1: a record written with proto 1.0 (final, "), refused.get(1));
        assertTrue(refused.get(1).endsWith("another binary model"), refused.get(1));
        assertTrue(refused.get(2).startsWith("2: a record this consumer of proto 1.0 (versioned, ")
            && refused.get(2).contains("no fbe header"), refused.get(2));
    }

    /** proto.Account of the evolved schema (trade.fbe with Account.note appended, mk/kafka.mk). */
    static evolved.com.chronoxor.proto.Account evolvedAccount(int id, String note) throws Exception {
        evolved.com.chronoxor.proto.Account a = evolved.com.chronoxor.proto.Account.fromFbe(account(id).toFbe());
        a.note = note;
        return a;
    }

    /** The fingerprints `fbec topic accept` printed for a schema (mk/kafka.mk), comma-separated. */
    static List<String> acceptedBy(String property) {
        List<String> fingerprints = List.of(System.getProperty(property, "").split(","));
        assertEquals(2, fingerprints.size(), property + ": " + fingerprints);
        return fingerprints;
    }

    @Test
    void aConsumerReadsTheNewerAndOlderWritersItsTopicRecordAccepts() throws Exception {
        // fbec topic accept: each schema's own fingerprint first, then the other one of the topic record
        List<String> older = acceptedBy("fbe.accept");
        List<String> newer = acceptedBy("fbe.accept.evolved");
        assertEquals(versioned.fingerprint(), older.get(0));
        assertEquals(List.of(older.get(1), older.get(0)), newer);
        FbeSchema evolvedSchema = FbeSchema.of(evolved.com.chronoxor.proto.Fbe.class);
        assertEquals(new FbeSchema("proto", "1.1", newer.get(0), FbeSchema.Model.VERSIONED), evolvedSchema);
        FbeSerde<evolved.com.chronoxor.proto.Account> evolvedSerde = FbeSerde.of(evolvedSchema,
            evolved.com.chronoxor.proto.Account::toFbe, evolved.com.chronoxor.proto.Account::fromFbe);

        String topic = topic();
        produce(topic, evolvedSerde.serializer(), List.of(evolvedAccount(1, "from the newer producer")));
        produce(topic, versionedSerde().serializer(), List.of(account(2)));

        // the older consumer: without the record's fingerprints it refuses the newer writer's record ...
        List<String> refused = new ArrayList<>();
        var got = consume(topic, versionedSerde().deserializer(), 1, refused);
        assertEquals(1, refused.size(), refused.toString());
        assertTrue(refused.get(0).startsWith("0: a record written with proto 1.1 (versioned, fingerprint "
            + newer.get(0) + ") cannot be read by proto 1.0"), refused.get(0));
        assertEquals(1L, got.get(0).offset());
        // ... with them it reads it, skipping the field it does not know
        refused.clear();
        var oldReads = consume(topic, versionedSerde().accepting(older).deserializer(), 2, refused);
        assertEquals(List.of(), refused);
        assertEquals(List.of(account(1).toString(), account(2).toString()),
            oldReads.stream().map(r -> r.value().toString()).toList());

        // and back: the newer consumer reads both, the older writer's record with the field's default
        var newReads = consume(topic, evolvedSerde.accepting(newer).deserializer(), 2, refused);
        assertEquals(List.of(), refused);
        assertEquals(List.of("from the newer producer", "evolved"), newReads.stream().map(r -> r.value().note).toList());
        assertEquals(account(2).toString(), Account.fromFbe(evolvedSerde.serializer()
            .serialize(topic, newReads.get(1).value())).toString());

        // another package or model is refused whatever the accepted fingerprints
        String other = topic();
        produce(other, FbeSerde.of(evolvedSchema.withModel(FbeSchema.Model.FINAL), evolved.com.chronoxor.proto.Account::toFinal,
            evolved.com.chronoxor.proto.Account::fromFinal).serializer(), List.of(evolvedAccount(3, "final")));
        produce(other, versionedSerde().serializer(), List.of(account(4)));
        got = consume(other, versionedSerde().accepting(older).deserializer(), 1, refused);
        assertEquals(1, refused.size(), refused.toString());
        assertTrue(refused.get(0).endsWith("another binary model"), refused.get(0));
        assertEquals(1L, got.get(0).offset());
    }

    /** An account of about 40 bytes an order. */
    static Account bigAccount(int orders) {
        Account a = account(9);
        for (int i = 0; i < orders; i++) {
            a.orders.add(account(9).orders.get(0));
        }
        return a;
    }

    @Test
    void theSizeLimitRefusesALargerValueNamingTheSizeAndTheLimit() {
        byte[] small = account(1).toFbe();
        int limit = small.length;
        FbeSerde<Account> serde = versionedSerde().withMaxValueBytes(limit);
        assertEquals(small.length, serde.serializer().serialize("t", new RecordHeaders(), account(1)).length);
        byte[] big = bigAccount(1).toFbe();
        var written = org.junit.jupiter.api.Assertions.assertThrows(FbeRecordException.class,
            () -> serde.serializer().serialize("t", new RecordHeaders(), bigAccount(1)));
        assertEquals("a " + versioned + " value of " + big.length + " bytes is larger than the limit of " + limit
            + " bytes (fbe.max.value.bytes): not written", written.getMessage());
        RecordHeaders headers = new RecordHeaders();
        versioned.writeTo(headers);
        var read = org.junit.jupiter.api.Assertions.assertThrows(FbeRecordException.class,
            () -> serde.deserializer().deserialize("t", headers, big));
        assertTrue(read.getMessage().endsWith("is larger than the limit of " + limit
            + " bytes (fbe.max.value.bytes): not read"), read.getMessage());
        // the limit from the configs Kafka passes to configure (a deserializer named by class in the consumer's)
        Deserializer<Account> configured = versionedSerde().deserializer();
        assertEquals(bigAccount(1).toString(), configured.deserialize("t", headers, big).toString());
        configured.configure(Map.of(FbeSerde.MAX_VALUE_BYTES_CONFIG, String.valueOf(limit)), false);
        org.junit.jupiter.api.Assertions.assertThrows(FbeRecordException.class,
            () -> configured.deserialize("t", headers, big));
        org.junit.jupiter.api.Assertions.assertThrows(org.apache.kafka.common.config.ConfigException.class,
            () -> configured.configure(Map.of(FbeSerde.MAX_VALUE_BYTES_CONFIG, "-1"), false));
    }

    @Test
    void refusedRecordsGoToTheDeadLetterTopicWithTheirPlaceAndReasonAndTheConsumerGoesOn() throws Exception {
        String topic = topic();
        String dlt = topic(FbeDeadLetters.topicOf(topic));
        byte[] big = bigAccount(50).toFbe();
        byte[] invalid = Arrays.copyOf(account(3).toFbe(), 20);
        produce(topic, versionedSerde().serializer(), List.of(account(1)));
        produceRaw(topic, versioned, big);
        produceRaw(topic, versioned, invalid);
        produce(topic, versionedSerde().serializer(), List.of(account(2)));
        int limit = 1024;
        assertTrue(big.length > limit && account(1).toFbe().length < limit);
        List<String> refused = new ArrayList<>();
        List<ConsumerRecord<String, Account>> got;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            FbeDeadLetters letters = new FbeDeadLetters(producer);
            got = consume(topic, versionedSerde().withMaxValueBytes(limit).deserializer(), 2, refused, e -> {
                try {
                    letters.publish(e).get(60, TimeUnit.SECONDS);
                } catch (Exception failed) {
                    throw new AssertionError(failed);
                }
            });
        }
        assertEquals(List.of(0L, 3L), got.stream().map(ConsumerRecord::offset).toList());
        assertEquals(List.of(account(1).toString(), account(2).toString()),
            got.stream().map(r -> r.value().toString()).toList());
        assertEquals(2, refused.size(), refused.toString());
        assertTrue(refused.get(0).startsWith("1: a " + versioned + " value of " + big.length
            + " bytes is larger than the limit of 1024 bytes"), refused.get(0));

        var letters = consume(dlt, Serdes.ByteArray().deserializer(), 2, new ArrayList<>());
        assertEquals(2, letters.size());
        byte[][] values = {big, invalid};
        for (int i = 0; i < 2; i++) {
            var r = letters.get(i);
            assertTrue(Arrays.equals(values[i], r.value()), "the raw value of dead letter " + i);
            assertEquals(0, r.partition());
            assertEquals(topic, text(r, FbeDeadLetters.ORIGINAL_TOPIC));
            assertEquals(0, java.nio.ByteBuffer.wrap(r.headers().lastHeader(FbeDeadLetters.ORIGINAL_PARTITION).value())
                .getInt());
            assertEquals(i + 1L, java.nio.ByteBuffer.wrap(r.headers().lastHeader(FbeDeadLetters.ORIGINAL_OFFSET).value())
                .getLong());
            assertEquals(FbeRecordException.class.getName(), text(r, FbeDeadLetters.EXCEPTION_FQCN));
            assertEquals(refused.get(i), (i + 1) + ": " + text(r, FbeDeadLetters.EXCEPTION_MESSAGE));
            assertTrue(Arrays.equals(versioned.header(), r.headers().lastHeader(FbeSchema.HEADER).value()));
        }
    }

    static String text(ConsumerRecord<?, ?> r, String header) {
        return new String(r.headers().lastHeader(header).value(), StandardCharsets.UTF_8);
    }

    @Test
    void anInvalidValueIsRefusedWithItsOffsetAndReasonAndTheConsumerGoesOn() throws Exception {
        String topic = topic();
        byte[] good = account(1).toFbe();
        produceRaw(topic, versioned, Arrays.copyOf(good, good.length - 5));
        byte[] bad = good.clone();
        bad[4] = 0x7f;                        // the root's type id
        produceRaw(topic, versioned, bad);
        produceRaw(topic, versioned, new byte[0]);
        produce(topic, versionedSerde().serializer(), List.of(account(2)));
        List<String> refused = new ArrayList<>();
        var got = consume(topic, versionedSerde().deserializer(), 1, refused);
        assertEquals(1, got.size());
        assertEquals(3, got.get(0).offset());
        assertEquals(3, refused.size(), refused.toString());
        for (int i = 0; i < 3; i++) {
            assertTrue(refused.get(i).startsWith(i + ": an invalid proto 1.0 (versioned, fingerprint "),
                refused.get(i));
            assertTrue(refused.get(i).contains("offset"), refused.get(i));
        }
        assertFalse(refused.get(0).equals(refused.get(1)));
    }

    /** A consumer of the group that reads count records, one a poll, commits after the last
     * and closes; the offsets of what it read. */
    static List<Long> readAndCommit(String topic, String group, int count, List<String> values) {
        List<Long> offsets = new ArrayList<>();
        try (KafkaConsumer<String, Account> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1"),
                new StringDeserializer(), versionedSerde().deserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (offsets.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, Account> r : consumer.poll(Duration.ofMillis(500))) {
                    offsets.add(r.offset());
                    values.add(r.value().toString());
                    if (offsets.size() == count) {
                        consumer.commitSync(Map.of(new TopicPartition(r.topic(), r.partition()),
                            new OffsetAndMetadata(r.offset() + 1)));
                    }
                }
            }
            // Nothing more than asked for: the next poll would have been the restarted consumer's.
            assertEquals(count, offsets.size(), "records read before the deadline");
        }
        return offsets;
    }

    @Test
    void aRestartedConsumerResumesAtItsCommittedOffset() throws Exception {
        String topic = topic();
        List<Account> sent = List.of(account(1), account(2), account(3), account(4), account(5), account(6));
        produce(topic, versionedSerde().serializer(), sent);
        String group = topic + "-group";
        List<String> values = new ArrayList<>();
        assertEquals(List.of(0L, 1L, 2L), readAndCommit(topic, group, 3, values));
        assertEquals(List.of(3L, 4L, 5L), readAndCommit(topic, group, 3, values));
        assertEquals(sent.stream().map(Account::toString).toList(), values);
    }
}
