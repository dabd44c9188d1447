// The Jazzer fuzz target of the generated JVM readers and receivers (issue 16): fbec --java's
// classes, and fbec --kotlin's through the JVM API both targets share (static fromFbe/fromFinal/
// verifyFbe/verifyFinal(byte[], int, int, Limits) and fromJson(byte[], Limits), toFbe()/toFinal()/
// toJson(), readFbe/readFinal(byte[], int, int, Limits) into a reused value, Receiver(Handler),
// FinalReceiver(Handler) and Proxy(ProxyHandler)), driven by reflection. fuzz/java/jazzer.py runs it under Jazzer
// (coverage-guided, libFuzzer underneath); `java FuzzReaders seeds TARGETS GROUP DIR` writes its
// seed corpus. A group of targets is fuzzed at a time: all of them (the short run of make test),
// or binary (the versioned and final readers), json or receivers (make fuzz, one run each).
//
// An input's first byte picks the target of the group: a struct in one format (versioned, final,
// JSON) or a package's Receiver or FinalReceiver. A reader reads the rest of the input (binary readers at
// offset 1 of the input itself, so a reader that looks before its offset sees the picking byte);
// a receiver takes two more bytes for its chunk sizes and is fed the rest as a stream. For every
// input:
//   * a reader returns a value or throws DecodeException, nothing else;
//   * it allocates at most 64 x its input + 1 MiB (the conformance bound, conformance/limits.py;
//     counted as the conformance testee counts: the thread's allocated bytes; not under Jazzer,
//     whose hooks allocate too, but when the corpus is run again on a plain JVM, main's "run");
//   * verify (binary) gives exactly what the read gives: success, or the same kind and message,
//     with the default limits and at the limits of an input that reads: with the least budget
//     and the least depth it reads with, and one less of each (verify charges what the read
//     charges, in the same order);
//   * what reads writes back in each format (versioned, final, JSON) to bytes that read and write
//     back the same (JSON text of a value read from binary: from the second time, as JSON text
//     drops a decimal's trailing fraction zeros), and prints its text (toString()); what it writes
//     is charged the same budget and counts the same depth in each format (checked in main's "run"
//     only);
//   * reading into a value reused across inputs (readFbe/readFinal) gives what a fresh read gives,
//     value or error (unless two fresh reads differ too: defaults made from the clock or at random,
//     utc, uuid1, uuid4, of fields an older writer left out);
//   * a receiver fed the stream whole, one byte at a time and in chunks delivers the same messages
//     and reports the same errors, throws nothing but FrameException and allocates at most 64 x
//     the stream + 1 MiB (counted as a reader's); the package's Proxy (which verifies each frame
//     where the Receiver reads it) hands on the frames the Receiver delivers and reports the same
//     errors.
// A broken invariant throws FuzzFailure, which Jazzer reports with the input.

import io.github.fbetoolkit.fbe.DecodeException;
import io.github.fbetoolkit.fbe.FrameException;
import io.github.fbetoolkit.fbe.FrameReceiver;
import io.github.fbetoolkit.fbe.Limits;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

public final class FuzzReaders {
    private FuzzReaders() {}

    /** An invariant the input broke. */
    static final class FuzzFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FuzzFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The peak heap bound of conformance/limits.py: 64 x the input + 1 MiB. */
    static long bound(long inputSize) {
        return 64 * inputSize + (1 << 20);
    }

    static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** A generated struct's readers and writers of one format. */
    static final class Format {
        final String name;
        final MethodHandle read;
        final MethodHandle write;
        final MethodHandle verify;
        final MethodHandle readInto;

        Format(String name, MethodHandle read, MethodHandle write, MethodHandle verify, MethodHandle readInto) {
            this.name = name;
            this.read = read;
            this.write = write;
            this.verify = verify;
            this.readInto = readInto;
        }

        boolean json() {
            return name.equals("json");
        }

