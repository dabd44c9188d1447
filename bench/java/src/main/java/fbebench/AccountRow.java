package fbebench;

import com.chronoxor.proto.Account;

/** A row over the Java domain object ({@code proto.Account} of {@code fbec --java}): ours and every peer. */
public abstract class AccountRow extends Row<Account> {
    protected AccountRow(String id, String name) {
        super(id, name);
    }

    @Override
    public final Account of(Account a) {
        return a;
    }

    @Override
    public final Account account(Account a) {
        return a;
    }

    @Override
    public final Account fresh() {
        return new Account();
    }

    @Override
    public final int touch(Account a) {
        return Domain.touch(a);
    }
}
