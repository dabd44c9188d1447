// The final readers claim a run of fixed-size fields (docs/ir.md runs) with one check
// (tests/java/generated/runs.fbe; test_java_generated.py checks the generated reader does): a root
// that ends inside the run fails as a field-by-field read does, at the first field, or array
// element, that is not there, with its name and position. Read and verify agree. Run by
// tests/java/junit_java.py.

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.fbetoolkit.fbe.DecodeException;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import runs.Run;

class RunsTest {
    static String outcome(byte[] data, boolean verify) {
        try {
            if (verify) {
                Run.verifyFinal(data);
            } else {
                Run.fromFinal(data);
            }
            return "ok";
        } catch (DecodeException e) {
            return e.getMessage();
        }
    }

    /** The fields from the root's first byte: a at 8, b's elements at 12, 14, 16, c at 18, s (its
     *  size at 19, its 3 bytes at 23), d at 26, e at 34; the root is 35 bytes. */
    static String expected(int n) {
        Object[][] starts = {{"a", 8, 4}, {"b", 12, 2}, {"b", 14, 2}, {"b", 16, 2}, {"c", 18, 1}, {"d", 26, 8}, {"e", 34, 1}};
        if (n == 35) {
            return "ok";
        }
        for (Object[] f : starts) {
            if ((int) f[1] + (int) f[2] > n) {
                return "value beyond the end of the buffer (runs.Run." + f[0] + ", offset " + f[1] + ")";
            }
        }
        throw new AssertionError("every field is there at " + n);
    }

    static IntStream sizes() {
        return IntStream.rangeClosed(8, 35);
    }

    /** The root's size says n: it ends inside its fields (inside the string, 19 to 25, read and
     *  verify agree on the string's error). */
    @ParameterizedTest
    @MethodSource("sizes")
    void aCutRootFailsAtTheField(int n) {
        Run v = new Run();
        v.s = "xyz";
        byte[] cut = Arrays.copyOf(v.toFinal(), n);
        cut[0] = (byte) n;
        String read = outcome(cut, false);
        assertEquals(read, outcome(cut, true), "verify as read");
        if (n < 19 || n > 25) {
            assertEquals(expected(n), read);
        }
    }
}
