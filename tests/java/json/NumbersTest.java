// The Java runtime's JSON numbers against the Python runtime's (tests/java/junit_java.py writes the
// cases, the file the system property fbe.numbers names): one per line, tab-separated: a kind, the
// input and Python's answer. Kinds: d (a double given by its bits in hex: its JSON text, Dtoa and
// JsonWriter.f64), kd and kf (a double or a float, by its bits, as a map key: JsonWriter.keyF64/keyF32's
// text without the colon), dec (decimal text read by Decimals.parse and written as
// JsonWriter.decimalText, or "error"). A test per kind, failing with the first differences.

import io.github.fbetoolkit.fbe.Decimals;
import io.github.fbetoolkit.fbe.Dtoa;
import io.github.fbetoolkit.fbe.JsonWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

class NumbersTest {
    static String key(String kind, String bits) {
        JsonWriter j = new JsonWriter();
        if (kind.equals("kd")) {
            j.keyF64(Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16)));
        } else {
            j.keyF32(Float.intBitsToFloat(Integer.parseUnsignedInt(bits, 16)));
        }
        String text = j.toString();
        return text.substring(0, text.length() - 1);
    }

    /** A double as JsonWriter writes a value: Dtoa's text, NaN and infinities as strings. */
    static String value(double v) {
        String text = Dtoa.toJson(v);
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "\"" + text + "\"";
        }
        JsonWriter j = new JsonWriter();
        j.f64(v);
        if (!j.toString().equals(text)) {
            return "JsonWriter.f64 " + j + ", Dtoa.toJson " + text;
        }
        return text;
    }

    static String decimal(String text) {
        try {
            return JsonWriter.decimalText(Decimals.parse(text));
        } catch (NumberFormatException e) {
            return "error";
        }
    }

    /** Every case of a kind: Java's answer is Python's (the first differences are listed). */
    static void compare(String kind, Function<String, String> java) throws IOException {
        int compared = 0;
        List<String> differ = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(System.getProperty("fbe.numbers")))) {
            String[] f = line.split("\t", -1);
            if (!f[0].equals(kind)) {
                continue;
            }
            compared++;
            String got = java.apply(f[1]);
            if (!got.equals(f[2]) && differ.size() < 50) {
                differ.add(f[1] + ": Java " + got + ", Python " + f[2]);
            }
        }
        assertTrue(compared > 0, "no case of kind " + kind);
        assertEquals(List.of(), differ, kind + ": Java differs from Python");
    }

    @Test
    void doubles() throws IOException {
        compare("d", bits -> value(Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16))));
    }

    @Test
    void doubleKeys() throws IOException {
        compare("kd", bits -> key("kd", bits));
    }

    @Test
    void floatKeys() throws IOException {
        compare("kf", bits -> key("kf", bits));
    }

    @Test
    void decimals() throws IOException {
        compare("dec", NumbersTest::decimal);
    }
}
