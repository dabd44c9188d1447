package io.github.fbetoolkit.fbe;

/**
 * What a generated struct is as JSON (docs/format.md 8, fbec --json): it writes itself with
 * {@link #writeJson}, generated per struct; {@link #toJson} is its shorter form. The static
 * {@code fromJson} of each struct reads a new value.
 */
public interface JsonRoot {
    /**
     * Writes this value as JSON into j (reset first): with a reused writer, writing allocates
     * nothing for the text.
     *
     * @param j the writer; its first {@code size()} bytes are the UTF-8 text
     * @return the text's size in bytes
     * @throws EncodeException for a value no reader reads (type, field path); j is left empty
     */
    int writeJson(JsonWriter j);

    /**
     * This value as JSON (docs/format.md 8): the original's text for every value it writes correctly.
     *
     * @return the text
     * @throws EncodeException for a value no reader reads (type, field path)
     */
    default String toJson() {
        JsonWriter j = new JsonWriter();
        writeJson(j);
        return j.toString();
    }
}
