// The Java runtime's JSON numbers against the Python runtime's (run by tests/java/test_java_json.py):
// reads a list of cases written by Python, one per line, tab-separated: a kind, the input and
// Python's answer. Kinds: d (a double given by its bits in hex: its JSON text, Dtoa and JsonWriter.f64), kd and kf (a
// double or a float, by its bits, as a map key: JsonWriter.keyF64/keyF32's text without the colon),
// dec (decimal text read by Decimals.parse and written as JsonWriter.decimalText, or "error").
// Prints each difference and a summary; exits 1 on any.

import io.github.fbetoolkit.fbe.Decimals;
import io.github.fbetoolkit.fbe.Dtoa;
import io.github.fbetoolkit.fbe.JsonWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public final class NumbersCheck {
    private NumbersCheck() {}

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
            throw new AssertionError("JsonWriter.f64 and Dtoa.toJson differ on " + v);
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

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        int compared = 0;
        int differ = 0;
        for (String line : lines) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            String got;
            switch (f[0]) {
                case "d":
                    got = value(Double.longBitsToDouble(Long.parseUnsignedLong(f[1], 16)));
                    break;
                case "kd":
                case "kf":
                    got = key(f[0], f[1]);
                    break;
                case "dec":
                    got = decimal(f[1]);
                    break;
                default:
                    throw new IllegalArgumentException("unknown case " + line);
            }
            compared++;
            if (!got.equals(f[2])) {
                differ++;
                if (differ <= 50) {
                    System.out.println("DIFFERS " + f[0] + " " + f[1] + ": Java " + got + ", Python " + f[2]);
                }
            }
        }
        System.out.println(compared + " cases compared with Python, " + differ + " differ");
        System.exit(differ == 0 ? 0 : 1);
    }
}
