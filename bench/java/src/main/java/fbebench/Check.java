package fbebench;

import com.chronoxor.proto.Account;

import java.util.Arrays;
import java.util.List;

/**
 * Checks every row before anything is timed (make bench-java-check, part of make test-java): each
 * account of {@link Domain#checkAccounts} serialized (as the row's domain object), read back into a
 * fresh and into a reused domain object (one of a larger shape) and compared field by field; a
 * verifier accepts the row's own message and refuses it cut short by a byte. Prints one line per row for bench/java/report.py
 * ({@code row<TAB>id<TAB>name<TAB>status<TAB>reason<TAB>message size<TAB>verify}) and the rows that
 * passed ({@code ok-rows}, {@code verify-rows}) for the JMH run; exits 1 when a row fails.
 */
public final class Check {
    private Check() {}

    /**
     * Round-trips every check account through the row.
     *
     * @param r the row
     * @return "" when the row passes, else what failed
     * @throws Exception never on purpose: a row's exception is what failed
     */
    public static <A> String check(Row<A> r) throws Exception {
        if (r.missing != null) {
            return r.missing;
        }
        Account larger = Domain.sample();
        larger.orders.addAll(Domain.sample().orders);      // a larger shape than any account read into it
        A reused = r.of(larger);
        for (Account want : Domain.checkAccounts()) {
            int n = r.serialize(r.of(want));
            byte[] data = Arrays.copyOfRange(r.out(), r.outOffset(), r.outOffset() + n);
            for (A into : List.of(r.fresh(), reused)) {
                A got = r.deserialize(data, 0, data.length, into);
                String d = Domain.difference(r.account(got), want);
                if (!d.isEmpty()) {
                    return "account " + want.id + " read back differs: " + d;
                }
            }
            if (!r.hasVerify()) {
                continue;
            }
            try {
                r.verify(data, 0, data.length);
            } catch (Exception e) {
                return "verify refused its own message (account " + want.id + "): " + e.getMessage();
            }
            boolean refused = false;
            try {
                r.verify(data, 0, data.length - 1);
            } catch (Exception e) {
                refused = true;
            }
            if (!refused) {
                return "verify accepted account " + want.id + " cut short by one byte";
            }
        }
        return "";
    }

    /** @return the size of the sample account's message in r */
    static <A> int serialize(Row<A> r) throws Exception {
        return r.serialize(r.of(Domain.sample()));
    }

    public static void main(String[] args) throws Exception {
        StringBuilder ok = new StringBuilder();
        StringBuilder verify = new StringBuilder();
        boolean failed = false;
        for (Row<?> r : Rows.all()) {
            String problem;
            try {
                problem = check(r);
            } catch (Exception | AssertionError e) {
                problem = e.toString();
            }
            String status = r.missing != null ? "missing" : problem.isEmpty() ? "ok" : "failed";
            int size = 0;
            if (status.equals("ok")) {
                size = serialize(r);
                ok.append(ok.length() > 0 ? "," : "").append(r.id);
                if (r.hasVerify()) {
                    verify.append(verify.length() > 0 ? "," : "").append(r.id);
                }
            }
            failed |= status.equals("failed");
            System.out.println("row\t" + r.id + "\t" + r.name + "\t" + status + "\t" + problem.replace('\t', ' ')
                    .replace('\n', ' ') + "\t" + size + "\t" + r.hasVerify());
        }
        System.out.println("ok-rows\t" + ok);
        System.out.println("verify-rows\t" + verify);
        System.exit(failed ? 1 : 0);
    }
}
