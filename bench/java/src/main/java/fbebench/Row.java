package fbebench;

import com.chronoxor.proto.Account;

/**
 * One way of serializing the domain object. {@link #serialize} writes into the row's reused
 * buffer ({@link #out}, from {@link #outOffset}) and returns the length, valid until its next call;
 * {@link #deserialize} reads into the reused domain object when the format's API can (it returns
 * the object read: the one given, or a new one for APIs that only make new objects); {@link
 * #verify} throws when the bytes are refused (rows whose format has a verifier).
 *
 * <p>{@code A} is the row's domain object: {@code proto.Account} of {@code fbec --java} for our Java
 * rows and every peer ({@link AccountRow}), the Kotlin {@code Account} of {@code fbec --kotlin} for the
 * Kotlin rows (KotlinRows.kt), as a Kotlin program would hold it. The accounts to write come from
 * {@link Domain} and are converted once ({@link #of}), before anything is timed; {@link #touch} is
 * the same work on either.
 *
 * @param <A> the domain object the row converts from and to
 */
public abstract class Row<A> {
    /** The benchmark parameter and the report's row id. */
    public final String id;
    /** The table's name. */
    public final String name;
    /** Why the row is not available (then it is not run), or null. */
    public String missing;
    /** The serialized bytes of the last {@link #serialize}. */
    protected byte[] out;
    /** Where they start in {@link #out}. */
    protected int outOffset;

    protected Row(String id, String name) {
        this.id = id;
        this.name = name;
    }

    /** @return the buffer the last serialize wrote into */
    public byte[] out() {
        return out;
    }

    /** @return where the last serialize's bytes start in {@link #out()} */
    public int outOffset() {
        return outOffset;
    }

    /**
     * The row's domain object holding a's values (not timed).
     *
     * @param a an account of {@link Domain}
     * @return a itself, or the row's own domain object with its values
     */
    public abstract A of(Account a);

    /**
     * The Java domain object holding a's values, for {@link Domain#difference} (not timed).
     *
     * @param a the row's domain object
     * @return a itself, or a Java account with its values
     */
    public abstract Account account(A a);

    /** @return a new domain object with the schema's defaults */
    public abstract A fresh();

    /**
     * Reads every field of a (what a consumer of the message does; the same work for every row).
     *
     * @param a the account read
     * @return a sum of the fields, so that nothing is optimized away
     */
    public abstract int touch(A a);

    /**
     * Serializes a (domain object -> bytes, reusing the row's buffer, builder or message).
     *
     * @param a the account
     * @return the message's length
     * @throws Exception when the format refuses it
     */
    public abstract int serialize(A a) throws Exception;

    /**
     * Deserializes bytes into the reused domain object (bytes -> domain object).
     *
     * @param data   the buffer
     * @param offset the message's first byte
     * @param length its length
     * @param reuse  the reused domain object
     * @return the account read (reuse, or a new one when the API only makes new objects)
     * @throws Exception when the bytes are refused
     */
    public abstract A deserialize(byte[] data, int offset, int length, A reuse) throws Exception;

    /** @return whether the format has a verifier */
    public boolean hasVerify() {
        return false;
    }

    /**
     * Checks the bytes without reading them into the domain object.
     *
     * @param data   the buffer
     * @param offset the message's first byte
     * @param length its length
     * @throws Exception when the bytes are refused
     */
    public void verify(byte[] data, int offset, int length) throws Exception {
        throw new UnsupportedOperationException(name + " has no verifier");
    }
}
