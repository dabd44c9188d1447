"""The protocol of fbec --kotlin --proto (docs/format.md 7), as the Java target's on the same runtime:
per schema package a Handler interface (an `onReceive` per message of the IR's dispatch table, own
messages first, then the imports'), a Receiver and a Sender on the runtime's FrameReceiver and
FrameSender, and with --final their final twins; a Proxy (versioned only, as the original) handing
each verified frame undecoded to a ProxyHandler; a Client (and FinalClient): a Sender and a
Receiver with requests whose responses come as CompletableFutures (docs/format.md 7.6)."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options
from fbec.targets.kotlin.syntax import Context, fits, int_literal, signature


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
    from fbec.targets.kotlin import path_of, write_file
    return GeneratedFile(path_of(c, name), write_file(c, w, options))


def _context(schema: ir.Schema, package: ir.Package, options: Options) -> Context:
    return Context(schema, package, options.package_prefix)


def _type_id(value: int) -> str:
    return int_literal(value, "Int")


def handler(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    c = _context(schema, package, options)
    w = CodeWriter(options)
    w.line("/**")
    w.line(f" * What a Receiver of {package.name} delivers: an `onReceive` per message, its own first, then those")
    w.line(" * of its imports. Each does nothing but call [onMessage] unless overridden; each value is new, a")
    w.line(" * handler may keep it.")
    w.line(" */")
    with w.block("interface Handler {", "}"):
        w.line("/** Every message whose own method is not overridden. */")
        w.line("fun onMessage(value: Any) {}")
        for d in package.dispatch:
            w.blank()
            w.line(f"/** A {d.type} (type id {d.type_id}). */")
            w.line(f"fun onReceive(value: {c.named(d.type)}) = onMessage(value)")
    return _file(c, "Handler", w, options)


def dispatch(w: CodeWriter, c: Context, package: ir.Package, lines: list[tuple[int, list[str]]]) -> None:
    """FrameReceiver's dispatch: the statements of each type id, false for any other."""
    limits = c.rt("Limits")
    w.line("/** Decodes and delivers one whole frame; false when no message has the type id. */")
    with w.block(f"override fun dispatch(typeId: Int, frame: ByteArray, offset: Int, size: Int, limits: {limits}): "
                 "Boolean {", "}"):
        with w.block("when (typeId) {", "}"):
            for type_id, statements in lines:
                if len(statements) == 1:
                    w.line(f"{_type_id(type_id)} -> {statements[0]}")
                else:
                    with w.block(f"{_type_id(type_id)} -> {{", "}"):
                        for s in statements:
                            w.line(s)
            w.line("else -> return false")
        w.line("return true")


