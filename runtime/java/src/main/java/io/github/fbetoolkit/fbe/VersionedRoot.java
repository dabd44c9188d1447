package io.github.fbetoolkit.fbe;

/**
 * What every generated struct is as a versioned root (docs/format.md 3.2) on the writing side: it
 * writes itself with {@link #writeFbe}, generated per struct, and {@link #toFbe} is its shorter form;
 * {@link #reset} gives every field its default. Each struct's own {@code readFbe}, {@code fromFbe}
 * and {@code verifyFbe} read and check a root.
 */
public interface VersionedRoot {
    /** Sets every field to the schema's default, as a new value has them (collections emptied in place). */
    void reset();

    /**
     * Writes this value as a versioned root into w (reset first): with a reused writer,
     * serializing allocates nothing for the bytes.
     *
     * @param w the writer; its first {@code size()} bytes are the root
     * @return the root's size
     * @throws EncodeException for a value no reader reads (type, field path); w is left empty
     */
    int writeFbe(Writer w);

    /**
     * This value as a versioned root (docs/format.md 3.2).
     *
     * @return the bytes
     * @throws EncodeException for a value no reader reads (type, field path)
     */
    default byte[] toFbe() {
        Writer w = new Writer();
        writeFbe(w);
        return w.toByteArray();
    }
}
