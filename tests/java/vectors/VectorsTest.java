// Reads every golden vector with the fbec --java code and writes it back byte for byte, in both
// models; refuses every truncation; reads every single-byte corruption to a value or a
// DecodeException and nothing else, and writes what it reads back to bytes that read back the
// same; prints what it reads in the text form byte for byte as the original (toString()) and as
// the original's JSON byte for byte (toJson()); reads the original's JSON (fromJson) and writes it
// back byte for byte, and refuses every truncation of it. On the
// vector, every truncation and every corruption, verify (which builds no value) gives exactly
// what deserialize gives: success, or a DecodeException of the same kind and message (type,
// field path, offset); reading into one reused value (readFbe/readFinal: the value of the last
// read, of another shape) gives what a fresh read gives, text and bytes, and after a refused
// input the reused value is reset to the defaults. The cases are a file the system property
// fbe.vectors names (tests/java/junit_java.py writes it), one per line, tab-separated: Java class,
// versioned file, final file, unspecified byte ranges of the versioned file as start:length,...,
// text file, JSON file. A test per case and model (and one of its JSON), failing with the problems
// found.

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.github.fbetoolkit.fbe.DecodeException;
import io.github.fbetoolkit.fbe.Limits;
import io.github.fbetoolkit.fbe.Utf8;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

class VectorsTest {
    /** A generated struct's roots of one model. */
    record Model(String name, MethodHandle read, MethodHandle write, MethodHandle verify, MethodHandle readInto,
                 Object reused, MethodHandle make) {
        Object read(byte[] data) throws Throwable {
            return read.invoke(data, 0, data.length, Limits.DEFAULT);
        }

        byte[] write(Object value) throws Throwable {
            return (byte[]) write.invoke(value);
        }

        void verify(byte[] data) throws Throwable {
            verify.invoke(data, 0, data.length, Limits.DEFAULT);
        }

        /** Reads data into the model's reused value. */
        void readInto(byte[] data) throws Throwable {
            readInto.invoke(reused, data, 0, data.length, Limits.DEFAULT);
        }

        Object fresh() throws Throwable {
            return make.invoke();
        }
    }

    /** What the running test found wrong (the tests of a factory run one after the other). */
    static final List<String> PROBLEMS = new ArrayList<>();

