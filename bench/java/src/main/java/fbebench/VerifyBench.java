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

/** Verify of the rows whose format has a verifier (make passes them as {@code -p verifyRow=}). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class VerifyBench {
    /** The row id of a row with a verifier. */
    @Param({"fbe"})
    public String verifyRow;

    private Row<Object> r;
    private byte[] data;

    @Setup
    public void setup() throws Exception {
        r = Rows.byId(verifyRow);
        String problem = Check.check(r);
        if (!problem.isEmpty() || !r.hasVerify()) {
            throw new IllegalStateException(verifyRow + ": " + (problem.isEmpty() ? "no verifier" : problem));
        }
        int n = r.serialize(r.of(Domain.sample()));
        data = Arrays.copyOfRange(r.out(), r.outOffset(), r.outOffset() + n);
    }

    @Benchmark
    public void verify() throws Exception {
        r.verify(data, 0, data.length);
    }
}
