package io.github.fbetoolkit.fbe;

/**
 * Why a value cannot be encoded: a struct nested deeper than the maximum depth (nobody writes
 * what no reader reads, docs/limits.md 1), a decimal beyond 96 bits, a string holding a lone
 * surrogate that stands for no byte, a fixed array of the wrong length. It is unchecked: each
 * is a value the program built wrongly, not a condition of the input.
 */
public class EncodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An encode error.
     *
     * @param message what is wrong and where (type and field)
     */
    public EncodeException(String message) {
        super(message);
    }
}
