package io.github.fbetoolkit.fbe;

/**
 * Why a value cannot be encoded: a struct nested deeper than the maximum depth (nobody writes
 * what no reader reads, docs/limits.md 1), a set, map or hash holding the same key twice under
 * the readers' rule (docs/limits.md 4), a decimal beyond 96 bits, a string holding a lone
 * surrogate that stands for no byte, a fixed array of the wrong length. It is unchecked: each
 * is a value the program built wrongly, not a condition of the input. As {@link
 * DecodeException}, it names the qualified schema type written ({@code keys.Outer}) and the field
 * path from it ({@code holders[1].tags}, filled in as the exception leaves the nested writers:
 * the struct holding the value, or the field itself where the writer knows it). The roots leave
 * their writer empty.
 */
public class EncodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What kind of problem stopped the encode. */
    public enum Kind {
        /** A value out of its type's range or shape (decimal, string, fixed array, size). */
        INVALID,
        /** Structs nested deeper than the maximum depth (docs/limits.md 1). */
        DEPTH,
        /** A set, map or hash holds the same key twice (docs/limits.md 4). */
        DUPLICATE_KEY
    }

    private final Kind kind;
    private final String reason;
    private String type = "";
    private String path;

    /**
     * An encode error.
     *
     * @param kind   what kind of problem
     * @param reason what is wrong, in plain words
     * @param path   the field path where it was found ("" for the value being written)
     */
    public EncodeException(Kind kind, String reason, String path) {
        super(reason);
        this.kind = kind;
        this.reason = reason;
        this.path = path;
    }

    /**
     * An encode error of kind {@link Kind#INVALID} whose place the nested writers fill in.
     *
     * @param reason what is wrong
     */
    public EncodeException(String reason) {
        this(Kind.INVALID, reason, "");
    }

    /** @return what kind of problem stopped the encode */
    public Kind kind() {
        return kind;
    }

    /** @return what is wrong, without the type and path */
    public String reason() {
        return reason;
    }

    /** @return the qualified schema type being written ("" when unknown) */
    public String type() {
        return type;
    }

    /** @return the field path from the type ("holders[1].tags"; "" for the value itself) */
    public String path() {
        return path;
    }

    /**
     * Puts the field holding the value that failed in front of the path ("wallet" + "amount").
     * Generated writers call it when a nested struct value failed.
     *
     * @param field the field's schema name
     * @return this
     */
    public EncodeException at(String field) {
        path = DecodeException.join(field, path);
        return this;
    }

    /**
     * Puts a collection element (or map entry, by its index in the order written) in front of
     * the path ("holders[1]" + "tags").
     *
     * @param field the collection field's schema name
     * @param index the element's index
     * @return this
     */
    public EncodeException at(String field, int index) {
        path = DecodeException.join(field + "[" + index + "]", path);
        return this;
    }

    /**
     * Names the root type, unless one is named already.
     *
     * @param qualified the qualified schema type ("keys.Outer")
     * @return this
     */
    public EncodeException within(String qualified) {
        if (type.isEmpty()) {
            type = qualified;
        }
        return this;
    }

    @Override
    public String getMessage() {
        String where = DecodeException.place(type, path);
        return where.isEmpty() ? reason : reason + " (" + where + ")";
    }
}
