package io.github.fbetoolkit.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The schema a record is written with, as its headers carry it (docs/kafka.md "Record headers"):
 * the package, its version, the fingerprint {@code fbec fingerprint} prints, and the binary model.
 */
public record FbeSchema(String packageName, String version, String fingerprint, Model model) {

    /** The binary model of a topic's values. */
    public enum Model {
        VERSIONED, FINAL;

        /** The value of the {@code fbe.model} header. */
        public String header() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final String PACKAGE_HEADER = "fbe.package";
    public static final String VERSION_HEADER = "fbe.version";
    public static final String FINGERPRINT_HEADER = "fbe.fingerprint";
    public static final String MODEL_HEADER = "fbe.model";

    public FbeSchema {
        Objects.requireNonNull(packageName, "packageName");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(model, "model");
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

    /** 64 lowercase hex digits; a loop, not a regex: every record a consumer reads is checked. */
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

    /** The same schema in the other binary model. */
    public FbeSchema withModel(Model other) {
        return new FbeSchema(packageName, version, fingerprint, other);
    }

    /** Sets the four headers (replacing any of the same names). */
    public void writeTo(Headers headers) {
        set(headers, PACKAGE_HEADER, packageName);
        set(headers, VERSION_HEADER, version);
        set(headers, FINGERPRINT_HEADER, fingerprint);
        set(headers, MODEL_HEADER, model.header());
    }

    /**
     * The schema the headers name.
     *
     * @throws FbeRecordException a header is missing or holds no valid value
     */
    public static FbeSchema readFrom(Headers headers) {
        String model = get(headers, MODEL_HEADER);
        Model m;
        if (model.equals(Model.VERSIONED.header())) {
            m = Model.VERSIONED;
        } else if (model.equals(Model.FINAL.header())) {
            m = Model.FINAL;
        } else {
            throw new FbeRecordException("header " + MODEL_HEADER + " is '" + model + "', not versioned or final");
        }
        try {
            return new FbeSchema(get(headers, PACKAGE_HEADER), get(headers, VERSION_HEADER),
                get(headers, FINGERPRINT_HEADER), m);
        } catch (IllegalArgumentException e) {
            throw new FbeRecordException("header " + FINGERPRINT_HEADER + ": " + e.getMessage());
        }
    }

    /** {@code proto 1.0 (versioned, fingerprint 6288...c7d2)}: what error messages name. */
    @Override
    public String toString() {
        return packageName + " " + version + " (" + model.header() + ", fingerprint " + fingerprint + ")";
    }

    private static void set(Headers headers, String key, String value) {
        headers.remove(key);
        headers.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static String get(Headers headers, String key) {
        Header h = headers.lastHeader(key);
        if (h == null || h.value() == null) {
            throw new FbeRecordException("no " + key + " header: the record was not written by an FBE serializer");
        }
        return new String(h.value(), StandardCharsets.UTF_8);
    }
}
