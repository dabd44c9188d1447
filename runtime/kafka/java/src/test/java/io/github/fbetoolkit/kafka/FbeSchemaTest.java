package io.github.fbetoolkit.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.chronoxor.proto.Account;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/**
 * The fbe header without a broker: the bytes every serializer writes and what every deserializer
 * says of a malformed one, from tests/kafka/header_cases.txt (the Go, Python and JavaScript tests
 * read the same file).
 */
class FbeSchemaTest {
    private static final String FOREIGN = "ab".repeat(32);
    private static final FbeSchema OWN = new FbeSchema("proto", "1.0", "cd".repeat(32), FbeSchema.Model.VERSIONED);

    static List<String[]> cases(String kind) throws Exception {
        return Files.readAllLines(Path.of("../../../tests/kafka/header_cases.txt")).stream()
            .filter(line -> line.startsWith(kind + "\t"))
            .map(line -> line.split("\t", -1))
            .toList();
    }

    static RecordHeaders withFbe(byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace", new byte[] {1});
        headers.add(FbeSchema.HEADER, value);
        return headers;
    }

    @Test
    void theHeaderIsTheBytesOfTheLayout() throws Exception {
        List<String[]> cases = cases("write");
        assertEquals(3, cases.size());
        for (String[] c : cases) {
            String[] schema = c[1].split(" ");
            FbeSchema s = new FbeSchema(schema[0], schema[1], schema[3],
                FbeSchema.Model.valueOf(schema[2].toUpperCase(java.util.Locale.ROOT)));
            byte[] want = HexFormat.of().parseHex(c[2]);
            assertArrayEquals(want, s.header(), c[1]);
            assertEquals(s, FbeSchema.fromHeader(want));
            RecordHeaders headers = withFbe(new byte[] {9});
            s.writeTo(headers);
            assertEquals(2, headers.toArray().length);
            assertArrayEquals(want, headers.lastHeader(FbeSchema.HEADER).value());
            assertEquals(s, FbeSchema.readFrom(headers));
        }
        assertEquals(43, OWN.header().length);
    }

    @Test
    void aMalformedHeaderIsRefusedWithTheTextOfEveryLanguage() throws Exception {
        Deserializer<Account> deserializer = FbeSerde.of(OWN, Account::toFbe, Account::fromFbe)
            .accepting(List.of(FOREIGN)).deserializer();
        byte[] value = new Account().toFbe();
        List<String[]> cases = cases("refuse");
        assertEquals(16, cases.size());
        for (String[] c : cases) {
            byte[] header = HexFormat.of().parseHex(c[1]);
            FbeRecordException e = assertThrows(FbeRecordException.class,
                () -> deserializer.deserialize("t", withFbe(header), value), c[1]);
            assertEquals("a record this consumer of " + OWN + " cannot check: " + c[2], e.getMessage());
            assertEquals(c[2], assertThrows(FbeRecordException.class, () -> FbeSchema.fromHeader(header)).getMessage());
        }
        FbeRecordException none = assertThrows(FbeRecordException.class,
            () -> deserializer.deserialize("t", new RecordHeaders(), value));
        assertEquals("a record this consumer of " + OWN + " cannot check: no fbe header: the record was not written "
            + "by an FBE serializer", none.getMessage());
    }

    @Test
    void theGateReadsItsAcceptedWritersAndRefusesTheOthersNamingBoth() {
        FbeSerde<Account> serde = FbeSerde.of(OWN, Account::toFbe, Account::fromFbe);
        Deserializer<Account> accepting = serde.accepting(List.of(FOREIGN)).deserializer();
        byte[] value = new Account().toFbe();
        FbeSchema newer = new FbeSchema("proto", "1.1 \u00e9", FOREIGN, FbeSchema.Model.VERSIONED);
        assertEquals(new Account().toString(), accepting.deserialize("t", withFbe(newer.header()), value).toString());
        assertEquals("a record written with " + newer + " cannot be read by " + OWN + ": another schema (fingerprints "
            + "differ; fbec compat says whether the schemas are compatible)", assertThrows(FbeRecordException.class,
                () -> serde.deserializer().deserialize("t", withFbe(newer.header()), value)).getMessage());
        for (FbeSchema other : List.of(newer.withModel(FbeSchema.Model.FINAL),
                new FbeSchema("protos", "1.0", FOREIGN, FbeSchema.Model.VERSIONED),
                new FbeSchema("prot", "1.0", FOREIGN, FbeSchema.Model.VERSIONED))) {
            String message = assertThrows(FbeRecordException.class,
                () -> accepting.deserialize("t", withFbe(other.header()), value)).getMessage();
            assertTrue(message.startsWith("a record written with " + other + " cannot be read by " + OWN + ": another "),
                message);
        }
        assertThrows(IllegalArgumentException.class, () -> new FbeSchema("pro to", "1.0", FOREIGN,
            FbeSchema.Model.VERSIONED));
        assertThrows(IllegalArgumentException.class, () -> new FbeSchema("proto", "", FOREIGN,
            FbeSchema.Model.VERSIONED));
    }
}
