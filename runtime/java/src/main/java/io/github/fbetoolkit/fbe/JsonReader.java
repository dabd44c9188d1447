package io.github.fbetoolkit.fbe;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.UUID;

/**
 * Reads FBE JSON (docs/format.md 8.3) token by token with Jackson's streaming {@link JsonParser}
 * (jackson-core), under the rules of docs/limits.md that every language shares, with the same
 * defaults:
 *
 * <ul>
 *   <li>the text must be valid UTF-8 (overlong forms, encoded surrogates and truncated sequences
 *       are refused before Jackson sees it);
 *   <li>arrays and objects nest at most {@code 3 * maxDepth} deep (Jackson reads without
 *       recursion; the count is kept here), structs at most {@code maxDepth} (the root is level
 *       1), refused before going deeper;
 *   <li>no object holds a member name twice, whether a struct reads it or not (Jackson's
 *       {@code STRICT_DUPLICATE_DETECTION}); two map keys that read as the same key ("1" and
 *       "01") and a set holding an element twice are refused too (generated code);
 *   <li>a string escape &#92;udcXY (U+DC80..U+DCFF) is the raw byte 0xXY, as {@link JsonWriter}
 *       writes it ({@link Utf8} holds such a byte as that character); any other lone surrogate
 *       escape is refused;
 *   <li>every value read is charged to the decode budget of {@code budgetFactor * text size +
 *       budgetSlack} bytes, at the costs of docs/limits.md 3;
 *   <li>each value must have its field's JSON type and fit its range; a member that is missing
 *       leaves the field at its default, unknown members are skipped.
 * </ul>
 *
 * <p>Generated {@code fbeReadJson} methods read a struct's members with it; {@code fromJson}
 * starts and finishes ({@link #read}). The first problem throws a {@link DecodeException}: its
 * path is filled in by the generated readers on its way out, its offset is the byte of the text
 * where the problem was found.
 */
