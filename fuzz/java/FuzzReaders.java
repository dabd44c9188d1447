// A seeded mutation fuzzer of the fbec --java readers and receivers (issue 16: Jazzer is not
// used; this is not coverage-guided). Each round takes an input of the corpus (the default value
// of every struct in both models and as JSON, the golden vectors and the original's JSON, and every
// mutant that read), mutates it
// (bit flips, interesting bytes and 32-bit values, cut, cloned or deleted ranges, splices) and
// checks:
//   * a reader returns a value or throws DecodeException, nothing else (no crash, no other
//     exception, no hang: the run is bounded per input by the limits);
//   * what reads writes back to bytes that read and write back the same, and prints its text;
//   * a stream of mutated frames through a package's Receiver gives the same messages and errors
//     whole, one byte at a time and in random chunks.
// Args: the targets file written by fuzz/java/build.py, "runs=N" or "seconds=S", the random seed,
// and a folder for failing inputs. Exits 1 after the first failure, leaving its input there.

import io.github.fbetoolkit.fbe.DecodeException;
import io.github.fbetoolkit.fbe.FrameException;
import io.github.fbetoolkit.fbe.FrameReceiver;
import io.github.fbetoolkit.fbe.Limits;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

public final class FuzzReaders {
    private FuzzReaders() {}

    /** One generated struct in one format: the versioned or final model, or JSON text. */
    record Target(String name, String format, MethodHandle read, MethodHandle write, List<byte[]> corpus) {
        Object read(byte[] data) throws Throwable {
            return format.equals("json") ? read.invoke(data, Limits.DEFAULT) : read.invoke(data, 0, data.length, Limits.DEFAULT);
        }

        byte[] write(Object value) throws Throwable {
            return format.equals("json") ? ((String) write.invoke(value)).getBytes(StandardCharsets.UTF_8)
                    : (byte[]) write.invoke(value);
        }
    }

    /** A package's Receiver or FinalReceiver class and the frames it is fed. */
    record Stream(Class<?> receiver, Class<?> handler, boolean finalModel, List<byte[]> frames) {}

    static final int[] INTERESTING = {0, 1, 4, 7, 8, 15, 16, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x7FFFFFFF, -1, -2,
        0x80000000, 1 << 20, 1 << 26};

    static Random random;
    static long seed;
    static Path crashes;
    static long runs;
    static long read;

    static byte[] mutate(byte[] in, List<byte[]> corpus) {
        byte[] b = in.clone();
        int count = 1 + random.nextInt(4);
        for (int k = 0; k < count; k++) {
            int n = b.length;
            switch (random.nextInt(8)) {
                case 0:
                    if (n > 0) {
                        b[random.nextInt(n)] ^= (byte) (1 << random.nextInt(8));
                    }
                    break;
                case 1:
                    if (n > 0) {
                        b[random.nextInt(n)] = (byte) INTERESTING[random.nextInt(INTERESTING.length)];
                    }
                    break;
                case 2:
                    if (n >= 4) {
                        int p = random.nextInt(n - 3);
                        int v = random.nextBoolean() ? INTERESTING[random.nextInt(INTERESTING.length)]
                                : n + random.nextInt(17) - 8;
                        b[p] = (byte) v;
                        b[p + 1] = (byte) (v >> 8);
                        b[p + 2] = (byte) (v >> 16);
                        b[p + 3] = (byte) (v >> 24);
                    }
                    break;
                case 3:
                    if (n > 0) {
                        b = Arrays.copyOf(b, random.nextInt(n));
                    }
                    break;
                case 4:
                    if (n > 1) {
                        int from = random.nextInt(n);
                        int len = 1 + random.nextInt(Math.min(n - from, 64));
                        byte[] out = new byte[n - len];
                        System.arraycopy(b, 0, out, 0, from);
                        System.arraycopy(b, from + len, out, from, n - from - len);
                        b = out;
                    }
                    break;
                case 5:
                    if (n > 0 && n < 1 << 16) {
                        int from = random.nextInt(n);
                        int len = 1 + random.nextInt(Math.min(n - from, 64));
                        int at = random.nextInt(n + 1);
                        byte[] out = new byte[n + len];
                        System.arraycopy(b, 0, out, 0, at);
                        System.arraycopy(b, from, out, at, len);
                        System.arraycopy(b, at, out, at + len, n - at);
                        b = out;
                    }
                    break;
                case 6:
                    byte[] other = corpus.get(random.nextInt(corpus.size()));
                    if (n > 0 && other.length > 0) {
                        int at = random.nextInt(n);
                        int from = random.nextInt(other.length);
                        int len = Math.min(Math.min(n - at, other.length - from), 1 + random.nextInt(32));
                        System.arraycopy(other, from, b, at, len);
                    }
                    break;
                default:
                    if (n >= 4) {       // the root's size field: what a truncated or padded root says
                        int v = random.nextBoolean() ? n : random.nextInt(n + 8);
                        b[0] = (byte) v;
                        b[1] = (byte) (v >> 8);
                        b[2] = (byte) (v >> 16);
                        b[3] = (byte) (v >> 24);
                    }
                    break;
            }
        }
        return b;
    }

