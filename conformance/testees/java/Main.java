// The Java conformance testee (conformance/testee_protocol.md): length-prefixed JSON requests on
// stdin, answers on stdout, one long-lived JVM for every request. It answers the binary models
// (versioned and final, in and out) with the fbec --java code of every conformance schema
// (Registry.java, written by build.py), JSON in and out (fromJson/toJson), value descriptions in and
// out (Values.java, over types.json), protocol streams with each package's generated Receiver or
// FinalReceiver, and the text form of what it reads.

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;

import io.github.fbetoolkit.fbe.DecodeException;
import io.github.fbetoolkit.fbe.EncodeException;
import io.github.fbetoolkit.fbe.FrameException;
import io.github.fbetoolkit.fbe.FrameReceiver;
import io.github.fbetoolkit.fbe.JsonReader;
import io.github.fbetoolkit.fbe.Limits;
import io.github.fbetoolkit.fbe.Utf8;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.function.Consumer;

public final class Main {
    // value descriptions hold NaN and the infinities as bare words
    private static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    private static Values values;

    private Main() {}

    /** Reads a root of the input format into a value. */
    interface Read {
        Object read(byte[] data, Limits limits) throws DecodeException;
    }

    /** Writes a value as a root of the output format. */
    interface Write {
        byte[] write(Object value);
    }

    /** Writes a value as JSON text. */
    interface WriteText {
        String write(Object value);
    }

    /** Verifies a root of the input format: returns exactly when reading it succeeds, else throws the same. */
    interface Verify {
        void verify(byte[] data, Limits limits) throws DecodeException;
    }

    /** What the generated code gives every struct. */
    record Codec(Read fromFbe, Read fromFinal, Read fromJson, Write toFbe, Write toFinal, WriteText toJson,
                 Verify verifyFbe, Verify verifyFinal) {}

    /** A package's generated Receiver (or FinalReceiver), every message it delivers handed to h. */
    interface Receivers {
        FrameReceiver make(boolean finalModel, Consumer<Object> h);
    }

    /** Feeds a protocol stream to the package's Receiver in one call and lists what it did. */
    static ObjectNode stream(JsonNode req, byte[] data, Limits limits) {
        Receivers make = Registry.RECEIVERS.get(req.path("package").asText());
        if (make == null) {
            return answer("skipped", "package " + req.path("package").asText() + " has no Receiver in this testee");
        }
        ObjectNode out = JSON.createObjectNode();
        ArrayNode events = out.putArray("result");
        FrameReceiver r = make.make(req.path("input").path("format").asText().equals("final_stream"),
                v -> events.addObject().put("message", Registry.NAMES.get(v.getClass().getName())));
        r.limits(limits);
        r.onError(e -> events.addObject().put("error", e.getMessage()));
        try {
            r.receive(data);
        } catch (FrameException e) {
            // a lost stream: reported to the error handler already
        }
        return out;
    }

    static Limits limitsOf(JsonNode node) {
        Limits lim = Limits.DEFAULT;
        if (node == null || !node.isObject()) {
            return lim;
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            int v = e.getValue().asInt();
            switch (e.getKey()) {
                case "max_depth":
                    lim = lim.withMaxDepth(v);
                    break;
                case "budget_factor":
                    lim = lim.withBudgetFactor(v);
                    break;
                case "budget_slack":
                    lim = lim.withBudgetSlack(v);
                    break;
                case "max_frame_size":
                    lim = lim.withMaxFrameSize(v);
                    break;
                default:
                    break;
            }
        }
        return lim;
    }

    static ObjectNode answer(String kind, String text) {
        ObjectNode out = JSON.createObjectNode();
        out.put(kind, text);
        return out;
    }

