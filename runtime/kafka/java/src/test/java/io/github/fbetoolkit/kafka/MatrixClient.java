package io.github.fbetoolkit.kafka;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Fbe;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Java client of the cross-language Kafka tests (tests/kafka/test_matrix.py): proto.Account
 * messages of schemas/trade.fbe through FbeSerde.
 *
 * <pre>
 * MatrixClient encode MODEL            JSON lines in, the hex of each message's bytes out
 * MatrixClient produce MODEL TOPIC     JSON lines in, a record each to partition 0, in order
 * MatrixClient consume MODEL TOPIC N   the first N records of partition 0, a line each:
 *                                      "OFFSET HEX JSON", or "OFFSET refused REASON"
 * </pre>
 *
 * <p>MODEL is versioned or final; the broker is FBE_KAFKA_BOOTSTRAP; the schema is the one the
 * generated class {@code Fbe} names.
 */
public final class MatrixClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private MatrixClient() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: MatrixClient encode|produce|consume MODEL [TOPIC [N]]");
        }
        FbeSchema.Model model = FbeSchema.Model.valueOf(args[1].toUpperCase(Locale.ROOT));
        FbeSchema schema = FbeSchema.of(Fbe.class).withModel(model);
        FbeSerde<Account> serde = model == FbeSchema.Model.FINAL
            ? FbeSerde.of(schema, Account::toFinal, Account::fromFinal)
            : FbeSerde.of(schema, Account::toFbe, Account::fromFbe);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        switch (args[0]) {
            case "encode" -> {
                for (Account a : readMessages()) {
                    out.println(HexFormat.of().formatHex(serde.serializer().serialize("", a)));
                }
            }
            case "produce" -> produce(serde, args[2]);
            case "consume" -> consume(serde, args[2], Integer.parseInt(args[3]), out);
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
        out.flush();
    }

    private static List<Account> readMessages() throws Exception {
        List<Account> messages = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            messages.add(Account.fromJson(line));
        }
        return messages;
    }

    private static void produce(FbeSerde<Account> serde, String topic) throws Exception {
        List<Account> messages = readMessages();
        try (KafkaProducer<String, Account> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, System.getenv("FBE_KAFKA_BOOTSTRAP"),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), serde.serializer())) {
            for (Account a : messages) {
                producer.send(new ProducerRecord<>(topic, 0, null, a)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    /** Reads the values as bytes and gives each to the serde's deserializer, as a consumer does. */
    private static void consume(FbeSerde<Account> serde, String topic, int n, PrintStream out) {
        Deserializer<Account> deserializer = serde.deserializer();
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, System.getenv("FBE_KAFKA_BOOTSTRAP"),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            int read = 0;
            while (read < n) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("read " + read + " of " + n + " records of " + topic);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (read == n) {
                        break;
                    }
                    read++;
                    try {
                        Account a = deserializer.deserialize(topic, r.headers(), r.value());
                        out.println(r.offset() + " " + HexFormat.of().formatHex(r.value()) + " " + a.toJson());
                    } catch (FbeRecordException e) {
                        out.println(r.offset() + " refused " + e.getMessage());
                    }
                }
            }
        }
    }
}