        Object read(byte[] data, int offset, int length) throws Throwable {
            return json() ? read.invoke(Arrays.copyOfRange(data, offset, offset + length), Limits.DEFAULT)
                    : read.invoke(data, offset, length, Limits.DEFAULT);
        }

        /** What a read under the limits gives: "value", or the DecodeException's outcome. */
        String tryRead(byte[] data, int offset, int length, Limits limits) throws Throwable {
            try {
                if (json()) {
                    read.invoke(Arrays.copyOfRange(data, offset, offset + length), limits);
                } else {
                    read.invoke(data, offset, length, limits);
                }
                return "value";
            } catch (DecodeException e) {
                return outcome(e);
            }
        }

        /** What verify under the limits gives: "value", or the DecodeException's outcome. */
        String tryVerify(byte[] data, int offset, int length, Limits limits) throws Throwable {
            try {
                verify.invoke(data, offset, length, limits);
                return "value";
            } catch (DecodeException e) {
                return outcome(e);
            }
        }

        byte[] write(Object value) throws Throwable {
            return json() ? ((String) write.invoke(value)).getBytes(StandardCharsets.UTF_8) : (byte[]) write.invoke(value);
        }
    }

    /** One generated struct: its formats (JSON where it was generated with --json) and a reused value. */
    static final class Type {
        final Class<?> type;
        final MethodHandle make;
        final List<Format> formats = new ArrayList<>();
        final List<List<byte[]>> seeds = new ArrayList<>();
        final List<Object> reused = new ArrayList<>();

