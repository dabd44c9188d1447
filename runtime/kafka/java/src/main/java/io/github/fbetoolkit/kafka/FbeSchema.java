package io.github.fbetoolkit.kafka;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The schema a record is written with, as its {@code fbe} header carries it (docs/kafka.md "Record
 * headers"): the package, its version, the fingerprint {@code fbec fingerprint} prints, and the
 * binary model.
 */
public record FbeSchema(String packageName, String version, String fingerprint, Model model) {

    /** The binary model of a topic's values. */
    public enum Model {
        VERSIONED, FINAL;

        /** What error messages name the model by: {@code versioned}, {@code final}. */
        public String header() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The model's byte in the {@code fbe} header: 0 versioned, 1 final. */
        public byte code() {
            return (byte) ordinal();
        }
    }

    /** The key of the one header that names the schema. */
    public static final String HEADER = "fbe";
    /** The layout version of the header's value, its first byte. */
    public static final int LAYOUT = 1;
    /** Where the package and version start: the layout, the model and the 32-byte SHA-256 before them. */
    static final int NAME_OFFSET = 34;
    /** The shortest valid header: a package and a version of one byte each and the space between. */
    static final int MIN_LENGTH = NAME_OFFSET + 3;

    public FbeSchema {
        Objects.requireNonNull(packageName, "packageName");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(model, "model");
        if (packageName.isEmpty() || packageName.indexOf(' ') >= 0 || version.isEmpty()) {
            throw new IllegalArgumentException("a schema has a package without spaces and a version, got '"
                + packageName + "' and '" + version + "'");
        }
        requireFingerprint(fingerprint);
    }

    /** The fingerprint itself, when it is 64 lowercase hex digits (what {@code fbec fingerprint} prints). */
    static String requireFingerprint(String fingerprint) {
        if (!isFingerprint(fingerprint)) {
            throw new IllegalArgumentException("a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), got "
                + fingerprint);
        }
        return fingerprint;
    }

    /** 64 lowercase hex digits. */
    private static boolean isFingerprint(String s) {
        if (s == null || s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** The 32 bytes of a fingerprint of 64 lowercase hex digits. */
    static byte[] rawFingerprint(String fingerprint) {
        return HexFormat.of().parseHex(requireFingerprint(fingerprint));
    }

    /**
     * The versioned schema of a package fbec generated: its class {@code Fbe} ({@code --java}; Kotlin's
     * object {@code Fbe}), whose constants {@code PACKAGE}, {@code VERSION} and {@code FINGERPRINT} are
     * what {@code fbec fingerprint} prints: {@code FbeSchema.of(com.chronoxor.proto.Fbe.class)}.
     *
     * @throws IllegalArgumentException the class has no such public static String constants
     */
    public static FbeSchema of(Class<?> schema) {
        return new FbeSchema(constant(schema, "PACKAGE"), constant(schema, "VERSION"), constant(schema, "FINGERPRINT"),
            Model.VERSIONED);
    }

    /** The value of a generated schema class's public static String constant. */
    private static String constant(Class<?> schema, String name) {
        try {
            Field field = schema.getField(name);
            if (Modifier.isStatic(field.getModifiers()) && field.get(null) instanceof String value) {
                return value;
            }
        } catch (NoSuchFieldException | IllegalAccessException e) {
            // refused below
        }
        throw new IllegalArgumentException(schema.getName() + " is not a schema class fbec generated: no public static "
            + "String " + name);
    }

    /** The same schema in the other binary model. */
    public FbeSchema withModel(Model other) {
        return new FbeSchema(packageName, version, fingerprint, other);
    }

    /**
     * The value of the {@code fbe} header (a new array): the layout version 1, the model (0 versioned,
     * 1 final), the fingerprint's 32 bytes and {@code PACKAGE VERSION} in UTF-8.
     */
    public byte[] header() {
        byte[] name = (packageName + " " + version).getBytes(StandardCharsets.UTF_8);
        byte[] value = new byte[NAME_OFFSET + name.length];
        value[0] = LAYOUT;
        value[1] = model.code();
        System.arraycopy(rawFingerprint(fingerprint), 0, value, 2, 32);
        System.arraycopy(name, 0, value, NAME_OFFSET, name.length);
        return value;
    }

    /** Sets the {@code fbe} header (replacing any of that name). */
    public void writeTo(Headers headers) {
        headers.remove(HEADER);
        headers.add(HEADER, header());
    }

    /**
     * The schema the {@code fbe} header names (the last of that name).
     *
     * @throws FbeRecordException the header is missing or malformed
     */
    public static FbeSchema readFrom(Headers headers) {
        Header h = headers == null ? null : headers.lastHeader(HEADER);
        return fromHeader(h == null ? null : h.value());
    }

    /**
     * The schema an {@code fbe} header's value names.
     *
     * @throws FbeRecordException the value is null or malformed, with the texts of docs/kafka.md
     */
    public static FbeSchema fromHeader(byte[] value) {
        if (value == null) {
            throw new FbeRecordException("no " + HEADER + " header: the record was not written by an FBE serializer");
        }
        if (value.length == 0) {
            throw new FbeRecordException("header " + HEADER + " is empty");
        }
        if (value[0] != LAYOUT) {
            throw new FbeRecordException("header " + HEADER + " has layout version " + (value[0] & 0xff) + ", not "
                + LAYOUT);
        }
        if (value.length < MIN_LENGTH) {
            throw new FbeRecordException("header " + HEADER + " is too short: " + value.length + " bytes, layout "
                + LAYOUT + " has at least " + MIN_LENGTH);
        }
        Model model;
        if (value[1] == Model.VERSIONED.code()) {
            model = Model.VERSIONED;
        } else if (value[1] == Model.FINAL.code()) {
            model = Model.FINAL;
        } else {
            throw new FbeRecordException("header " + HEADER + " has model " + (value[1] & 0xff)
                + ", not 0 (versioned) or 1 (final)");
        }
        String name;
        try {
            name = StandardCharsets.UTF_8.newDecoder()
                .decode(ByteBuffer.wrap(value, NAME_OFFSET, value.length - NAME_OFFSET)).toString();
        } catch (CharacterCodingException e) {
            throw new FbeRecordException("header " + HEADER + "'s package and version are not UTF-8");
        }
        int space = name.indexOf(' ');
        if (space <= 0 || space == name.length() - 1) {
            throw new FbeRecordException("header " + HEADER + "'s package and version are '" + name
                + "', not 'PACKAGE VERSION'");
        }
        String fingerprint = HexFormat.of().formatHex(value, 2, NAME_OFFSET);
        return new FbeSchema(name.substring(0, space), name.substring(space + 1), fingerprint, model);
    }

    /** Whether bytes [from, to) of the value are UTF-8: ASCII at once, else by the decoder. */
    static boolean isUtf8(byte[] value, int from, int to) {
        for (int i = from; i < to; i++) {
            if (value[i] < 0) {
                try {
                    StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(value, from, to - from));
                    return true;
                } catch (CharacterCodingException e) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@code proto 1.0 (versioned, fingerprint 6288...c7d2)}: what error messages name. */
    @Override
    public String toString() {
        return packageName + " " + version + " (" + model.header() + ", fingerprint " + fingerprint + ")";
    }
}