    static ObjectNode answer(JsonNode req) {
        String format = req.path("input").path("format").asText();
        String output = req.path("output").asText();
        if (format.equals("stream") || format.equals("final_stream")) {
            byte[] data;
            try {
                data = Base64.getDecoder().decode(req.path("input").path("payload").asText());
            } catch (IllegalArgumentException e) {
                return answer("parse_error", "payload: " + e.getMessage());
            }
            return stream(req, data, limitsOf(req.get("limits")));
        }
        boolean in = format.equals("versioned") || format.equals("final") || format.equals("json")
                || format.equals("value");
        boolean binary = format.equals("versioned") || format.equals("final");
        boolean out = output.equals("versioned") || output.equals("final") || output.equals("text") || output.equals("json")
                || output.equals("value") || output.equals("verify") && binary;
        if (!in || !out) {
            return answer("skipped", "unknown formats " + format + " -> " + output);
        }
        String name = req.path("package").asText() + "." + req.path("type").asText();
        Codec codec = Registry.CODECS.get(name);
        if (codec == null) {
            return answer("skipped", "no Java type " + name);
        }
        Object value;
        if (format.equals("value")) {
            try {
                value = values.readStruct(name, req.path("input").path("payload"));
            } catch (Values.BadValue | IllegalArgumentException e) {
                return answer("serialize_error", "UNEXPECTED value description: " + e.getMessage());
            }
        } else {
            byte[] data;
            try {
                // JSON text comes as a JSON string: its UTF-8 bytes are the text (a lone surrogate in it is refused)
                data = format.equals("json") ? JsonReader.utf8(req.path("input").path("payload").asText())
                        : Base64.getDecoder().decode(req.path("input").path("payload").asText());
            } catch (IllegalArgumentException | DecodeException e) {
                return answer("parse_error", "payload: " + e.getMessage());
            }
            Limits limits = limitsOf(req.get("limits"));
            if (output.equals("verify")) {
                try {
                    (format.equals("versioned") ? codec.verifyFbe() : codec.verifyFinal()).verify(data, limits);
                    return answer("result", "ok");
                } catch (DecodeException e) {
                    return answer("parse_error", e.getMessage());
                }
            }
            try {
                value = format.equals("versioned") ? codec.fromFbe().read(data, limits)
                        : format.equals("final") ? codec.fromFinal().read(data, limits) : codec.fromJson().read(data, limits);
            } catch (DecodeException e) {
                return answer("parse_error", e.getMessage());
            }
        }
        try {
            if (output.equals("json")) {
                return answer("result", codec.toJson().write(value));
            }
            if (output.equals("value")) {
                ObjectNode result = JSON.createObjectNode();
                result.putRawValue("result", new RawValue(values.describe(name, value)));
                return result;
            }
            byte[] bytes = output.equals("versioned") ? codec.toFbe().write(value)
                    : output.equals("final") ? codec.toFinal().write(value) : Utf8.bytes(value.toString());
            return answer("result", Base64.getEncoder().encodeToString(bytes));
        } catch (EncodeException e) {
            return answer("serialize_error", e.getMessage());
        } catch (IOException e) {
            return answer("serialize_error", "UNEXPECTED value description: " + e.getMessage());
        }
    }

    static int readSize(InputStream in) throws IOException {
        byte[] b = new byte[4];
        int n = in.readNBytes(b, 0, 4);
        if (n < 4) {
            throw new EOFException();
        }
        return (b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24;
    }

    public static void main(String[] args) throws IOException, ReflectiveOperationException {
        values = new Values(Path.of(args[0]));
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in));
        OutputStream out = new BufferedOutputStream(System.out);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        while (true) {
            byte[] body;
            try {
                body = new byte[readSize(in)];
                in.readFully(body);
            } catch (EOFException e) {
                return;
            }
            ObjectNode resp;
            JsonNode req = null;
            try {
                req = JSON.readTree(body);
            } catch (IOException e) {
                resp = answer("parse_error", "request: " + e.getMessage());
            }
            if (req != null && req.path("quit").asBoolean(false)) {
                return;
            }
            if (req == null) {
                resp = answer("parse_error", "request: not JSON");
            } else {
                boolean measure = req.path("measure").asBoolean(false);
                long before = measure ? threads.getThreadAllocatedBytes(self) : 0;
                long start = System.nanoTime();
                resp = answer(req);     // anything but a DecodeException is a bug: the testee dies, the runner says so
                if (measure) {
                    // bytes allocated while answering: an upper bound of the peak heap growth
                    ObjectNode m = resp.putObject("measured");
                    m.put("peak_bytes", threads.getThreadAllocatedBytes(self) - before);
                    m.put("seconds", (System.nanoTime() - start) / 1e9);
                }
            }
            byte[] text = JSON.writeValueAsBytes(resp);
            int n = text.length;
            out.write(new byte[] {(byte) n, (byte) (n >> 8), (byte) (n >> 16), (byte) (n >> 24)});
            out.write(text);
            out.flush();
        }
    }
}
