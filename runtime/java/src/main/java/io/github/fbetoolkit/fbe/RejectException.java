package io.github.fbetoolkit.fbe;

/**
 * A request refused by a reject message of its id ({@code [reject(E)]}, docs/format.md 7.6):
 * {@link #value()} is that message; the exception's message is its text form.
 */
public class RejectException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The reject message (not serialized with the exception). */
    private final transient Object value;

    /** @param value the reject message */
    public RejectException(Object value) {
        super(String.valueOf(value));
        this.value = value;
    }

    /** @return the reject message */
    public Object value() {
        return value;
    }
}
