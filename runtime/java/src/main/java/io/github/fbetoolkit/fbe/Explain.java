package io.github.fbetoolkit.fbe;

import java.math.BigDecimal;

/**
 * Why a writer refused a value, in the user's words: the root type, the field path and what the
 * field holds instead of what its type allows ({@code expected string, got null
 * (proto.Order.symbol)}, docs/limits.md 8), as JavaScript's {@code fbe.refused} says it.
 *
 * <p>The writers stay on their fast path: a null field is a NullPointerException there, and a
 * decimal beyond 96 bits or a string holding a lone surrogate an {@link EncodeException} that
 * names no field. Only after a root writer (toFbe, toFinal, toJson and their write twins, so the
 * Senders too) failed does it run the generated {@code fbeExplain} of the value's class, which
 * walks the value in the order the writers write it, with the checks below, and throws for the
 * first field a writer refuses, its path filled in as the exception leaves the nested structs.
 */
public final class Explain {
    private Explain() {
    }

    /**
     * The error a root writer throws for {@code e}, raised writing a value of the struct {@code type}:
     * the first problem {@code explain} finds (it runs the value's {@code fbeExplain}), with the root
     * type named; when it finds none, {@code e} (an EncodeException with the root type named:
     * depth, a duplicate key, a size beyond the format's; anything else unchanged). Errors that name
     * their field already (depth, duplicate keys) are not explained again.
     *
     * @param e       what the writer threw
     * @param type    the qualified schema type written ("proto.Order")
     * @param explain the value's {@code fbeExplain}
     * @return the exception to throw
     */
    public static RuntimeException refused(RuntimeException e, String type, Runnable explain) {
        EncodeException own = e instanceof EncodeException ? (EncodeException) e : null;
        if (own == null || own.kind() == EncodeException.Kind.INVALID) {
            try {
                explain.run();
            } catch (EncodeException found) {
                found.initCause(e);
                return found.within(type);
            }
        }
        return own != null ? own.within(type) : e;
    }

    /**
     * Refuses a null where the field's type has no null (a struct, an enum, a collection, bytes...).
     *
     * @param v        the value
     * @param expected the type the field expects, as the schema names it
     * @param field    the field's schema name
     */
    public static void present(Object v, String expected, String field) {
        if (v == null) {
            throw nullFor(expected).at(field);
        }
    }

    /**
     * Refuses a null element (or map entry's key or value, by its index in the order written).
     *
     * @param v        the value
     * @param expected the type the element expects, as the schema names it
     * @param field    the collection field's schema name
     * @param index    the element's index
     */
    public static void present(Object v, String expected, String field, int index) {
        if (v == null) {
            throw nullFor(expected).at(field, index);
        }
    }

    /**
     * Refuses a null string and one holding a lone surrogate that stands for no byte.
     *
     * @param s     the string
     * @param field the field's schema name
     */
    public static void string(String s, String field) {
        present(s, "string", field);
        valid(() -> Utf8.length(s), field, -1);
    }

    /**
     * {@link #string(String, String)} of an element.
     *
     * @param s     the string
     * @param field the collection field's schema name
     * @param index the element's index
     */
    public static void string(String s, String field, int index) {
        present(s, "string", field, index);
        valid(() -> Utf8.length(s), field, index);
    }

    /**
     * Refuses a null decimal and one no decimal holds exactly (beyond 96 bits, more than 28
     * fraction digits).
     *
     * @param d     the decimal
     * @param field the field's schema name
     */
    public static void decimal(BigDecimal d, String field) {
        present(d, "decimal", field);
        valid(() -> Decimals.wire(d), field, -1);
    }

    /**
     * {@link #decimal(BigDecimal, String)} of an element.
     *
     * @param d     the decimal
     * @param field the collection field's schema name
     * @param index the element's index
     */
    public static void decimal(BigDecimal d, String field, int index) {
        present(d, "decimal", field, index);
        valid(() -> Decimals.wire(d), field, index);
    }

    /** Runs a writer's own check of a value, its error put at the field (the element at index, if not -1). */
    private static void valid(Runnable check, String field, int index) {
        try {
            check.run();
        } catch (EncodeException e) {
            throw index < 0 ? e.at(field) : e.at(field, index);
        }
    }

    private static EncodeException nullFor(String expected) {
        return new EncodeException("expected " + expected + ", got null");
    }
}