public final class JsonReader {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // names are not interned: a document of many distinct names cannot fill a shared table
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
            // the limits of docs/limits.md are checked here; Jackson's own (string and number
            // lengths, nesting) would refuse honest documents that other languages read
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(Integer.MAX_VALUE)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .build())
            .build();

    /** How a struct's members are read: a generated {@code fbeReadJson}. */
    @FunctionalInterface
    public interface Body<T> {
        /**
         * Reads the JSON object at the reader's position into value.
         *
         * @param r     the reader
         * @param value the value, with the schema's defaults
         * @throws DecodeException at the first problem
         */
        void read(JsonReader r, T value) throws DecodeException;
    }

    private final JsonParser p;
    private final byte[] data;
    private final int length;
    private long budget;
    private final int maxDepth;
    private final int maxNesting;
    private int depth;          // struct levels
    private int nesting;        // arrays and objects open
    private boolean held;       // the current token is still to be read (More, Null looked at it)
    private String text;        // the current string or member name, checked

    private JsonReader(byte[] data, Limits limits) throws DecodeException {
        int bad = Utf8.invalidAt(data, 0, data.length);
        if (bad >= 0) {
            throw new DecodeException("invalid JSON: the text is not valid UTF-8 at byte " + bad, "", bad);
        }
        if (data.length >= 3 && data[0] == (byte) 0xEF && data[1] == (byte) 0xBB && data[2] == (byte) 0xBF) {
            // Jackson would skip it; no other language reads it (RFC 8259 8.1, docs/limits.md 7)
            throw new DecodeException("invalid JSON: a byte order mark is not JSON", "", 0);
        }
        try {
            p = FACTORY.createParser(data);
        } catch (IOException e) {
            throw new DecodeException("invalid JSON: " + e.getMessage(), "", 0);
        }
        this.data = data;
        length = data.length;
        budget = limits.budget(data.length);
        maxDepth = limits.maxDepth();
        maxNesting = 3 * limits.maxDepth();
    }

    /**
     * Reads one JSON value into {@code value} with {@code body} and checks that nothing but white
     * space follows it: what a generated {@code fromJson} does.
     *
     * @param <T>    the value's class
     * @param data   the UTF-8 text
     * @param limits the limits (docs/limits.md)
     * @param value  a value with the schema's defaults
     * @param body   the struct's reader
     * @param type   the qualified schema type, for errors
     * @return value
     * @throws DecodeException at the first problem (type, field path, text offset)
     */
    public static <T> T read(byte[] data, Limits limits, T value, Body<T> body, String type) throws DecodeException {
        JsonReader r = null;
        try {
            r = new JsonReader(data, limits);
            body.read(r, value);
            r.end();
            return value;
        } catch (DecodeException e) {
            throw e.within(type);
        } finally {
            if (r != null) {
                r.close();
            }
        }
    }

    /**
     * The UTF-8 bytes of a JSON text given as a string.
     *
     * @param s the text
     * @return its bytes
     * @throws DecodeException when s holds a lone surrogate character (no text has one)
     */
    public static byte[] utf8(String s) throws DecodeException {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new DecodeException("invalid JSON: the text holds the lone surrogate U+"
                        + Integer.toHexString(c).toUpperCase() + " at index " + i, "", -1);
            }
        }
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private void close() {
        try {
            p.close();
        } catch (IOException e) {
            // nothing to release from a byte array
        }
    }

    /** Checks that nothing but white space follows the value read. */
    private void end() throws DecodeException {
        JsonToken t;
        try {
            t = p.nextToken();
        } catch (IOException e) {
            throw invalid(e, "");
        }
        if (t != null) {
            throw fail("invalid JSON: data after the value", "");
        }
    }

    // ---------------------------------------------------------------- errors

    private long offset() {
        return offset(p.currentTokenLocation());
    }

    private long offset(JsonLocation at) {
        if (at == null) {
            return -1;
        }
        if (at.getByteOffset() >= 0) {
            return at.getByteOffset();
        }
        // without canonical names Jackson parses the text as characters (a UTF-8 Reader) and counts
        // UTF-16 units: the byte where that many start (the text is valid UTF-8, checked first)
        return at.getCharOffset() < 0 ? -1 : Utf8.byteOffset(data, at.getCharOffset());
    }

    private DecodeException fail(String reason, String field) {
        return new DecodeException(reason, field, offset());
    }

    /** Jackson's complaint as a DecodeException; a member name read twice names the member. */
    private DecodeException invalid(IOException e, String field) {
        String reason = e instanceof JsonProcessingException ? ((JsonProcessingException) e).getOriginalMessage()
                : e.getMessage();
        long at = e instanceof JsonProcessingException ? offset(((JsonProcessingException) e).getLocation()) : -1;
        String duplicate = "Duplicate field '";
        if (reason != null && reason.startsWith(duplicate) && reason.endsWith("'")) {
            String name = reason.substring(duplicate.length(), reason.length() - 1);
            return new DecodeException("duplicate member name \"" + name + "\"", field == null ? name : field, at);
        }
        if (at >= length) {
            return new DecodeException("invalid JSON: the text ends before the value does (" + reason + ")", "", length);
        }
        return new DecodeException("invalid JSON: " + reason, field == null ? "" : field, at);
    }

    /**
     * Whether the budget left pays for {@code cost} bytes: generated code asks before it makes a value
     * whose default is large (docs/limits.md 3), and when not charges it ({@link #spend}), which fails.
     *
     * @param cost what the value's default costs
     * @return true when the budget left covers it
     */
    public boolean affords(long cost) {
        return budget >= cost;
    }

    /**
     * Charges {@code cost} bytes for a value materialized (a collection element, the defaults of
     * a struct's missing members: docs/limits.md 3).
     *
     * @param cost  the bytes
     * @param field the field, for errors
     * @throws DecodeException when the budget is exceeded
     */
    public void spend(long cost, String field) throws DecodeException {
        budget -= cost;
        if (budget < 0) {
            throw new DecodeException(DecodeException.Kind.BUDGET, "decode budget exceeded", field, offset());
        }
    }

    /**
     * A map whose keys read as the same key ("1" and "01"): neither the first nor the last may
     * win (docs/limits.md 7).
     *
     * @param field the map field
     * @return the exception to throw
     */
    public DecodeException duplicateKey(String field) {
        return new DecodeException(DecodeException.Kind.DUPLICATE_KEY, "two map keys read as the same key", field, offset());
    }

    /**
     * A set holding an element twice (docs/limits.md 7).
     *
     * @param field the set field
     * @return the exception to throw
     */
    public DecodeException duplicateElement(String field) {
        return new DecodeException(DecodeException.Kind.DUPLICATE_KEY, "two set elements read as the same element", field,
                offset());
    }

    private static String kind(JsonToken t) {
        switch (t) {
            case VALUE_NULL:
                return "null";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "boolean";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "number";
            case VALUE_STRING:
                return "string";
            case START_OBJECT:
                return "object";
            case START_ARRAY:
                return "array";
            default:
                return "value";
        }
    }

    private DecodeException mismatch(String want, JsonToken t, String field) {
        return fail("expected " + want + ", got " + kind(t), field);
    }

    // ---------------------------------------------------------------- tokens

    /**
     * The next token (the held one first). Parse errors name field (null: a member name, whose
     * duplicate names itself).
     */
    private JsonToken next(String field) throws DecodeException {
        if (held) {
            held = false;
            return p.currentToken();
        }
        JsonToken t;
        try {
            t = p.nextToken();
        } catch (IOException e) {
            throw invalid(e, field);
        }
        if (t == null) {
            throw new DecodeException("invalid JSON: the text ends before the value does", "", length);
        }
        switch (t) {
            case START_OBJECT:
            case START_ARRAY:
                if (++nesting > maxNesting) {
                    throw fail("invalid JSON: arrays and objects nested deeper than " + maxNesting, "");
                }
                break;
            case END_OBJECT:
            case END_ARRAY:
                nesting--;
                break;
            case FIELD_NAME:
            case VALUE_STRING:
                text = checked(t == JsonToken.FIELD_NAME ? currentName() : valueText());
                break;
            default:
                break;
        }
        return t;
    }

    private String currentName() throws DecodeException {
        try {
            return p.currentName();
        } catch (IOException e) {
            throw invalid(e, "");
        }
    }

    private String valueText() throws DecodeException {
        try {
            return p.getText();
        } catch (IOException e) {
            throw invalid(e, "");
        }
    }

    /**
     * A string as the FBE string it stands for: a surrogate pair is its character, a lone
     * &#92;udc80..&#92;udcff escape the byte (held as U+DC80..U+DCFF; such escapes of bytes that do form
     * UTF-8 read as those characters), any other lone surrogate an error.
     */
    private String checked(String s) throws DecodeException {
        boolean bytes = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (c >= 0xDC80 && c <= 0xDCFF) {
                bytes = true;
            } else {
                throw fail("lone surrogate \\u" + Integer.toHexString(c)
                        + " in a JSON string (only \\udc80..\\udcff stand for bytes)", "");
            }
        }
        if (!bytes) {
            return s;
        }
        byte[] b = Utf8.bytes(s);
        return Utf8.decode(b, 0, b.length);
    }

    private String number(String want, String field) throws DecodeException {
        JsonToken t = next(field);
        if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
            throw mismatch(want, t, field);
        }
        return valueText();
    }

    private String integerText(String field) throws DecodeException {
        String s = number("integer", field);
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw fail("expected integer, got " + s, field);
        }
        return s;
    }

    // ---------------------------------------------------------------- structure

    /**
     * Reads the opening brace of a struct value costing {@code cost} bytes (its own charge,
     * docs/limits.md 3) one struct level deeper. The caller reads the members ({@link #member})
     * and calls {@link #leave}. The error of a value that is no object, too deep or beyond the
     * budget is the struct's own (the caller names the field holding it).
     *
     * @param cost what the struct costs (docs/ir.md {@code decode_cost})
     * @throws DecodeException when no struct can be read here
     */
    public void beginStruct(long cost) throws DecodeException {
        JsonToken t = next("");
        if (t != JsonToken.START_OBJECT) {
            throw mismatch("object", t, "");
        }
        if (depth >= maxDepth) {
            throw new DecodeException(DecodeException.Kind.DEPTH, "structs nested deeper than " + maxDepth, "", offset());
        }
        spend(cost, "");
        depth++;
    }

    /** Undoes a successful {@link #beginStruct}. */
    public void leave() {
        depth--;
    }

    /**
     * The next member name of a struct's object.
     *
     * @return the name, or null at the object's end
     * @throws DecodeException when the text is not JSON (or names a member twice)
     */
    public String member() throws DecodeException {
        JsonToken t = next(null);
        return t == JsonToken.END_OBJECT ? null : text;
    }

    /**
     * Skips the value of a member no field of the struct takes (unknown members are ignored),
     * refusing in it what every reader refuses (duplicate member names, nesting, strings).
     *
     * @throws DecodeException at the first problem
     */
    public void skip() throws DecodeException {
        int level = 0;
        do {
            JsonToken t = next("");
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                level++;
            } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                level--;
            }
        } while (level > 0);
    }

    /**
     * Reads the opening bracket of a collection (an array, vector, list or set, or a map of struct
     * keys); the caller reads the elements while {@link #more}.
     *
     * @param field the field, for errors
     * @throws DecodeException when the value is no array
     */
    public void beginArray(String field) throws DecodeException {
        JsonToken t = next(field);
        if (t != JsonToken.START_ARRAY) {
            throw mismatch("array", t, field);
        }
    }

    /**
     * Whether the array being read holds another element; at its end, consumes the closing bracket.
     *
     * @return true before an element
     * @throws DecodeException when the text is not JSON
     */
    public boolean more() throws DecodeException {
        JsonToken t = next("");
        if (t == JsonToken.END_ARRAY) {
            return false;
        }
        held = true;
        return true;
    }

    /**
     * {@link #more} for a fixed array of n elements at index i.
     *
     * @param i     the index of the next element
     * @param n     the array's length
     * @param field the field, for errors
     * @return true before an element
     * @throws DecodeException when the array holds more than n elements
     */
    public boolean element(int i, int n, String field) throws DecodeException {
        if (!more()) {
            return false;
        }
        if (i >= n) {
            throw fail("expected " + n + " elements, got more", field);
        }
        return true;
    }

    /**
     * Checks that a fixed array held exactly n elements.
     *
     * @param i     the elements read
     * @param n     the array's length
     * @param field the field, for errors
     * @throws DecodeException when it held fewer
     */
    public void endArray(int i, int n, String field) throws DecodeException {
        if (i != n) {
            throw fail("expected " + n + " elements, got " + i, field);
        }
    }

    /**
     * Reads the opening brace of a map or hash whose keys are member names; the caller reads the keys
     * with {@link #key} until it returns null.
     *
     * @param field the field, for errors
     * @throws DecodeException when the value is no object
     */
    public void beginObject(String field) throws DecodeException {
        JsonToken t = next(field);
        if (t != JsonToken.START_OBJECT) {
            throw mismatch("object", t, field);
        }
    }

    /**
     * The next key of a map's object.
     *
     * @param field the map field, for errors
     * @return the key's text, or null at the object's end
     * @throws DecodeException when the text is not JSON (or holds a key twice)
     */
    public String key(String field) throws DecodeException {
        JsonToken t = next(field);
        return t == JsonToken.END_OBJECT ? null : text;
    }

    /**
     * Reads the opening bracket of a [key, value] pair (a map whose key is a struct).
     *
     * @param field the field, for errors
     * @throws DecodeException when the element is no array
     */
    public void beginPair(String field) throws DecodeException {
        JsonToken t = next(field);
        if (t != JsonToken.START_ARRAY) {
            throw fail("expected a [key, value] pair, got " + kind(t), field);
        }
    }

    /**
     * Reads the closing bracket after a pair's key and value.
     *
     * @param field the field, for errors
     * @throws DecodeException when the pair holds more
     */
    public void endPair(String field) throws DecodeException {
        JsonToken t = next(field);
        if (t != JsonToken.END_ARRAY) {
            throw fail("expected a [key, value] pair, got more than two elements", field);
        }
    }

    /**
     * Reads a {@code null} (an absent optional) when one comes next.
     *
     * @return true when it did
     * @throws DecodeException when the text is not JSON
     */
    public boolean nil() throws DecodeException {
        JsonToken t = next("");
        if (t == JsonToken.VALUE_NULL) {
            return true;
        }
        held = true;
        return false;
    }

    // ---------------------------------------------------------------- values

    /**
     * Reads true or false.
     *
     * @param field the field, for errors
     * @return the value
     * @throws DecodeException for another value
     */
    public boolean bool(String field) throws DecodeException {
        JsonToken t = next(field);
        if (t == JsonToken.VALUE_TRUE) {
            return true;
        }
        if (t != JsonToken.VALUE_FALSE) {
            throw mismatch("boolean", t, field);
        }
        return false;
    }

    /**
     * Reads a JSON integer in lo..hi (an integer field takes no fraction or exponent).
     *
     * @param lo    the least value
     * @param hi    the greatest value
     * @param field the field, for errors
     * @return the value
     * @throws DecodeException for another value, or one out of range
     */
    public long integer(long lo, long hi, String field) throws DecodeException {
        String s = integerText(field);
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw fail(s + " is out of range (" + lo + ".." + hi + ")", field);
        }
        if (v < lo || v > hi) {
            throw fail(s + " is out of range (" + lo + ".." + hi + ")", field);
        }
        return v;
    }

    /**
     * Reads a JSON integer in 0..hi, hi unsigned (uint64's greatest value is -1L).
     *
     * @param hi    the greatest value, unsigned
     * @param field the field, for errors
     * @return the value's bits
     * @throws DecodeException for another value, or one out of range
     */
    public long unsigned(long hi, String field) throws DecodeException {
        String s = integerText(field);
        if (s.equals("-0")) {
            return 0;
        }
        long v;
        try {
            v = Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw fail(s + " is out of range (0.." + Long.toUnsignedString(hi) + ")", field);
        }
        if (Long.compareUnsigned(v, hi) > 0) {
            throw fail(s + " is out of range (0.." + Long.toUnsignedString(hi) + ")", field);
        }
        return v;
    }

    /**
     * Reads a char: its byte value 0..255, or the original's signed-char output for bytes from
     * 0x80 (4294967168..4294967295).
     *
     * @param field the field, for errors
     * @return the char (its low byte is the value)
     * @throws DecodeException for another value
     */
    public char ch(String field) throws DecodeException {
        String s = number("integer", field);
        long v = -1;
        if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && !s.startsWith("-")) {
            try {
                v = Long.parseLong(s);
            } catch (NumberFormatException e) {
                v = -1;
            }
        }
        if (v < 0 || v > 0xFFFFFFFFL || (v > 0xFF && v < 0xFFFFFF80L)) {
            throw fail(s + " is out of range for char", field);
        }
        return (char) (v & 0xFF);
    }

    /**
     * Reads a double: any JSON number, or the strings "NaN", "Infinity", "-Infinity". A number
     * beyond the double range is an error.
     *
     * @param field the field, for errors
     * @return the value
     * @throws DecodeException for another value
     */
    public double f64(String field) throws DecodeException {
        JsonToken t = next(field);
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            String s = valueText();
            double v = Double.parseDouble(s);
            if (Double.isInfinite(v)) {
                throw fail(s + " is out of range for double", field);
            }
            return v;
        }
        if (t == JsonToken.VALUE_STRING) {
            switch (text) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        throw mismatch("number", t, field);
    }

    /**
     * Reads a float: {@link #f64} rounded to binary32; a finite number beyond the float range is
     * an error (3.4028234663852886e38, the largest float, reads).
     *
     * @param field the field, for errors
     * @return the value
     * @throws DecodeException for another value
     */
    public float f32(String field) throws DecodeException {
        double v = f64(field);
        if (Math.abs(v) > Float.MAX_VALUE && !Double.isInfinite(v)) {
            throw fail(v + " is out of range for float", field);
        }
        return (float) v;
    }

    /**
     * Reads a decimal: its exact text ({@link Decimals#parse}), or a JSON number taken as a double
     * and converted as the original writer converts one (15 digits). A value of 2^96 or more is
     * an error.
     *
     * @param field the field, for errors
     * @return the value
     * @throws DecodeException for another value
     */
    public BigDecimal decimal(String field) throws DecodeException {
        JsonToken t = next(field);
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            String s = valueText();
            double v = Double.parseDouble(s);
            if (Double.isInfinite(v)) {
                throw fail(Decimals.quotePrefix(s) + " is out of range for decimal", field);
            }
            return Decimals.fromDouble(v);
        }
        if (t != JsonToken.VALUE_STRING) {
            throw mismatch("decimal", t, field);
        }
        try {
            return Decimals.parse(text);
        } catch (NumberFormatException e) {
            throw fail(e.getMessage(), field);
        }
    }

    private String str(String want, String field) throws DecodeException {
        JsonToken t = next(field);
        if (t != JsonToken.VALUE_STRING) {
            throw mismatch(want, t, field);
        }
        return text;
    }

    /**
     * Reads a uuid from its text ({@link Uuids#parse}: the original's lenient parser).
     *
     * @param field the field, for errors
     * @return the value
     * @throws DecodeException for another value
     */
    public UUID uuid(String field) throws DecodeException {
        String s = str("uuid", field);
        try {
            return Uuids.parse(s);
        } catch (IllegalArgumentException e) {
            throw fail("invalid uuid \"" + s + "\"", field);
        }
    }

    /**
     * Reads a string, charged its length in bytes.
     *
     * @param field the field, for errors
     * @return the value
     * @throws DecodeException for another value
     */
    public String string(String field) throws DecodeException {
        String s = str("string", field);
        spend(Utf8.length(s), field);
        return s;
    }

    /**
     * Reads Base64 text, charged the decoded length.
     *
     * @param field the field, for errors
     * @return the bytes
     * @throws DecodeException for another value, or text that is not Base64 ({@link #base64})
     */
    public byte[] bytes(String field) throws DecodeException {
        byte[] b = base64(str("bytes", field));
        if (b == null) {
            throw fail("invalid base64", field);
        }
        spend(b.length, field);
        return b;
    }

    /**
     * The bytes of Base64 text: the standard alphabet with padding and nothing else (RFC 4648 4),
     * the unused bits of the last character zero (3.5), so that each byte string has one text
     * (docs/limits.md 7). The original decodes up to the first character outside the alphabet.
     *
     * @param s the text
     * @return the bytes, or null for any other text
     */
    public static byte[] base64(String s) {
        int n = s.length();
        if (n % 4 != 0) {
            return null;
        }
        int padding = n == 0 || s.charAt(n - 1) != '=' ? 0 : s.charAt(n - 2) == '=' ? 2 : 1;
        byte[] out = new byte[n / 4 * 3 - padding];
        int acc = 0;
        int k = 0;
        int o = 0;
        for (int i = 0; i < n - padding; i++) {
            int v = sextet(s.charAt(i));
            if (v < 0) {
                return null;
            }
            acc = acc << 6 | v;
            if (++k == 4) {
                out[o++] = (byte) (acc >> 16);
                out[o++] = (byte) (acc >> 8);
                out[o++] = (byte) acc;
                acc = 0;
                k = 0;
            }
        }
        if (k == 2) {
            if ((acc & 0xF) != 0) {
                return null;
            }
            out[o] = (byte) (acc >> 4);
        } else if (k == 3) {
            if ((acc & 3) != 0) {
                return null;
            }
            out[o++] = (byte) (acc >> 10);
            out[o] = (byte) (acc >> 2);
        }
        return out;
    }

    private static int sextet(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '+' ? 62 : c == '/' ? 63 : -1;
    }

    // ---------------------------------------------------------------- map keys
    // Each reads a map key from its member-name text (key), as the C++, Python and Go runtimes.

    /**
     * A string key, charged its length.
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException beyond the budget
     */
    public String keyString(String key, String field) throws DecodeException {
        spend(Utf8.length(key), field);
        return key;
    }

    /** The text of an integer key as C's strtoll reads a whole text (white space, a sign, digits), or null. */
    private static String keyInteger(String key) {
        int i = 0;
        while (i < key.length() && " \t\n\u000b\f\r".indexOf(key.charAt(i)) >= 0) {
            i++;
        }
        int start = i;
        if (i < key.length() && (key.charAt(i) == '+' || key.charAt(i) == '-')) {
            i++;
        }
        int digits = i;
        while (i < key.length() && key.charAt(i) >= '0' && key.charAt(i) <= '9') {
            i++;
        }
        if (i != key.length() || i == digits) {
            return null;
        }
        return key.charAt(start) == '+' ? key.substring(start + 1) : key.substring(start);
    }

    /**
     * A signed integer key in lo..hi.
     *
     * @param key   the key's text
     * @param lo    the least value
     * @param hi    the greatest value
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException for another text, or a value out of range
     */
    public long keyInt(String key, long lo, long hi, String field) throws DecodeException {
        String s = keyInteger(key);
        if (s == null) {
            throw fail("invalid integer key \"" + key + "\"", field);
        }
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw fail("integer key \"" + key + "\" out of range", field);
        }
        if (v < lo || v > hi) {
            throw fail("integer key \"" + key + "\" out of range", field);
        }
        return v;
    }

    /**
     * An unsigned integer key in 0..hi (no sign {@code -}), hi unsigned.
     *
     * @param key   the key's text
     * @param hi    the greatest value, unsigned
     * @param field the map field, for errors
     * @return the key's bits
     * @throws DecodeException for another text, or a value out of range
     */
    public long keyUnsigned(String key, long hi, String field) throws DecodeException {
        String s = keyInteger(key);
        if (s == null || s.startsWith("-")) {
            throw fail("invalid integer key \"" + key + "\"", field);
        }
        long v;
        try {
            v = Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw fail("integer key \"" + key + "\" out of range", field);
        }
        if (Long.compareUnsigned(v, hi) > 0) {
            throw fail("integer key \"" + key + "\" out of range", field);
        }
        return v;
    }

    /**
     * A char key: 0..255, or the original's signed form -128..-1.
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the char
     * @throws DecodeException for another text
     */
    public char keyChar(String key, String field) throws DecodeException {
        return (char) (keyInt(key, -128, 255, field) & 0xFF);
    }

    /**
     * A bool key: "1" or "true", "0" or "false".
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException for another text
     */
    public boolean keyBool(String key, String field) throws DecodeException {
        switch (key) {
            case "1":
            case "true":
                return true;
            case "0":
            case "false":
                return false;
            default:
                throw fail("invalid bool key \"" + key + "\"", field);
        }
    }

    /**
     * A double key: "NaN", "Infinity", "-Infinity" or a number's text, read as C's strtod reads a
     * whole text (leading white space, inf, nan, hexadecimal).
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException for another text
     */
    public double keyF64(String key, String field) throws DecodeException {
        switch (key) {
            case "NaN":
                return Double.NaN;
            case "Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        int i = 0;
        while (i < key.length() && " \t\n\u000b\f\r".indexOf(key.charAt(i)) >= 0) {
            i++;
        }
        Double v = cDouble(key.substring(i));
        if (v == null) {
            throw fail("invalid number key \"" + key + "\"", field);
        }
        return v;
    }

    /**
     * A float key: {@link #keyF64} rounded to binary32.
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException for another text
     */
    public float keyF32(String key, String field) throws DecodeException {
        return (float) keyF64(key, field);
    }

    /**
     * The whole text read as C's strtod: decimal (with an optional fraction and exponent), inf,
     * infinity, nan (any case) or hexadecimal; null for anything else.
     */
    static Double cDouble(String text) {
        int i = 0;
        boolean negative = false;
        if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        String body = text.substring(i);
        switch (body.toLowerCase(java.util.Locale.ROOT)) {
            case "inf":
            case "infinity":
                return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                break;
        }
        boolean hex = body.length() > 2 && body.charAt(0) == '0' && (body.charAt(1) == 'x' || body.charAt(1) == 'X');
        int k = hex ? 2 : 0;
        int digits = 0;
        boolean point = false;
        boolean exponent = false;
        for (; k < body.length(); k++) {
            char c = body.charAt(k);
            if (c >= '0' && c <= '9' || hex && Character.digit(c, 16) >= 0 && c < 0x80) {
                digits++;
            } else if (c == '.' && !point) {
                point = true;
            } else if (digits > 0 && (!hex && (c == 'e' || c == 'E') || hex && (c == 'p' || c == 'P'))) {
                exponent = true;
                int j = k + 1;
                if (j < body.length() && (body.charAt(j) == '+' || body.charAt(j) == '-')) {
                    j++;
                }
                if (j == body.length()) {
                    return null;
                }
                for (; j < body.length(); j++) {
                    if (body.charAt(j) < '0' || body.charAt(j) > '9') {
                        return null;
                    }
                }
                break;
            } else {
                return null;
            }
        }
        if (digits == 0) {
            return null;
        }
        String t = text;
        if (hex && !exponent) {
            t += "p0";
        }
        return Double.parseDouble(t);
    }

    /**
     * A decimal key ({@link Decimals#parse}).
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException for another text
     */
    public BigDecimal keyDecimal(String key, String field) throws DecodeException {
        try {
            return Decimals.parse(key);
        } catch (NumberFormatException e) {
            throw fail(e.getMessage(), field);
        }
    }

    /**
     * A uuid key.
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException for another text
     */
    public UUID keyUuid(String key, String field) throws DecodeException {
        try {
            return Uuids.parse(key);
        } catch (IllegalArgumentException e) {
            throw fail("invalid uuid key \"" + key + "\"", field);
        }
    }

    /**
     * A bytes key read from its Base64 text, charged its length.
     *
     * @param key   the key's text
     * @param field the map field, for errors
     * @return the key
     * @throws DecodeException for text that is not Base64, or beyond the budget
     */
    public byte[] keyBytes(String key, String field) throws DecodeException {
        byte[] b = base64(key);
        if (b == null) {
            throw fail("invalid base64 key \"" + key + "\"", field);
        }
        spend(b.length, field);
        return b;
    }
}