    static void fail(String what, byte[] input, Throwable e) throws Exception {
        Files.createDirectories(crashes);
        Path file = crashes.resolve("java-" + Integer.toHexString(Arrays.hashCode(input)) + ".bin");
        Files.write(file, input);
        System.out.println("FAIL (seed " + seed + ") " + what + ": " + e);
        if (e != null) {
            e.printStackTrace(System.out);
        }
        System.out.println("input (" + input.length + " bytes, saved as " + file + "): "
                + HexFormat.of().formatHex(input, 0, Math.min(input.length, 512)));
        System.exit(1);
    }

    static void check(Target t, byte[] input) throws Exception {
        runs++;
        Object v;
        try {
            v = t.read(input);
        } catch (DecodeException e) {
            return;
        } catch (Throwable e) {
            fail(t.name + " read threw something else than DecodeException", input, e);
            return;
        }
        read++;
        try {
            byte[] once = t.write(v);
            byte[] twice = t.write(t.read(once));
            if (!Arrays.equals(once, twice)) {
                fail(t.name + ": what it read writes back to bytes that do not write back the same", input, null);
            }
            v.toString();
        } catch (Throwable e) {
            fail(t.name + ": what it read does not write back", input, e);
        }
        if (t.corpus.size() < 4096 && random.nextInt(8) == 0) {
            t.corpus.add(input);
        }
    }

    static List<String> events(Stream s, byte[] stream, int[] chunks) throws Exception {
        List<String> out = new ArrayList<>();
        Object handler = Proxy.newProxyInstance(s.handler.getClassLoader(), new Class<?>[] {s.handler},
                (proxy, method, args) -> {
                    if (args != null && args.length == 1) {
                        out.add(args[0].getClass().getSimpleName());
                    }
                    return null;
                });
        FrameReceiver r = (FrameReceiver) s.receiver.getConstructor(s.handler).newInstance(handler);
        r.onError(e -> out.add("error " + e.kind() + " at " + e.offset()));
        int p = 0;
        try {
            for (int k = 0; p < stream.length; k++) {
                int n = Math.min(chunks[k % chunks.length], stream.length - p);
                r.receive(stream, p, n);
                p += n;
            }
        } catch (FrameException e) {
            out.add("lost");     // a frame size below the minimum: the rest is dropped
        }
        return out;
    }

    static void checkStream(Stream s) throws Exception {
        runs++;
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        int frames = 1 + random.nextInt(4);
        for (int k = 0; k < frames; k++) {
            byte[] f = s.frames.get(random.nextInt(s.frames.size()));
            all.write(random.nextInt(3) == 0 ? mutate(f, s.frames) : f);
        }
        byte[] stream = all.toByteArray();
        try {
            List<String> whole = events(s, stream, new int[] {stream.length + 1});
            List<String> bytes = events(s, stream, new int[] {1});
            List<String> chunks = events(s, stream, new int[] {1 + random.nextInt(9), 1 + random.nextInt(200)});
            if (!whole.equals(bytes) || !whole.equals(chunks)) {
                fail(s.receiver.getName() + ": chunkings differ: " + whole + " / " + bytes + " / " + chunks, stream, null);
            }
        } catch (RuntimeException | Error e) {
            fail(s.receiver.getName() + " threw", stream, e);
        }
    }

