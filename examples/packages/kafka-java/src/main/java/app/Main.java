package app;

import java.nio.file.Files;
import java.nio.file.Path;

import io.github.fbetoolkit.kafka.FbeRecordException;
import io.github.fbetoolkit.kafka.FbeSchema;
import io.github.fbetoolkit.kafka.FbeSerde;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import shop.Order;

/**
 * A user's program on the FBE Kafka serde (io.github.fbetoolkit:fbe-kafka) and the code fbec --java
 * generated into src/main/java, without a broker: the Serializer and Deserializer called as a
 * KafkaProducer and a KafkaConsumer call them, with the record's headers.
 *
 * <p>SCHEMA is the line {@code fbec fingerprint shop.fbe} prints: "shop VERSION FINGERPRINT".
 * {@code write SCHEMA IN VALUE HEADER} serializes the shop.Order of IN (versioned model) and writes the
 * record's value and its fbe header's value; {@code read SCHEMA VALUE HEADER OUT} deserializes a record
 * of that value and fbe header and writes the Order to OUT (a refused record: its reason on stderr,
 * exit status 1).
 */
public final class Main {
    private static final String TOPIC = "orders";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String[] line = args[1].split(" ");
        FbeSchema schema = new FbeSchema(line[0], line[1], line[2], FbeSchema.Model.VERSIONED);
        FbeSerde<Order> serde = FbeSerde.of(schema, Order::toFbe, Order::fromFbe);
        if (args[0].equals("write")) {
            Order order = Order.fromFbe(Files.readAllBytes(Path.of(args[2])));
            Headers headers = new RecordHeaders();
            Files.write(Path.of(args[3]), serde.serializer().serialize(TOPIC, headers, order));
            Files.write(Path.of(args[4]), headers.lastHeader(FbeSchema.HEADER).value());
            return;
        }
        Headers headers = new RecordHeaders().add(FbeSchema.HEADER, Files.readAllBytes(Path.of(args[3])));
        Order order;
        try {
            order = serde.deserializer().deserialize(TOPIC, headers, Files.readAllBytes(Path.of(args[2])));
        } catch (FbeRecordException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        Files.write(Path.of(args[4]), order.toFbe());
    }
}
