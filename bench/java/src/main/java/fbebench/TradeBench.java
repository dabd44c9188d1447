package fbebench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The trade benchmark (docs/benchmarks.md "Java"): per row, serialize (the sample domain object
 * -> bytes, into the row's reused buffer) and deserialize + touch (bytes -> the reused domain
 * object, then every field read). make bench-java runs it with {@code -p row=} the rows that
 * passed {@link Check} (JMH forks a JVM per row and operation, so each call site sees one row).
 * Each row works on its own domain object (the Java or the Kotlin Account, {@link Row}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TradeBench {
    /** The row id (Rows.all()); make passes the rows that passed the check. */
    @Param({"fbe"})
    public String row;

    private Row<Object> r;
    private Object sample;
    private byte[] data;
    private Object reuse;

    @Setup
    public void setup() throws Exception {
        r = Rows.byId(row);
        String problem = Check.check(r);
        if (!problem.isEmpty()) {
            throw new IllegalStateException(row + ": " + problem);
        }
        sample = r.of(Domain.sample());
        int n = r.serialize(sample);
        data = Arrays.copyOfRange(r.out(), r.outOffset(), r.outOffset() + n);
        reuse = r.fresh();
        r.deserialize(data, 0, data.length, reuse);  // the object is reused, as a server reuses its own
    }

    @Benchmark
    public int serialize() throws Exception {
        return r.serialize(sample);
    }

    @Benchmark
    public int deserialize() throws Exception {
        return r.touch(r.deserialize(data, 0, data.length, reuse));
    }
}