    static Model model(Class<?> type, String suffix) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle read = lookup.findStatic(type, "from" + suffix,
                MethodType.methodType(type, byte[].class, int.class, int.class, Limits.class));
        MethodHandle write = lookup.findVirtual(type, "to" + suffix, MethodType.methodType(byte[].class));
        MethodHandle verify = lookup.findStatic(type, "verify" + suffix,
                MethodType.methodType(void.class, byte[].class, int.class, int.class, Limits.class));
        MethodHandle readInto = lookup.findVirtual(type, "read" + suffix,
                MethodType.methodType(void.class, byte[].class, int.class, int.class, Limits.class));
        MethodHandle make = lookup.findConstructor(type, MethodType.methodType(void.class));
        return new Model(suffix.equals("Fbe") ? "versioned" : "final", read, write, verify, readInto, make.invoke(),
                make);
    }

    static byte[] masked(byte[] data, int[][] mask) {
        byte[] out = data.clone();
        for (int[] m : mask) {
            for (int k = m[0]; k < m[0] + m[1] && k < out.length; k++) {
                out[k] = 0;
            }
        }
        return out;
    }

    static void problem(String what) {
        PROBLEMS.add(what);
    }

    /** What reading gives: the value (as the bytes it writes), or the exception's kind and message. */
    static String outcome(Model m, Object value) throws Throwable {
        return "value " + Arrays.toString(m.write(value));
    }

    static String outcome(DecodeException e) {
        return "refused " + e.kind() + " " + e.getMessage();
    }

    /**
     * Reads data fresh, verifies it and reads it into the reused value: verify and the reused
     * read must give exactly what the fresh read gives (the same value, or the same error).
     *
     * @return the fresh value, or null when it does not read
     */
    static Object compare(String what, Model m, byte[] data) throws Throwable {
        Object value = null;
        String fresh;
        try {
            value = m.read(data);
            fresh = outcome(m, value);
        } catch (DecodeException e) {
            fresh = outcome(e);
        }
        String checked = "value";
        try {
            m.verify(data);
        } catch (DecodeException e) {
            checked = outcome(e);
        }
        if (!(value != null ? checked.equals("value") : checked.equals(fresh))) {
            problem(what + ": verify gives " + checked + " where deserialize gives " + fresh);
        }
        String reused;
        try {
            m.readInto(data);
            reused = outcome(m, m.reused());
        } catch (DecodeException e) {
            reused = outcome(e);
            Object reset = m.fresh();
            if (reset.toString().equals(m.fresh().toString()) && !m.reused().toString().equals(reset.toString())) {
                problem(what + ": the reused value is not reset after " + reused + ": " + m.reused());
            }
        }
        // where two fresh reads differ too, fields an older writer did not write take defaults made
        // from the clock or at random (utc, uuid1, uuid4), and the values cannot be compared
        if (!reused.equals(fresh) && (value == null || fresh.equals(outcome(m, m.read(data))))) {
            problem(what + ": reading into a reused value gives " + reused + " where a fresh read gives " + fresh);
        }
        return value;
    }

    static MethodHandle TO_JSON;

    static void check(String name, Model m, byte[] data, int[][] mask, byte[] text, byte[] json) throws Throwable {
        Object v;
        try {
            v = m.read(data);
        } catch (DecodeException e) {
            problem(name + " " + m.name() + ": does not read: " + e.getMessage());
            return;
        }
        compare(name + " " + m.name(), m, data);
        byte[] back = m.write(v);
        if (!Arrays.equals(masked(back, mask), masked(data, mask))) {
            problem(name + " " + m.name() + ": written back differently (" + back.length + " bytes for " + data.length + ")");
            return;
        }
        if (!Arrays.equals(Utf8.bytes(v.toString()), text)) {
            problem(name + " " + m.name() + ": text " + v + " differs from the original's");
        }
        if (json != null) {
            String written = (String) TO_JSON.invoke(v);
            if (!Arrays.equals(written.getBytes(StandardCharsets.UTF_8), json)) {
                problem(name + " " + m.name() + ": JSON " + written + " differs from the original's");
            }
        }
        for (int n = 0; n < data.length; n++) {
            byte[] cut = Arrays.copyOf(data, n);
            try {
                m.read(cut);
                problem(name + " " + m.name() + ": the first " + n + " bytes read");
            } catch (DecodeException e) {
                // refused, as it must be
            }
            compare(name + " " + m.name() + " cut to " + n, m, cut);
            m.readInto(data);   // the next cut is read into a value of the whole vector's shape
        }
        for (int p = 0; p < data.length; p++) {
            for (int x : new int[] {0x01, 0x80, 0xFF}) {
                byte[] bad = data.clone();
                bad[p] ^= (byte) x;
                Object w;
                try {
                    w = compare(name + " " + m.name() + " byte " + p + " ^ " + x, m, bad);
                } catch (Throwable e) {
                    problem(name + " " + m.name() + ": byte " + p + " ^ " + x + " threw " + e);
                    continue;
                }
                if (w == null) {
                    continue;
                }
                byte[] once = m.write(w);
                byte[] twice = m.write(m.read(once));
                if (!Arrays.equals(once, twice)) {
                    problem(name + " " + m.name() + ": byte " + p + " ^ " + x + " read, but what it writes reads back differently");
                }
            }
        }
    }

    /** The original's JSON read (fromJson) and written back (toJson) byte for byte; its truncations refused. */
    static void checkJson(String name, Class<?> type, byte[] json) throws Throwable {
        MethodHandle read = MethodHandles.publicLookup().findStatic(type, "fromJson", MethodType.methodType(type, byte[].class));
        Object v;
        try {
            v = read.invoke(json);
        } catch (DecodeException e) {
            problem(name + " JSON: does not read: " + e.getMessage());
            return;
        }
        String written = (String) TO_JSON.invoke(v);
        if (!Arrays.equals(written.getBytes(StandardCharsets.UTF_8), json)) {
            problem(name + " JSON: written back as " + written);
        }
        for (int n = 0; n < json.length; n++) {
            try {
                read.invoke(Arrays.copyOf(json, n));
                problem(name + " JSON: the first " + n + " bytes read");
            } catch (DecodeException e) {
                // refused, as it must be
            }
        }
    }

    interface Check {
        void run() throws Throwable;
    }

    /** A test that fails with the problems check finds (the first 50). */
    static DynamicTest test(String name, Check check) {
        return dynamicTest(name, () -> {
            PROBLEMS.clear();
            check.run();
            assertEquals(List.of(), PROBLEMS.subList(0, Math.min(PROBLEMS.size(), 50)), name);
        });
    }

    @TestFactory
    List<DynamicTest> goldenVectors() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(System.getProperty("fbe.vectors")))) {
            String[] f = line.split("\t", -1);
            int[][] mask = f[3].isEmpty() ? new int[0][] : Arrays.stream(f[3].split(","))
                    .map(r -> new int[] {Integer.parseInt(r.split(":")[0]), Integer.parseInt(r.split(":")[1])})
                    .toArray(int[][]::new);
            byte[] text = Files.readAllBytes(Path.of(f[4]));
            byte[] json = f[5].isEmpty() ? null : Files.readAllBytes(Path.of(f[5]));
            tests.add(test(f[0] + " versioned", () -> {
                Class<?> type = Class.forName(f[0]);
                TO_JSON = MethodHandles.publicLookup().findVirtual(type, "toJson", MethodType.methodType(String.class));
                check(f[0], model(type, "Fbe"), Files.readAllBytes(Path.of(f[1])), mask, text, json);
            }));
            tests.add(test(f[0] + " final", () -> {
                Class<?> type = Class.forName(f[0]);
                TO_JSON = MethodHandles.publicLookup().findVirtual(type, "toJson", MethodType.methodType(String.class));
                check(f[0], model(type, "Final"), Files.readAllBytes(Path.of(f[2])), new int[0][], text, json);
            }));
            if (json != null) {
                tests.add(test(f[0] + " JSON", () -> {
                    Class<?> type = Class.forName(f[0]);
                    TO_JSON = MethodHandles.publicLookup().findVirtual(type, "toJson", MethodType.methodType(String.class));
                    checkJson(f[0], type, json);
                }));
            }
        }
        assertFalse(tests.isEmpty(), "no vector cases");
        return tests;
    }
}
