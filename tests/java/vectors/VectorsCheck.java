// Reads every golden vector with the fbec --java code and writes it back byte for byte, in both
// models; refuses every truncation; reads every single-byte corruption to a value or a
// DecodeException and nothing else, and writes what it reads back to bytes that read back the
// same; prints what it reads in the text form byte for byte as the original (toString()). Run by
// tests/java/test_java_generated.py with a list of cases (one per line, tab-separated: Java class,
// versioned file, final file, unspecified byte ranges of the versioned file as start:length,...,
// text file). Prints one line per problem and a summary; exits 1 on any problem.

import io.github.fbetoolkit.fbe.DecodeException;
import io.github.fbetoolkit.fbe.Limits;
import io.github.fbetoolkit.fbe.Utf8;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public final class VectorsCheck {
    private VectorsCheck() {}

    /** A generated struct's roots of one model. */
    record Model(String name, MethodHandle read, MethodHandle write) {
        Object read(byte[] data) throws Throwable {
            return read.invoke(data, 0, data.length, Limits.DEFAULT);
        }

        byte[] write(Object value) throws Throwable {
            return (byte[]) write.invoke(value);
        }
    }

    static final List<String> PROBLEMS = new ArrayList<>();

    static Model model(Class<?> type, String suffix) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle read = lookup.findStatic(type, "from" + suffix,
                MethodType.methodType(type, byte[].class, int.class, int.class, Limits.class));
        MethodHandle write = lookup.findVirtual(type, "to" + suffix, MethodType.methodType(byte[].class));
        return new Model(suffix.equals("Fbe") ? "versioned" : "final", read, write);
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
        System.out.println("PROBLEM " + what);
    }

    /** Reads data and writes it back: the bytes (masked), or null when it does not read. */
    static int vectors;
    static int truncations;
    static int corruptions;
    static int corruptionsRead;

    static int texts;

    static void check(String name, Model m, byte[] data, int[][] mask, byte[] text) throws Throwable {
        Object v;
        try {
            v = m.read(data);
        } catch (DecodeException e) {
            problem(name + " " + m.name() + ": does not read: " + e.getMessage());
            return;
        }
        byte[] back = m.write(v);
        if (!Arrays.equals(masked(back, mask), masked(data, mask))) {
            problem(name + " " + m.name() + ": written back differently (" + back.length + " bytes for " + data.length + ")");
            return;
        }
        vectors++;
        if (!Arrays.equals(Utf8.bytes(v.toString()), text)) {
            problem(name + " " + m.name() + ": text " + v + " differs from the original's");
        } else {
            texts++;
        }
        for (int n = 0; n < data.length; n++) {
            try {
                m.read(Arrays.copyOf(data, n));
                problem(name + " " + m.name() + ": the first " + n + " bytes read");
            } catch (DecodeException e) {
                truncations++;
            }
        }
        for (int p = 0; p < data.length; p++) {
            for (int x : new int[] {0x01, 0x80, 0xFF}) {
                byte[] bad = data.clone();
                bad[p] ^= (byte) x;
                corruptions++;
                Object w;
                try {
                    w = m.read(bad);
                } catch (DecodeException e) {
                    continue;
                } catch (Throwable e) {
                    problem(name + " " + m.name() + ": byte " + p + " ^ " + x + " threw " + e);
                    continue;
                }
                corruptionsRead++;
                byte[] once = m.write(w);
                byte[] twice = m.write(m.read(once));
                if (!Arrays.equals(once, twice)) {
                    problem(name + " " + m.name() + ": byte " + p + " ^ " + x + " read, but what it writes reads back differently");
                }
            }
        }
    }

    public static void main(String[] args) throws Throwable {
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            Class<?> type = Class.forName(f[0]);
            int[][] mask = f[3].isEmpty() ? new int[0][] : Arrays.stream(f[3].split(","))
                    .map(r -> new int[] {Integer.parseInt(r.split(":")[0]), Integer.parseInt(r.split(":")[1])})
                    .toArray(int[][]::new);
            byte[] text = Files.readAllBytes(Path.of(f[4]));
            check(f[0], model(type, "Fbe"), Files.readAllBytes(Path.of(f[1])), mask, text);
            check(f[0], model(type, "Final"), Files.readAllBytes(Path.of(f[2])), new int[0][], text);
        }
        System.out.println(vectors + " vectors read and written back, " + texts + " texts as the original's, " + truncations + " truncations refused, "
                + corruptions + " corruptions read or refused (" + corruptionsRead + " read and written back), "
                + PROBLEMS.size() + " problems");
        System.exit(PROBLEMS.isEmpty() ? 0 : 1);
    }
}
