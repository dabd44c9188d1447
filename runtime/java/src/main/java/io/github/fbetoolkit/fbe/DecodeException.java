package io.github.fbetoolkit.fbe;

/**
 * Why a buffer or JSON text cannot be decoded (docs/limits.md 8): what is wrong, the qualified
 * schema type being read ({@code proto.Account}), the field path from that type ({@code
 * orders[2].price}, filled in as the exception leaves the nested readers) and the byte offset
 * from the root's first byte, or in the JSON text (-1 when unknown). The first error wins: a reader stops at the first problem.
 */
public class DecodeException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What kind of problem stopped the decode. */
    public enum Kind {
        /** The bytes do not follow the format (docs/format.md). */
        MALFORMED,
        /** The decode materialized more than its budget (docs/limits.md 3). */
        BUDGET,
        /** Structs nested deeper than the maximum depth (docs/limits.md 1). */
        DEPTH,
        /** A set, map or hash holds the same key twice (docs/limits.md 4). */
        DUPLICATE_KEY
    }

    private final Kind kind;
    private final String reason;
    private final long offset;
    private String type = "";
    private String path;

    /**
     * A decode error.
     *
     * @param kind   what kind of problem
     * @param reason what is wrong, in plain words
     * @param path   the field path where it was found ("" for the value being read)
     * @param offset the byte offset from the root's first byte, or -1
     */
    public DecodeException(Kind kind, String reason, String path, long offset) {
        super(reason);
        this.kind = kind;
        this.reason = reason;
        this.path = path;
        this.offset = offset;
    }

    /**
     * A malformed-input error.
     *
     * @param reason what is wrong
     * @param path   the field path
     * @param offset the byte offset, or -1
     */
    public DecodeException(String reason, String path, long offset) {
        this(Kind.MALFORMED, reason, path, offset);
    }

    /** @return what kind of problem stopped the decode */
    public Kind kind() {
        return kind;
    }

    /** @return what is wrong, without the type, path and offset */
    public String reason() {
        return reason;
    }

    /** @return the qualified schema type being read ("" when unknown) */
    public String type() {
        return type;
    }

    /** @return the field path from the type ("orders[2].price"; "" for the value itself) */
    public String path() {
        return path;
    }

    /** @return the byte offset from the root's first byte, or -1 */
    public long offset() {
        return offset;
    }

    /**
     * Puts the field holding the value that failed in front of the path ("wallet" + "amount").
     * Generated readers call it when a nested struct value failed.
     *
     * @param field the field's schema name
     * @return this
     */
    public DecodeException at(String field) {
        path = join(field, path);
        return this;
    }

    /**
     * Puts a collection element in front of the path ("orders[2]" + "price").
     *
     * @param field the collection field's schema name
     * @param index the element's index
     * @return this
     */
    public DecodeException at(String field, int index) {
        path = join(field + "[" + index + "]", path);
        return this;
    }

    /**
     * Puts a map entry in front of the path ("balances[EUR]" + "amount"; JSON readers, whose map
     * keys are text).
     *
     * @param field the map field's schema name
     * @param key   the entry's key as the text holds it
     * @return this
     */
    public DecodeException atKey(String field, String key) {
        path = join(field + "[" + key + "]", path);
        return this;
    }

    /**
     * Names the root type, unless one is named already.
     *
     * @param qualified the qualified schema type ("proto.Account")
     * @return this
     */
    public DecodeException within(String qualified) {
        if (type.isEmpty()) {
            type = qualified;
        }
        return this;
    }

    /** outer + inner as a field path ("orders" + "[2].price", "wallet" + "amount"). */
    static String join(String outer, String inner) {
        if (inner.isEmpty()) {
            return outer;
        }
        if (outer.isEmpty()) {
            return inner;
        }
        return inner.charAt(0) == '[' ? outer + inner : outer + "." + inner;
    }

    /** type.path (either may be empty: then the other alone). */
    static String place(String type, String path) {
        return type.isEmpty() ? path : path.isEmpty() ? type : type + "." + path;
    }

    @Override
    public String getMessage() {
        String where = place(type, path);
        if (offset >= 0) {
            where = where.isEmpty() ? "offset " + offset : where + ", offset " + offset;
        }
        return where.isEmpty() ? reason : reason + " (" + where + ")";
    }
}