def receiver(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    c = _context(schema, package, options)
    w = CodeWriter(options)
    name = "FinalReceiver" if final else "Receiver"
    model = "final" if final else "versioned"
    read = "fromFinal" if final else "fromFbe"
    w.line("/**")
    w.line(f" * Receives {model}-model frames of {package.name} (docs/format.md 7.4) and hands each message to a")
    w.line(" * [Handler]; see FrameReceiver for the limits and the errors.")
    w.line(" */")
    with w.block(f"open class {name}(private val handler: Handler) : {c.rt('FrameReceiver')}({str(final).lower()}) {{",
                 "}"):
        dispatch(w, c, package, [(d.type_id, [f"handler.onReceive({c.named(d.type)}.{read}(frame, offset, size, limits))"])
                                 for d in package.dispatch])
    return _file(c, name, w, options)


def sender(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    c = _context(schema, package, options)
    w = CodeWriter(options)
    name = "FinalSender" if final else "Sender"
    model = "final" if final else "versioned"
    stream, io_exception = c.use("java.io.OutputStream"), c.use("java.io.IOException")
    w.line("/**")
    w.line(f" * Sends messages of {package.name} (and its imports) as {model}-model frames (docs/format.md 7.3), one")
    w.line(" * write per frame; see FrameSender.")
    w.line(" */")
    with w.block(f"open class {name}(out: {stream}) : {c.rt('FrameSender')}(out) {{", "}"):
        for k, d in enumerate(package.dispatch):
            if k:
                w.blank()
            w.line(f"/** Sends a {d.type}; returns the frame's size. */")
            w.line(f"@Throws({io_exception}::class)")
            w.line(f"fun send(value: {c.named(d.type)}): Int = sendFrame(value::{'writeFinal' if final else 'writeFbe'})")
    return _file(c, name, w, options)


def proxy_handler(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    c = _context(schema, package, options)
    w = CodeWriter(options)
    w.line("/**")
    w.line(f" * What a Proxy of {package.name} hands on: each frame, verified but not decoded, to look at or")
    w.line(" * forward unchanged (the bytes `frame[offset until offset + size]` are valid during the call). Each")
    w.line(" * method calls [onFrame] unless overridden.")
    w.line(" */")
    with w.block("interface ProxyHandler {", "}"):
        w.line("/** Every frame whose own method is not overridden. */")
        w.line("fun onFrame(typeId: Int, frame: ByteArray, offset: Int, size: Int) {}")
        for d in package.dispatch:
            w.blank()
            w.line(f"/** A frame of {d.type} (type id {d.type_id}). */")
            head = f"fun {c.ident.frame_method(package.name, d.type)}(frame: ByteArray, offset: Int, size: Int) ="
            body = f"onFrame({c.named(d.type)}.TYPE_ID, frame, offset, size)"
            if fits(w, w.depth, f"{head} {body}"):
                w.line(f"{head} {body}")
            else:
                w.line(head)
                with w.indented():
                    w.line(body)
    return _file(c, "ProxyHandler", w, options)


def proxy(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    c = _context(schema, package, options)
    w = CodeWriter(options)
    w.line("/**")
    w.line(f" * Receives versioned frames of {package.name} (docs/format.md 7.5) and hands each one, verified but")
    w.line(" * not decoded, to a [ProxyHandler]; see FrameReceiver for the limits and the errors.")
    w.line(" */")
    with w.block(f"open class Proxy(private val handler: ProxyHandler) : {c.rt('FrameReceiver')}(false) {{", "}"):
        dispatch(w, c, package, [(d.type_id, [f"{c.named(d.type)}.verifyFbe(frame, offset, size, limits)",
                                              f"handler.{c.ident.frame_method(package.name, d.type)}(frame, offset, size)"])
                                 for d in package.dispatch])
    return _file(c, "Proxy", w, options)


def id_field(s: ir.Struct) -> ir.Field | None:
    """The `uuid id` field requests, responses and rejects are matched by (docs/format.md 7.6)."""
    for f in s.all_fields:
        if f.name == "id" and isinstance(f.type, ir.Primitive) and f.type.name == "uuid":
            return f
    return None


def client(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    c = _context(schema, package, options)
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
    rq, stream, frame_exception = c.rt("Requests"), c.use("java.io.OutputStream"), c.rt("FrameException")
    w.line("/**")
    w.line(f" * A [{sender_class}] and a [{receiver_class}] of {package.name} with requests (docs/format.md 7.6): a")
    w.line(" * `request` per [request] message with a response sends it and gives a future of the response of its")
    w.line(" * id, which fails with a RejectException on one of its rejects, a TimeoutException when its timeout")
    w.line(" * passes, a CancellationException on [reset]. Every message that answers no pending request goes to")
    w.line(f" * [notify]. Feed it the {model}-model stream with [receive] (one thread); send from any thread.")
    w.line(" */")
    with w.block(f"open class {name}(out: {stream}, private val notify: Handler) {{", "}"):
        w.line(f"private val requests = {rq}()")
        w.blank()
        w.line("/** The sender (send any message). */")
        w.line(f"val sender = {sender_class}(out)")
        w.blank()
        w.line("/** The receiver (limits, errors). */")
        with w.block(f"val receiver = {receiver_class}(object : Handler {{", "})"):
            for k, d in enumerate(package.dispatch):
                if k:
                    w.blank()
                t = c.named(d.type)
                if d.type in responses or d.type in rejects:
                    f = id_field(schema.struct(d.type))
                    assert f is not None
                    glob = "true" if d.type in global_rejects else "false"
                    with w.block(f"override fun onReceive(value: {t}) {{", "}"):
                        w.line(f"if (!requests.answer(value.{c.ident.field(f)}, value, {glob})) notify.onReceive(value)")
                else:
                    w.line(f"override fun onReceive(value: {t}) = notify.onReceive(value)")
        w.blank()
        w.line("/** The number of requests waiting for their response. */")
        w.line("val pendingRequests: Int")
        with w.indented():
            w.line("get() = requests.size()")
        w.blank()
        w.line("/** Handles one chunk of the stream, as the receiver's receive. */")
        w.line(f"@Throws({frame_exception}::class)")
        w.line("fun receive(chunk: ByteArray, offset: Int = 0, length: Int = chunk.size) = "
               "receiver.receive(chunk, offset, length)")
        w.blank()
        w.line("/** Fails every pending request (CancellationException) and forgets a partial frame. */")
        with w.block("fun reset() {", "}"):
            w.line("requests.reset()")
            w.line("receiver.reset()")
        for s in requests:
            t = c.named(s.qualified)
            w.blank()
            if s in waiting:
                r = c.named(s.response or "")
                f = id_field(s)
                assert f is not None
                rejected = sorted({c.named(x.type) + "::class.java" for x in s.rejects if x.type in rejects})
                future = c.use("java.util.concurrent.CompletableFuture")
                w.line("/**")
                w.line(f" * Sends a {s.qualified} and gives the {s.response} of its id, or why there is none;")
                w.line(" * [timeoutMillis] 0 waits for ever.")
                w.line(" */")
                with w.block(f"fun request(value: {t}, timeoutMillis: Long = 0): {future}<{r}> {{", "}"):
                    classes = f"setOf({', '.join(rejected)})" if rejected else "emptySet()"
                    signature(w, w.depth, "val response = requests.add",
                              [f"value.{c.ident.field(f)}", f"{r}::class.java", classes, "timeoutMillis"], "")
                    with w.block("try {", f"}} catch (e: {c.use('java.io.IOException')}) {{"):
                        w.line("sender.send(value)")
                    with w.block("", "}"):
                        w.line(f"requests.fail(value.{c.ident.field(f)}, e)")
                    w.line("return response")
            else:
                w.line(f"/** Sends a {s.qualified}, a request without response: done once sent. */")
                w.line(f"@Throws({c.use('java.io.IOException')}::class)")
                with w.block(f"fun request(value: {t}) {{", "}"):
                    w.line("sender.send(value)")
    return _file(c, name, w, options)
