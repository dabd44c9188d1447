"""The protocol of fbec --java --proto (docs/format.md 7): per schema package a Handler interface
(an `onReceive` per message of the IR's dispatch table, own messages first, then the imports'),
a Receiver and a Sender on the runtime's FrameReceiver and FrameSender, and with --final their
final twins; a Proxy (versioned only, as the original) handing each verified frame undecoded to a
ProxyHandler; a Client (and FinalClient): a Sender and a Receiver with requests waiting for their
responses (docs/format.md 7.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options

if TYPE_CHECKING:
    from fbec.targets.java import Context


def write_protocol(schema: ir.Schema, package: ir.Package, options: Options) -> list[GeneratedFile]:
    if not package.dispatch:
        return []
    out = [handler(schema, package, options), proxy_handler(schema, package, options), proxy(schema, package, options)]
    out += [receiver(schema, package, options, False), sender(schema, package, options, False),
            client(schema, package, options, False)]
    if options.final:
        out += [receiver(schema, package, options, True), sender(schema, package, options, True),
                client(schema, package, options, True)]
    return out


def _file(c: Context, name: str, w: CodeWriter, options: Options) -> GeneratedFile:
    from fbec.targets.java import path_of, write_file
    return GeneratedFile(path_of(c, name), write_file(c, w, options))


def handler(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    from fbec.targets.java import Context
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    w.line("/**")
    w.line(f" * What a Receiver of {package.name} delivers: an {{@code onReceive}} per message, its own first, then")
    w.line(" * those of its imports. Each does nothing but call {@link #onMessage} unless overridden; each value is")
    w.line(" * new, a handler may keep it.")
    w.line(" */")
    with w.block("public interface Handler {", "}"):
        w.line("/**")
        w.line(" * Every message whose own method is not overridden.")
        w.line(" *")
        w.line(" * @param value the message")
        w.line(" */")
        with w.block("default void onMessage(Object value) {", "}"):
            pass
        for d in package.dispatch:
            w.blank()
            w.line(f"/** @param value a {d.type} (type id {d.type_id}) */")
            with w.block(f"default void onReceive({c.named(d.type)} value) {{", "}"):
                w.line("onMessage(value);")
    return _file(c, "Handler", w, options)


def receiver(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    from fbec.targets.java import Context, int_literal
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    name = "FinalReceiver" if final else "Receiver"
    model = "final" if final else "versioned"
    base, limits, decode_exception = c.rt("FrameReceiver"), c.rt("Limits"), c.rt("DecodeException")
    w.line("/**")
    w.line(f" * Receives {model}-model frames of {package.name} (docs/format.md 7.4) and hands each message to a")
    w.line(" * Handler; see FrameReceiver for the limits and the errors.")
    w.line(" */")
    with w.block(f"public class {name} extends {base} {{", "}"):
        w.line("private final Handler handler;")
        w.blank()
        w.line("/** @param handler where the messages go */")
        with w.block(f"public {name}(Handler handler) {{", "}"):
            w.line(f"super({'true' if final else 'false'});")
            w.line("this.handler = handler;")
        w.blank()
        w.line("@Override")
        signature = (f"protected boolean dispatch(int typeId, byte[] frame, int offset, int size, {limits} limits) "
                     f"throws {decode_exception} {{")
        with w.block(signature, "}"), w.block("switch (typeId) {", "}"):
            for d in package.dispatch:
                w.line(f"case {int_literal(d.type_id, 'int')}:")
                with w.indented():
                    read = "fromFinal" if final else "fromFbe"
                    w.line(f"handler.onReceive({c.named(d.type)}.{read}(frame, offset, size, limits));")
                    w.line("return true;")
            w.line("default:")
            with w.indented():
                w.line("return false;")
    return _file(c, name, w, options)


def sender(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    from fbec.targets.java import Context
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    name = "FinalSender" if final else "Sender"
    model = "final" if final else "versioned"
    base, stream, io_exception = c.rt("FrameSender"), c.use("java.io.OutputStream"), c.use("java.io.IOException")
    w.line("/**")
    w.line(f" * Sends messages of {package.name} (and its imports) as {model}-model frames (docs/format.md 7.3), one")
    w.line(" * write per frame; see FrameSender.")
    w.line(" */")
    with w.block(f"public class {name} extends {base} {{", "}"):
        w.line("/** @param out where the frames go */")
        with w.block(f"public {name}({stream} out) {{", "}"):
            w.line("super(out);")
        for d in package.dispatch:
            w.blank()
            w.line("/**")
            w.line(f" * Sends a {d.type}.")
            w.line(" *")
            w.line(" * @param value the message")
            w.line(" * @return the frame's size")
            w.line(" * @throws IOException from the stream")
            w.line(" */")
            with w.block(f"public int send({c.named(d.type)} value) throws {io_exception} {{", "}"):
                w.line(f"return sendFrame(value::{'writeFinal' if final else 'writeFbe'});")
    return _file(c, name, w, options)


def proxy_handler(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    from fbec.targets.java import Context
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    w.line("/**")
    w.line(f" * What a Proxy of {package.name} hands on: each frame, verified but not decoded, to look at or forward")
    w.line(" * unchanged (the bytes are valid during the call). Each method calls {@link #onFrame} unless overridden.")
    w.line(" */")
    with w.block("public interface ProxyHandler {", "}"):
        w.line("/**")
        w.line(" * Every frame whose own method is not overridden.")
        w.line(" *")
        w.line(" * @param typeId the frame's type id")
        w.line(" * @param frame  the buffer")
        w.line(" * @param offset the frame's first byte")
        w.line(" * @param size   the frame's size")
        w.line(" */")
        with w.block("default void onFrame(int typeId, byte[] frame, int offset, int size) {", "}"):
            pass
        for d in package.dispatch:
            w.blank()
            w.line("/**")
            w.line(f" * A frame of {d.type} (type id {d.type_id}).")
            w.line(" *")
            w.line(" * @param frame  the buffer")
            w.line(" * @param offset the frame's first byte")
            w.line(" * @param size   the frame's size")
            w.line(" */")
            with w.block(f"default void {c.ident.frame_method(package.name, d.type)}(byte[] frame, int offset, int size) {{", "}"):
                w.line(f"onFrame({c.named(d.type)}.TYPE_ID, frame, offset, size);")
    return _file(c, "ProxyHandler", w, options)


def proxy(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    from fbec.targets.java import Context, int_literal
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    base, limits, decode_exception = c.rt("FrameReceiver"), c.rt("Limits"), c.rt("DecodeException")
    w.line("/**")
    w.line(f" * Receives versioned frames of {package.name} (docs/format.md 7.5) and hands each one, verified but not")
    w.line(" * decoded, to a ProxyHandler; see FrameReceiver for the limits and the errors.")
    w.line(" */")
    with w.block(f"public class Proxy extends {base} {{", "}"):
        w.line("private final ProxyHandler handler;")
        w.blank()
        w.line("/** @param handler where the frames go */")
        with w.block("public Proxy(ProxyHandler handler) {", "}"):
            w.line("super(false);")
            w.line("this.handler = handler;")
        w.blank()
        w.line("@Override")
        signature = (f"protected boolean dispatch(int typeId, byte[] frame, int offset, int size, {limits} limits) "
                     f"throws {decode_exception} {{")
        with w.block(signature, "}"), w.block("switch (typeId) {", "}"):
            for d in package.dispatch:
                w.line(f"case {int_literal(d.type_id, 'int')}:")
                with w.indented():
                    w.line(f"{c.named(d.type)}.verifyFbe(frame, offset, size, limits);")
                    w.line(f"handler.{c.ident.frame_method(package.name, d.type)}(frame, offset, size);")
                    w.line("return true;")
            w.line("default:")
            with w.indented():
                w.line("return false;")
    return _file(c, "Proxy", w, options)


def id_field(s: ir.Struct) -> ir.Field | None:
    """The `uuid id` field requests, responses and rejects are matched by (docs/format.md 7.6)."""
    for f in s.all_fields:
        if f.name == "id" and isinstance(f.type, ir.Primitive) and f.type.name == "uuid":
            return f
    return None


def client(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    from fbec.targets.java import Context
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    name = "FinalClient" if final else "Client"
    sender_class, receiver_class = ("FinalSender", "FinalReceiver") if final else ("Sender", "Receiver")
    model = "final" if final else "versioned"
    delivered = {d.type for d in package.dispatch}
    requests = [s for s in package.protocol_types if s.request]
    waiting = [s for s in requests if s.response in delivered and id_field(s) is not None
               and id_field(schema.struct(s.response or "")) is not None]
    responses = {s.response for s in waiting}
    rejects = {r.type for s in waiting for r in s.rejects if r.type in delivered
               and id_field(schema.struct(r.type)) is not None}
    global_rejects = {r.type for s in waiting for r in s.rejects if r.global_}
    rq, stream = c.rt("Requests"), c.use("java.io.OutputStream")
    io_exception, frame_exception = c.use("java.io.IOException"), c.rt("FrameException")
    w.line("/**")
    w.line(f" * A {sender_class} and a {receiver_class} of {package.name} with requests (docs/format.md 7.6): a")
    w.line(" * {@code request} per [request] message with a response sends it and gives a future of the response of")
    w.line(" * its id, which fails with a RejectException on one of its rejects, a TimeoutException when its timeout")
    w.line(" * passes, a CancellationException on reset(). Every message that answers no pending request goes to")
    w.line(f" * the notify handler. Feed it the {model}-model stream with receive (one thread); send from any thread.")
    w.line(" */")
    with w.block(f"public class {name} {{", "}"):
        w.line(f"private final {rq} requests = new {rq}();")
        w.line(f"private final {sender_class} sender;")
        w.line(f"private final {receiver_class} receiver;")
        w.blank()
        w.line("/**")
        w.line(" * @param out    where the frames go")
        w.line(" * @param notify gets every message that answers no pending request")
        w.line(" */")
        with w.block(f"public {name}({stream} out, Handler notify) {{", "}"):
            w.line(f"sender = new {sender_class}(out);")
            with w.block(f"receiver = new {receiver_class}(new Handler() {{", "});"):
                for k, d in enumerate(package.dispatch):
                    if k:
                        w.blank()
                    t = c.named(d.type)
                    w.line("@Override")
                    with w.block(f"public void onReceive({t} value) {{", "}"):
                        if d.type in responses or d.type in rejects:
                            f = id_field(schema.struct(d.type))
                            assert f is not None
                            glob = "true" if d.type in global_rejects else "false"
                            with w.block(f"if (!requests.answer(value.{c.ident.field(f)}, value, {glob})) {{", "}"):
                                w.line("notify.onReceive(value);")
                        else:
                            w.line("notify.onReceive(value);")
        w.blank()
        w.line("/** @return the sender (send any message) */")
        with w.block(f"public {sender_class} sender() {{", "}"):
            w.line("return sender;")
        w.blank()
        w.line("/** @return the receiver (limits, errors) */")
        with w.block(f"public {receiver_class} receiver() {{", "}"):
            w.line("return receiver;")
        w.blank()
        w.line("/**")
        w.line(" * Handles one chunk of the stream.")
        w.line(" *")
        w.line(" * @param chunk  the buffer")
        w.line(" * @param offset the chunk's first byte")
        w.line(" * @param length the chunk's size")
        w.line(" * @throws FrameException as the receiver's receive")
        w.line(" */")
        with w.block(f"public void receive(byte[] chunk, int offset, int length) throws {frame_exception} {{", "}"):
            w.line("receiver.receive(chunk, offset, length);")
        w.blank()
        w.line("/** Fails every pending request (CancellationException) and forgets a partial frame. */")
        with w.block("public void reset() {", "}"):
            w.line("requests.reset();")
            w.line("receiver.reset();")
        w.blank()
        w.line("/** @return the number of requests waiting for their response */")
        with w.block("public int pendingRequests() {", "}"):
            w.line("return requests.size();")
        for s in requests:
            t = c.named(s.qualified)
            w.blank()
            if s in waiting:
                r = c.named(s.response or "")
                f = id_field(s)
                assert f is not None
                rejected = sorted({c.named(x.type) + ".class" for x in s.rejects if x.type in rejects})
                w.line("/**")
                w.line(f" * Sends a {s.qualified} and waits for the {s.response} of its id.")
                w.line(" *")
                w.line(" * @param value         the request")
                w.line(" * @param timeoutMillis after how long the request fails with a TimeoutException (0: never)")
                w.line(" * @return the response, or why there is none")
                w.line(" */")
                future = c.use("java.util.concurrent.CompletableFuture")
                with w.block(f"public {future}<{r}> request({t} value, long timeoutMillis) {{", "}"):
                    w.line(f"{future}<{r}> response = requests.add(value.{c.ident.field(f)}, {r}.class, "
                           f"{c.use('java.util.Set')}.of({', '.join(rejected)}), timeoutMillis);")
                    with w.block("try {", f"}} catch ({io_exception} e) {{"):
                        w.line("sender.send(value);")
                    with w.block("", "}"):
                        w.line(f"requests.fail(value.{c.ident.field(f)}, e);")
                    w.line("return response;")
            else:
                w.line("/**")
                w.line(f" * Sends a {s.qualified}, a request without response: done once sent.")
                w.line(" *")
                w.line(" * @param value the request")
                w.line(" * @throws IOException from the stream")
                w.line(" */")
                with w.block(f"public void request({t} value) throws {io_exception} {{", "}"):
                    w.line("sender.send(value);")
    return _file(c, name, w, options)
