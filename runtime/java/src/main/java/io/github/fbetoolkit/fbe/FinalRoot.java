package io.github.fbetoolkit.fbe;

/**
 * What a generated struct is as a final root (docs/format.md 4.1, fbec --final) on the writing side:
 * it writes itself with {@link #writeFinal}, generated per struct, and {@link #toFinal} is its
 * shorter form. Each struct's own {@code readFinal}, {@code fromFinal} and {@code verifyFinal} read
 * and check a root.
 */
public interface FinalRoot {
    /**
     * Writes this value as a final root into w (reset first): with a reused writer,
     * serializing allocates nothing for the bytes.
     *
     * @param w the writer; its first {@code size()} bytes are the root
     * @return the root's size
     * @throws EncodeException for a value no reader reads (type, field path); w is left empty
     */
    int writeFinal(Writer w);

    /**
     * This value as a final root (docs/format.md 4.1).
     *
     * @return the bytes
     * @throws EncodeException for a value no reader reads (type, field path)
     */
    default byte[] toFinal() {
        Writer w = new Writer();
        writeFinal(w);
        return w.toByteArray();
    }
}
