package io.github.fbetoolkit.fbe;

/**
 * The options of one reader (docs/limits.md): the same rules and the same defaults in every
 * language of the toolkit.
 *
 * @param maxDepth     deepest struct nesting a reader accepts and a writer writes (the root is level 1)
 * @param budgetFactor a decode may materialize this many bytes per input byte...
 * @param budgetSlack  ... plus this many (docs/limits.md 3)
 * @param maxFrameSize the largest protocol frame a receiver accepts
 */
public record Limits(int maxDepth, int budgetFactor, int budgetSlack, int maxFrameSize) {
    /** 128 levels of struct nesting. */
    public static final int MAX_DEPTH = 128;
    /** 8 bytes materialized per input byte. */
    public static final int BUDGET_FACTOR = 8;
    /** 4096 bytes on top. */
    public static final int BUDGET_SLACK = 4096;
    /** 64 MiB. */
    public static final int MAX_FRAME_SIZE = 64 << 20;
    /** The limits of docs/limits.md. */
    public static final Limits DEFAULT = new Limits(MAX_DEPTH, BUDGET_FACTOR, BUDGET_SLACK, MAX_FRAME_SIZE);

    /** Checks that every limit is usable (none negative). */
    public Limits {
        if (maxDepth < 0 || budgetFactor < 0 || budgetSlack < 0 || maxFrameSize < 0) {
            throw new IllegalArgumentException("negative limit: " + this);
        }
    }

    /**
     * The decode budget in bytes of an input of {@code inputSize} bytes.
     *
     * @param inputSize the root's, JSON text's or frame's size
     * @return {@code budgetFactor * inputSize + budgetSlack}
     */
    public long budget(long inputSize) {
        return (long) budgetFactor * inputSize + budgetSlack;
    }

    /**
     * These limits with another maximum depth.
     *
     * @param value the new maximum depth
     * @return a copy
     */
    public Limits withMaxDepth(int value) {
        return new Limits(value, budgetFactor, budgetSlack, maxFrameSize);
    }

    /**
     * These limits with another budget factor.
     *
     * @param value the new budget factor
     * @return a copy
     */
    public Limits withBudgetFactor(int value) {
        return new Limits(maxDepth, value, budgetSlack, maxFrameSize);
    }

    /**
     * These limits with another budget slack.
     *
     * @param value the new budget slack
     * @return a copy
     */
    public Limits withBudgetSlack(int value) {
        return new Limits(maxDepth, budgetFactor, value, maxFrameSize);
    }

    /**
     * These limits with another maximum frame size.
     *
     * @param value the new maximum frame size
     * @return a copy
     */
    public Limits withMaxFrameSize(int value) {
        return new Limits(maxDepth, budgetFactor, budgetSlack, value);
    }
}
