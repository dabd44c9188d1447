package fbebench;

import com.chronoxor.proto.Account;
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
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TradeBench {
    /** The row id (Rows.all()); make passes the rows that passed the check. */
    @Param({"fbe"})
    public String row;

    private Row r;
    private Account sample;
    private byte[] data;
    private Account reuse;

    @Setup
    public void setup() throws Exception {
        r = Rows.byId(row);
        String problem = Check.check(r);
        if (!problem.isEmpty()) {
            throw new IllegalStateException(row + ": " + problem);
        }
        sample = Domain.sample();
        int n = r.serialize(sample);
        data = Arrays.copyOfRange(r.out(), r.outOffset(), r.outOffset() + n);
        reuse = new Account();
        r.deserialize(data, 0, data.length, reuse);  // the object is reused, as a server reuses its own
    }

    @Benchmark
    public int serialize() throws Exception {
        return r.serialize(sample);
    }

    @Benchmark
    public int deserialize() throws Exception {
        return Domain.touch(r.deserialize(data, 0, data.length, reuse));
    }
}
