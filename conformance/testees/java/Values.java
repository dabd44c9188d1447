// Value descriptions (SHARED/vectors/README.md, "Value descriptions") for the java testee: a value
// described as typed JSON read into the generated classes and written back as one, driven by the
// IR of the conformance schemas (types.json, written by build.py: every struct's class and fields,
// every enum's class) and reflection over the generated public fields.

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.github.fbetoolkit.fbe.JsonWriter;
import io.github.fbetoolkit.fbe.Uuids;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

final class Values {
    /** A description that does not fit its type: the testee answers a serialize error. */
    static final class BadValue extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadValue(String message) {
            super(message);
        }
    }

    private record Member(String name, Field field, JsonNode type) {}

    private record Struct(Class<?> cls, List<Member> members) {}

    private record Enum(Method of, Method value) {}

    private final Map<String, Struct> structs = new HashMap<>();
    private final Map<String, Enum> enums = new HashMap<>();

    /**
     * The classes of types.json: {"structs": {qualified: {"class": ..., "fields": [{"name", "java",
     * "type"}]}}, "enums": {qualified: class}}.
     */
    Values(Path types) throws IOException, ReflectiveOperationException {
        JsonNode root = new ObjectMapper().readTree(types.toFile());
        for (Map.Entry<String, JsonNode> e : root.path("enums").properties()) {
            Class<?> cls = Class.forName(e.getValue().asText());
            Method value = cls.getMethod("value");
            enums.put(e.getKey(), new Enum(cls.getMethod("of", value.getReturnType()), value));
        }
        for (Map.Entry<String, JsonNode> e : root.path("structs").properties()) {
            Class<?> cls = Class.forName(e.getValue().path("class").asText());
            List<Member> members = new ArrayList<>();
            for (JsonNode f : e.getValue().path("fields")) {
                members.add(new Member(f.path("name").asText(), cls.getField(f.path("java").asText()), f.path("type")));
            }
            structs.put(e.getKey(), new Struct(cls, members));
        }
    }

    boolean has(String qualified) {
        return structs.containsKey(qualified);
    }

    // ---------------------------------------------------------------- reading

    /** The value of the struct qualified that the description d stands for. */
    Object readStruct(String qualified, JsonNode d) {
        Struct s = structs.get(qualified);
        if (s == null || !d.isObject() || !d.path("@type").asText().equals(qualified)) {
            throw new BadValue("expected an object of " + qualified + ", got " + d);
        }
        try {
            Object v = s.cls().getConstructor().newInstance();
            for (Member m : s.members()) {
                if (d.has(m.name())) {
                    readField(v, m, d.get(m.name()));
                }
            }
            return v;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A field from its description: collections into the ones a new value holds (their order is the field's). */
    @SuppressWarnings("unchecked")
    private void readField(Object target, Member m, JsonNode d) throws IllegalAccessException {
        JsonNode t = m.type();
        String kind = t.path("kind").asText();
        Object held = m.field().get(target);
        switch (kind) {
            case "array": {
                int n = t.path("length").asInt();
                if (!d.isArray() || d.size() != n) {
                    throw new BadValue("expected a list of " + n + ", got " + d);
                }
                for (int i = 0; i < n; i++) {
                    Array.set(held, i, read(t.path("element"), d.get(i)));
                }
                return;
            }
            case "vector", "list", "set": {
                Collection<Object> c = (Collection<Object>) held;
                c.clear();
                for (JsonNode x : list(d)) {
                    c.add(read(t.path("element"), x));
                }
                return;
            }
            case "map", "hash": {
                Map<Object, Object> map = (Map<Object, Object>) held;
                map.clear();
                for (JsonNode pair : list(d)) {
                    if (!pair.isArray() || pair.size() != 2) {
                        throw new BadValue("expected a [key, value] pair, got " + pair);
                    }
                    map.put(read(t.path("key"), pair.get(0)), read(t.path("value"), pair.get(1)));
                }
                return;
            }
            default:
                m.field().set(target, read(t, d));
        }
    }

    private static JsonNode list(JsonNode d) {
        if (!d.isArray()) {
            throw new BadValue("expected a list, got " + d);
        }
        return d;
    }

    /** The value (boxed as the generated field holds it) of type t that d stands for. */
    private Object read(JsonNode t, JsonNode d) {
        if (d.isNull()) {
            return null; // an optional's absence, or null where the type has none: the writers refuse that
        }
        switch (t.path("kind").asText()) {
            case "primitive":
                return primitive(t.path("name").asText(), d);
            case "enum", "flags": {
                Enum e = enums.get(t.path("name").asText());
                Object wire = primitive(t.path("wire").asText(), d);
                try {
                    return e.of().invoke(null, wire);
                } catch (IllegalAccessException | InvocationTargetException x) {
                    throw new IllegalStateException(x);
                }
            }
            case "struct":
                return readStruct(t.path("name").asText(), d);
            case "optional":
                return read(t.path("element"), d);
            default:
                throw new BadValue("a collection inside a collection: " + t);
        }
    }

    private static Object primitive(String name, JsonNode d) {
        switch (name) {
            case "bool":
                if (!d.isBoolean()) {
                    throw new BadValue("expected a bool, got " + d);
                }
                return d.booleanValue();
            case "byte", "uint8":
                return (byte) integer(d, 0, 255);
            case "int8":
                return (byte) integer(d, -128, 127);
            case "int16":
                return (short) integer(d, -32768, 32767);
            case "uint16":
                return (short) integer(d, 0, 65535);
            case "int32":
                return (int) integer(d, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case "uint32", "wchar":
                return (int) integer(d, 0, 0xFFFFFFFFL);
            case "char":
                return (char) integer(d, 0, 255);
            case "int64":
                return Long.parseLong(text(d));
            case "uint64", "timestamp":
                return Long.parseUnsignedLong(text(d));
            case "float":
                return (float) real(d);
            case "double":
                return real(d);
            case "decimal":
                return new BigDecimal(text(d));
            case "string":
                return text(d);
            case "bytes":
                return HexFormat.of().parseHex(text(d));
            case "uuid":
                return Uuids.parse(text(d));
            default:
                throw new BadValue("unknown primitive " + name);
        }
    }

    /** A JSON number (NaN and the infinities as Python's json writes them: bare words). */
    private static double real(JsonNode d) {
        if (!d.isNumber()) {
            throw new BadValue("expected a number, got " + d);
        }
        return d.doubleValue();
    }

    /** An integer of a JSON number, or of a string (64-bit integers), within lo..hi. */
    private static long integer(JsonNode d, long lo, long hi) {
        long v;
        try {
            v = Long.parseLong(d.isTextual() ? d.textValue() : d.isIntegralNumber() ? d.asText() : "?");
        } catch (NumberFormatException e) {
            throw new BadValue("expected an integer, got " + d);
        }
        if (v < lo || v > hi) {
            throw new BadValue("integer " + d + " out of range");
        }
        return v;
    }

    private static String text(JsonNode d) {
        if (!d.isTextual()) {
            throw new BadValue("expected a string, got " + d);
        }
        return d.textValue();
    }

    // ---------------------------------------------------------------- writing

    /** The description of v, a value of the struct qualified, as JSON text. */
    String describe(String qualified, Object v) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = new ObjectMapper().getFactory().createGenerator(out)) {
            writeStruct(g, qualified, v);
        }
        return out.toString();
    }

    private void writeStruct(JsonGenerator g, String qualified, Object v) throws IOException {
        g.writeStartObject();
        g.writeStringField("@type", qualified);
        try {
            for (Member m : structs.get(qualified).members()) {
                g.writeFieldName(m.name());
                write(g, m.type(), m.field().get(v));
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        g.writeEndObject();
    }

    private void write(JsonGenerator g, JsonNode t, Object v) throws IOException {
        switch (t.path("kind").asText()) {
            case "primitive":
                primitive(g, t.path("name").asText(), v);
                return;
            case "enum", "flags":
                try {
                    primitive(g, t.path("wire").asText(), enums.get(t.path("name").asText()).value().invoke(v));
                } catch (IllegalAccessException | InvocationTargetException x) {
                    throw new IllegalStateException(x);
                }
                return;
            case "struct":
                writeStruct(g, t.path("name").asText(), v);
                return;
            case "optional":
                if (v == null) {
                    g.writeNull();
                } else {
                    write(g, t.path("element"), v);
                }
                return;
            case "array":
                g.writeStartArray();
                for (int i = 0; i < Array.getLength(v); i++) {
                    write(g, t.path("element"), Array.get(v, i));
                }
                g.writeEndArray();
                return;
            case "vector", "list", "set":
                g.writeStartArray();
                for (Object x : (Collection<?>) v) {        // a set: the generated TreeSet's order, the wire's
                    write(g, t.path("element"), x);
                }
                g.writeEndArray();
                return;
            default:
                g.writeStartArray();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    g.writeStartArray();
                    write(g, t.path("key"), e.getKey());
                    write(g, t.path("value"), e.getValue());
                    g.writeEndArray();
                }
                g.writeEndArray();
        }
    }

    /**
     * A string as the JSON rule of docs/limits.md 7 writes it (the runtime's JsonWriter): a byte that is not
     * UTF-8, held as U+DC80..U+DCFF, as the escape &#92;udcXY, which Jackson's writer refuses as a lone surrogate.
     */
    private static void string(JsonGenerator g, String v) throws IOException {
        JsonWriter j = new JsonWriter();
        j.string(v);
        g.writeRawValue(j.toString());
    }

    private static void primitive(JsonGenerator g, String name, Object v) throws IOException {
        switch (name) {
            case "bool" -> g.writeBoolean((Boolean) v);
            case "byte", "uint8" -> g.writeNumber(((Byte) v) & 0xFF);
            case "int8" -> g.writeNumber((Byte) v);
            case "int16" -> g.writeNumber((Short) v);
            case "uint16" -> g.writeNumber(((Short) v) & 0xFFFF);
            case "int32" -> g.writeNumber((Integer) v);
            case "uint32", "wchar" -> g.writeNumber(Integer.toUnsignedLong((Integer) v));
            case "char" -> g.writeNumber(((Character) v) & 0xFF);
            case "int64" -> g.writeString(Long.toString((Long) v));
            case "uint64", "timestamp" -> g.writeString(Long.toUnsignedString((Long) v));
            case "float" -> g.writeNumber(floatText((Float) v));
            case "double" -> g.writeNumber(doubleText((Double) v));
            case "decimal" -> g.writeString(((BigDecimal) v).toPlainString());
            case "string" -> string(g, (String) v);
            case "bytes" -> g.writeString(HexFormat.of().formatHex((byte[]) v));
            case "uuid" -> g.writeString(((UUID) v).toString());
            default -> throw new BadValue("unknown primitive " + name);
        }
    }

    /**
     * A double as a JSON number that reads back to it (a point or an exponent, -0.0 with its sign),
     * NaN and the infinities as the bare words Python's json reads.
     */
    static String doubleText(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        return Double.toString(v);
    }

    /** The shortest decimal that reads back to the float (vectors/README.md), as doubleText writes it. */
    static String floatText(float v) {
        if (Float.isNaN(v) || Float.isInfinite(v) || v == 0) {
            return doubleText(v);
        }
        BigDecimal exact = new BigDecimal(v);
        for (int digits = 1; digits < 9; digits++) {
            BigDecimal d = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (d.floatValue() == v) {
                return doubleText(d.doubleValue());
            }
        }
        return doubleText(exact.doubleValue());
    }
}