        Type(Class<?> type) throws ReflectiveOperationException {
            this.type = type;
            make = MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class));
        }
    }

    /** A reader target: a struct in one of its formats. */
    record Reader(Type type, int format) {
        String name() {
            return type.type.getName() + " " + type.formats.get(format).name;
        }
    }

    /**
     * A package's Receiver (and Proxy, which verifies the frames the Receiver reads) or FinalReceiver,
     * with their handler interfaces, and the frames its seeds are made of.
     */
    record Stream(Class<?> receiver, Class<?> handler, Class<?> proxy, Class<?> proxyHandler, List<byte[]> frames) {}

    static final List<Reader> READERS = new ArrayList<>();
    static final List<Stream> STREAMS = new ArrayList<>();

    static MethodHandle find(Class<?> type, String name, MethodType t, boolean isStatic) {
        try {
            return isStatic ? MethodHandles.publicLookup().findStatic(type, name, t)
                    : MethodHandles.publicLookup().findVirtual(type, name, t);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /**
     * Loads the targets file of fuzz/java/build.py or fuzz/kotlin/build.py, keeping the targets of a
     * group: all, binary (the versioned and final readers), json or receivers.
     */
    static void load(Path targets, String group) throws Throwable {
        MethodType binary = MethodType.methodType(void.class, byte[].class, int.class, int.class, Limits.class);
        List<Type> types = new ArrayList<>();
        for (String line : Files.readAllLines(targets)) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("receiver")) {
                Class<?> handler = Class.forName(f[1] + ".Handler");
                for (String model : new String[] {"versioned", "final"}) {
                    List<byte[]> frames = new ArrayList<>();
                    for (Type t : types) {
                        if (t.type.getPackageName().equals(f[1])) {
                            int k = model.equals("versioned") ? 0 : 1;
                            frames.addAll(t.seeds.get(k));
                        }
                    }
                    boolean fin = model.equals("final");
                    STREAMS.add(new Stream(Class.forName(f[1] + (fin ? ".FinalReceiver" : ".Receiver")), handler,
                            fin ? null : Class.forName(f[1] + ".Proxy"), fin ? null : Class.forName(f[1] + ".ProxyHandler"),
                            frames));
                }
                continue;
            }
            Type t = new Type(Class.forName(f[0]));
            types.add(t);
            Object value = t.make.invoke();
            for (String suffix : new String[] {"Fbe", "Final", "Json"}) {
                Format format;
                String ending;
                if (suffix.equals("Json")) {
                    MethodHandle read = find(t.type, "fromJson", MethodType.methodType(t.type, byte[].class, Limits.class),
                            true);
                    if (read == null) {
                        continue;       // generated without --json
                    }
                    format = new Format("json", read, find(t.type, "toJson", MethodType.methodType(String.class), false),
                            null, null);
                    ending = ".json";
                } else {
                    format = new Format(suffix.equals("Fbe") ? "versioned" : "final",
                            find(t.type, "from" + suffix, binary.changeReturnType(t.type), true),
                            find(t.type, "to" + suffix, MethodType.methodType(byte[].class), false),
                            find(t.type, "verify" + suffix, binary, true),
                            find(t.type, "read" + suffix, binary, false));
                    ending = suffix.equals("Fbe") ? ".fbe.bin" : ".final.bin";
                }
                List<byte[]> seeds = new ArrayList<>();
                seeds.add(format.write(value));
                for (int k = 1; k < f.length; k++) {
                    if (f[k].endsWith(ending)) {
                        seeds.add(Files.readAllBytes(Path.of(f[k])));
                    }
                }
                t.formats.add(format);
                t.seeds.add(seeds);
                t.reused.add(format.readInto == null ? null : t.make.invoke());
                READERS.add(new Reader(t, t.formats.size() - 1));
            }
        }
        switch (group) {
            case "all" -> { }
            case "binary" -> READERS.removeIf(r -> r.type.formats.get(r.format).json());
            case "json" -> READERS.removeIf(r -> !r.type.formats.get(r.format).json());
            case "receivers" -> READERS.clear();
            default -> throw new IllegalArgumentException("no group " + group + ": all, binary, json or receivers");
        }
        if (!group.equals("all") && !group.equals("receivers")) {
            STREAMS.clear();
        }
        if (READERS.size() + STREAMS.size() > 256) {
            throw new IllegalStateException(READERS.size() + STREAMS.size() + " targets: one byte picks the target");
        }
    }

    /** Jazzer: the targets file and the group (--target_args). */
    public static void fuzzerInitialize(String[] args) throws Throwable {
        load(Path.of(args[0]), args[1]);
    }

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        if (input.length == 0) {
            return;
        }
        int k = (input[0] & 0xFF) % (READERS.size() + STREAMS.size());
        if (k < READERS.size()) {
            read(READERS.get(k), input);
        } else if (input.length >= 3) {
            stream(STREAMS.get(k - READERS.size()), input);
        }
    }

    /** What reading gives: the value as the bytes it writes, or the exception's kind and message. */
    static String outcome(Format f, Object value) throws Throwable {
        return "value " + HexFormat.of().formatHex(f.write(value));
    }

    static String outcome(DecodeException e) {
        return "refused " + e.kind() + " " + e.getMessage();
    }

    static FuzzFailure failure(String what, Throwable cause) {
        return new FuzzFailure(what, cause);
    }

    /** Code whose allocations are counted. */
    interface Action {
        void run() throws Throwable;
    }

    /**
     * Whether the corpus is run again on a plain JVM (main's run), not under Jazzer: then
     * {@link #checkAllocation} counts (Jazzer's hooks, the string comparisons' among them, allocate
     * in the instrumented code: 3.3 MB where a plain JVM allocates 86 KB to refuse a 10 KB JSON
     * document) and what reads is charged alike in every format ({@link #sameCharges}: three
     * bisections, too slow to make under Jazzer).
     */
    static boolean replay;

    /**
     * Runs an action (again) and fails when it allocates more than 64 x the input + 1 MiB; over that,
     * counts a second run, as the first run of a type loads and links classes.
     */
    static void checkAllocation(String what, long inputSize, Action action) throws Throwable {
        for (int k = 0; replay; k++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            action.run();
            long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
            if (allocated <= bound(inputSize)) {
                return;
            }
            if (k > 0) {
                throw failure(what + " " + inputSize + " bytes allocated " + allocated + " bytes, over 64 x the input + 1 MiB ("
                        + bound(inputSize) + ")", null);
            }
        }
    }

    static void read(Reader r, byte[] input) throws Throwable {
        Format f = r.type.formats.get(r.format);
        int length = input.length - 1;
        Object value = null;
        DecodeException refused = null;
        try {
            value = f.read(input, 1, length);
        } catch (DecodeException e) {
            refused = e;
        } catch (Throwable e) {
            throw failure(r.name() + ": read threw something else than DecodeException", e);
        }
        checkAllocation(r.name() + ": reading", length, () -> {
            try {
                f.read(input, 1, length);
            } catch (DecodeException e) {
                // refused as before
            }
        });
        String fresh = value != null ? outcome(f, value) : outcome(refused);
        if (f.verify != null) {
            String verified = f.tryVerify(input, 1, length, Limits.DEFAULT);
            if (!(value != null ? verified.equals("value") : verified.equals(fresh))) {
                throw failure(r.name() + ": verify gives " + verified + " where deserialize gives " + fresh, null);
            }
            if (value != null) {
                atTheLimits(r, f, input, length);
            }
        }
        if (f.readInto != null) {
            Object reused = r.type.reused.get(r.format);
            String into;
            try {
                f.readInto.invoke(reused, input, 1, length, Limits.DEFAULT);
                into = outcome(f, reused);
            } catch (DecodeException e) {
                into = outcome(e);
            }
            if (!into.equals(fresh) && (value == null || fresh.equals(outcome(f, f.read(input, 1, length))))) {
                throw failure(r.name() + ": reading into a reused value gives " + into + " where a fresh read gives "
                        + fresh, null);
            }
        }
        if (value == null) {
            return;
        }
        try {
            value.toString();
        } catch (Throwable e) {
            throw failure(r.name() + ": what it read does not print", e);
        }
        List<byte[]> written = new ArrayList<>();
        for (Format g : r.type.formats) {
            byte[] once;
            try {
                once = g.write(value);
            } catch (Throwable e) {
                throw failure(r.name() + ": what it read does not write as " + g.name, e);
            }
            byte[] twice = writeBack(r, g, once);
            if (!Arrays.equals(once, twice) && g.json() && !f.json()) {
                // JSON text normalizes decimals (trailing fraction zeros dropped, as every runtime
                // reads it; docs/limits.md 4): a value read from binary may print differently once
                once = twice;
                twice = writeBack(r, g, once);
            }
            if (!Arrays.equals(once, twice)) {
                throw failure(r.name() + ": what it read, written as " + g.name + ", reads back to another value: "
                        + show(g, once) + " / " + show(g, twice), null);
            }
            written.add(once);
        }
        if (replay) {
            sameCharges(r, written);
        }
    }

    /**
     * A value costs the same in every format (docs/limits.md 3) and nests as deep: the least budget
     * (a budget factor of 0 and the least slack) and the least depth that read what the value writes
     * are the same in the versioned and final models and in JSON.
     */
    static void sameCharges(Reader r, List<byte[]> written) throws Throwable {
        List<String> charges = new ArrayList<>();
        for (int k = 0; k < written.size(); k++) {
            Format g = r.type.formats.get(k);
            byte[] data = written.get(k);
            int budget = least((int) Limits.DEFAULT.budget(data.length), b -> g.tryRead(data, 0, data.length,
                    new Limits(Limits.MAX_DEPTH, 0, b, Limits.MAX_FRAME_SIZE)));
            int depth = least(Limits.MAX_DEPTH, d -> g.tryRead(data, 0, data.length,
                    new Limits(d, Limits.BUDGET_FACTOR, Limits.BUDGET_SLACK, Limits.MAX_FRAME_SIZE)));
            charges.add(g.name + ": budget " + budget + ", depth " + depth);
        }
        if (charges.stream().map(c -> c.substring(c.indexOf(':'))).distinct().count() > 1) {
            throw failure(r.name() + ": what it read is charged differently in each format: " + charges, null);
        }
    }

    /**
     * Where the limits start to refuse an input that reads: the least budget (a budget slack with a
     * budget factor of 0) and the least depth with which it reads. There verify must accept it too,
     * and one below both must refuse it with the same error: verify charges what the read charges,
     * in the same order, and counts the same levels.
     */
    static void atTheLimits(Reader r, Format f, byte[] input, int length) throws Throwable {
        int budget = least((int) Limits.DEFAULT.budget(length),
            b -> f.tryRead(input, 1, length, new Limits(Limits.MAX_DEPTH, 0, b, Limits.MAX_FRAME_SIZE)));
        int depth = least(Limits.MAX_DEPTH,
            d -> f.tryRead(input, 1, length, new Limits(d, Limits.BUDGET_FACTOR, Limits.BUDGET_SLACK, Limits.MAX_FRAME_SIZE)));
        List<Limits> limits = new ArrayList<>();
        for (int b = Math.max(0, budget - 1); b <= budget; b++) {
            limits.add(new Limits(Limits.MAX_DEPTH, 0, b, Limits.MAX_FRAME_SIZE));
        }
        for (int d = Math.max(0, depth - 1); d <= depth; d++) {
            limits.add(new Limits(d, Limits.BUDGET_FACTOR, Limits.BUDGET_SLACK, Limits.MAX_FRAME_SIZE));
        }
        for (Limits l : limits) {
            String read = f.tryRead(input, 1, length, l);
            String verified = f.tryVerify(input, 1, length, l);
            if (!read.equals(verified)) {
                throw failure(r.name() + ": with " + l + " verify gives " + verified + " where deserialize gives " + read,
                        null);
            }
        }
    }

    /** An outcome of one limit's value. */
    interface Outcome {
        String at(int limit) throws Throwable;
    }

    /** The least value of a limit in 0..most with which the outcome is a value (it is at most). */
    static int least(int most, Outcome outcome) throws Throwable {
        int lo = 0;
        int hi = most;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (outcome.at(mid).equals("value")) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** What data of the format reads to, written again. */
    static byte[] writeBack(Reader r, Format g, byte[] data) {
        try {
            return g.write(g.read(data, 0, data.length));
        } catch (Throwable e) {
            throw failure(r.name() + ": what it read, written as " + g.name + ", does not read back: " + show(g, data), e);
        }
    }

    static String show(Format f, byte[] data) {
        return f.json() ? new String(data, StandardCharsets.UTF_8) : HexFormat.of().formatHex(data);
    }

    /**
     * Feeds a stream to a new receiver (or proxy) in chunks of the sizes given in turn: what it
     * delivers (each message's type id) and reports.
     */
    static List<String> events(Class<?> receiver, Class<?> handler, byte[] stream, int from, int[] chunks)
            throws Throwable {
        List<String> out = new ArrayList<>();
        Object h = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler},
                (proxy, method, args) -> {
                    if (args != null && args.length == 1) {             // a Receiver's message
                        out.add("message " + args[0].getClass().getField("TYPE_ID").getInt(null));
                    } else if (args != null && args.length == 3) {      // a Proxy's frame (versioned)
                        byte[] frame = (byte[]) args[0];
                        int offset = (Integer) args[1];
                        out.add("message " + u32(frame, offset + u32(frame, offset + 4) + 4));
                    }
                    return null;
                });
        FrameReceiver r = (FrameReceiver) receiver.getConstructor(handler).newInstance(h);
        r.onError(e -> out.add("error " + e.kind() + " at " + e.offset()));
        int p = from;
        try {
            for (int k = 0; p < stream.length; k++) {
                int n = Math.min(chunks[k % chunks.length], stream.length - p);
                r.receive(stream, p, n);
                p += n;
            }
        } catch (FrameException e) {
            out.add("lost");        // a frame size below the minimum: the rest is dropped
        }
        return out;
    }

    static int u32(byte[] b, int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | (b[p + 3] & 0xFF) << 24;
    }

    static void stream(Stream s, byte[] input) throws Throwable {
        String name = s.receiver.getName();
        int[] chunks = {1 + (input[1] & 0xFF) % 16, 1 + (input[2] & 0xFF)};
        int length = input.length - 3;
        try {
            List<String> whole = events(s.receiver, s.handler, input, 3, new int[] {length + 1});
            checkAllocation(name + ": receiving", length,
                () -> events(s.receiver, s.handler, input, 3, new int[] {length + 1}));
            List<String> bytes = events(s.receiver, s.handler, input, 3, new int[] {1});
            List<String> chunked = events(s.receiver, s.handler, input, 3, chunks);
            if (!whole.equals(bytes) || !whole.equals(chunked)) {
                throw failure(name + ": chunkings differ: " + whole + " / " + bytes + " / " + chunked, null);
            }
            if (s.proxy != null) {
                List<String> proxied = events(s.proxy, s.proxyHandler, input, 3, chunks);
                if (!whole.equals(proxied)) {
                    throw failure(name + " and the Proxy (verify) differ: " + whole + " / " + proxied, null);
                }
            }
        } catch (FuzzFailure e) {
            throw e;
        } catch (Throwable e) {
            throw failure(name + " threw", e);
        }
    }

    /**
     * Writes the seed corpus into a folder, one file per input (named by its SHA-1, as libFuzzer
     * names its corpus): for each reader the default value and the golden vectors of its format;
     * for each receiver each frame alone and the first ones in one stream of at most 8 KiB, in
     * chunks of 1 and 7 bytes.
     */
    static void seeds(Path dir) throws Throwable {
        Files.createDirectories(dir);
        int written = 0;
        for (int k = 0; k < READERS.size(); k++) {
            Reader r = READERS.get(k);
            for (byte[] data : r.type.seeds.get(r.format)) {
                written += save(dir, new byte[] {(byte) k}, data);
            }
        }
        for (int k = 0; k < STREAMS.size(); k++) {
            byte[] head = {(byte) (READERS.size() + k), 0, 6};
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (byte[] frame : STREAMS.get(k).frames) {
                written += save(dir, head, frame);
                if (all.size() + frame.length <= 8192) {        // no seed above the largest vector's size
                    all.write(frame);
                }
            }
            written += save(dir, head, all.toByteArray());
        }
        System.out.println("fuzz: " + written + " seeds for " + READERS.size() + " readers and " + STREAMS.size()
                + " receivers in " + dir);
    }

    static int save(Path dir, byte[] head, byte[] data) throws Exception {
        byte[] input = Arrays.copyOf(head, head.length + data.length);
        System.arraycopy(data, 0, input, head.length, data.length);
        String name = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(input));
        Files.write(dir.resolve(name), input);
        return 1;
    }

    /**
     * {@code seeds TARGETS GROUP DIR}: writes the group's seed corpus; {@code run TARGETS GROUP FILE|DIR...}:
     * runs inputs (the files of a folder) once each, with the allocations counted.
     */
    public static void main(String[] args) throws Throwable {
        load(Path.of(args[1]), args[2]);
        if (args[0].equals("seeds")) {
            seeds(Path.of(args[3]));
            return;
        }
        replay = true;
        List<Path> inputs = new ArrayList<>();
        for (int k = 3; k < args.length; k++) {
            Path p = Path.of(args[k]);
            if (Files.isDirectory(p)) {
                try (var files = Files.list(p)) {
                    files.sorted().forEach(inputs::add);
                }
            } else {
                inputs.add(p);
            }
        }
        for (Path p : inputs) {
            try {
                fuzzerTestOneInput(Files.readAllBytes(p));
            } catch (Throwable e) {
                System.out.println("FAIL " + p + ":");
                e.printStackTrace(System.out);
                System.exit(1);
            }
        }
        System.out.println("fuzz: " + inputs.size() + " inputs run again on a plain JVM, allocations and charges counted: nothing"
                + " found");
    }
}