    static MethodHandle reader(Class<?> type, String suffix) throws ReflectiveOperationException {
        return MethodHandles.publicLookup().findStatic(type, "from" + suffix,
                MethodType.methodType(type, byte[].class, int.class, int.class, Limits.class));
    }

    public static void main(String[] args) throws Throwable {
        List<Target> targets = new ArrayList<>();
        List<Stream> streams = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("receiver")) {
                Class<?> handler = Class.forName(f[1] + ".Handler");
                for (boolean fin : new boolean[] {false, true}) {
                    List<byte[]> frames = new ArrayList<>();
                    for (Target t : targets) {
                        if (t.format.equals(fin ? "final" : "versioned") && t.name.startsWith(f[1] + ".")) {
                            frames.addAll(t.corpus);
                        }
                    }
                    streams.add(new Stream(Class.forName(f[1] + (fin ? ".FinalReceiver" : ".Receiver")), handler, fin,
                            frames));
                }
                continue;
            }
            Class<?> type = Class.forName(f[0]);
            Object value = type.getConstructor().newInstance();
            for (boolean fin : new boolean[] {false, true}) {
                String suffix = fin ? "Final" : "Fbe";
                MethodHandle write = MethodHandles.publicLookup().findVirtual(type, "to" + suffix,
                        MethodType.methodType(byte[].class));
                List<byte[]> corpus = new ArrayList<>();
                corpus.add((byte[]) write.invoke(value));
                for (int k = 1; k < f.length; k++) {
                    if (f[k].endsWith(fin ? ".final.bin" : ".fbe.bin")) {
                        corpus.add(Files.readAllBytes(Path.of(f[k])));
                    }
                }
                String format = fin ? "final" : "versioned";
                targets.add(new Target(f[0] + " " + format, format, reader(type, suffix), write, corpus));
            }
            // JSON (classes generated with --json: the Kotlin target's harness has none yet): the
            // default value's text and the original's
            MethodHandle toJson;
            MethodHandle fromJson;
            try {
                toJson = MethodHandles.publicLookup().findVirtual(type, "toJson", MethodType.methodType(String.class));
                fromJson = MethodHandles.publicLookup().findStatic(type, "fromJson",
                        MethodType.methodType(type, byte[].class, Limits.class));
            } catch (NoSuchMethodException e) {
                continue;
            }
            List<byte[]> corpus = new ArrayList<>();
            corpus.add(((String) toJson.invoke(value)).getBytes(StandardCharsets.UTF_8));
            for (int k = 1; k < f.length; k++) {
                if (f[k].endsWith(".json")) {
                    corpus.add(Files.readAllBytes(Path.of(f[k])));
                }
            }
            targets.add(new Target(f[0] + " json", "json", fromJson, toJson, corpus));
        }
        String budget = args[1];
        seed = Long.parseLong(args[2]);
        random = new Random(seed);
        crashes = Path.of(args[3]);
        long limit = Long.parseLong(budget.substring(budget.indexOf('=') + 1));
        long deadline = budget.startsWith("seconds=") ? System.nanoTime() + limit * 1_000_000_000L : Long.MAX_VALUE;
        long maxRuns = budget.startsWith("runs=") ? limit : Long.MAX_VALUE;
        for (Target t : targets) {
            for (byte[] seed : new ArrayList<>(t.corpus)) {
                check(t, seed);
            }
        }
        while (runs < maxRuns && System.nanoTime() < deadline) {
            if (!streams.isEmpty() && random.nextInt(16) == 0) {
                checkStream(streams.get(random.nextInt(streams.size())));
                continue;
            }
            Target t = targets.get(random.nextInt(targets.size()));
            check(t, mutate(t.corpus.get(random.nextInt(t.corpus.size())), t.corpus));
        }
        System.out.println("fuzz-java: " + runs + " runs over " + targets.size() + " readers and " + streams.size()
                + " receivers (seed " + seed + "), " + read + " inputs read and written back, nothing found");
    }
}
