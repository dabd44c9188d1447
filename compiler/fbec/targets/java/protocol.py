"""The protocol of fbec --java --proto (docs/format.md 7): per schema package a Handler interface
(an `onReceive` per message of the IR's dispatch table, own messages first, then the imports'),
a Receiver and a Sender on the runtime's FrameReceiver and FrameSender, and with --final their
final twins; a Proxy (versioned only, as the original) handing each verified frame undecoded to a
ProxyHandler; a Client (and FinalClient): a Sender and a Receiver with requests waiting for their
responses (docs/format.md 7.6)."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.java.syntax import Context
from fbec.targets.jvm import protocol
from fbec.targets.jvm.context import doc


def handler(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:

    def every() -> None:
        w.line("/** Every message whose own method is not overridden. */")
        with w.block("default void onMessage(Object value) {", "}"):
            pass

    def method(d: ir.Dispatch) -> None:
        w.line(f"/** @param value a {d.type} (type id {d.type_id}) */")
        with w.block(f"default void onReceive({c.named(d.type)} value) {{", "}"):
            w.line("onMessage(value);")

    protocol.interface(w, c, "Handler", every, method)


def receiver(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    _dispatcher(c, w, name, "Handler", "messages", final, protocol.received(c, final))


def sender(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    base, stream, io_exception = c.rt("FrameSender"), c.use("java.io.OutputStream"), c.use("java.io.IOException")
    with w.block(f"public class {name} extends {base} {{", "}"):
        w.line("/** @param out where the frames go */")
        with w.block(f"public {name}({stream} out) {{", "}"):
            w.line("super(out);")
        for d in c.package.dispatch:
            w.blank()
            w.line(f"/** Sends a {d.type}; returns the frame's size. */")
            with w.block(f"public int send({c.named(d.type)} value) throws {io_exception} {{", "}"):
                w.line(f"return sendFrame(value::{'writeFinal' if final else 'writeFbe'});")


def proxy_handler(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:

    def every() -> None:
        w.line("/** Every frame whose own method is not overridden. */")
        with w.block("default void onFrame(int typeId, byte[] frame, int offset, int size) {", "}"):
            pass

    def method(d: ir.Dispatch) -> None:
        w.line(f"/** A frame of {d.type} (type id {d.type_id}). */")
        handler = c.ident.frame_method(c.package.name, d.type)
        with w.block(f"default void {handler}(byte[] frame, int offset, int size) {{", "}"):
            w.line(f"onFrame({c.named(d.type)}.TYPE_ID, frame, offset, size);")

    protocol.interface(w, c, "ProxyHandler", every, method)


def proxy(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    _dispatcher(c, w, "Proxy", "ProxyHandler", "frames", False, protocol.proxied(c))


def _dispatcher(c: Context, w: CodeWriter, name: str, handler: str, what: str, final: bool,
                cases: list[tuple[str, list[str]]]) -> None:
    """A FrameReceiver of the package's messages: the statements of each type id (jvm.protocol)."""
    base, limits, decode_exception = c.rt("FrameReceiver"), c.rt("Limits"), c.rt("DecodeException")
    with w.block(f"public class {name} extends {base} {{", "}"):
        w.line(f"private final {handler} handler;")
        w.blank()
        w.line(f"/** @param handler where the {what} go */")
        with w.block(f"public {name}({handler} handler) {{", "}"):
            w.line(f"super({'true' if final else 'false'});")
            w.line("this.handler = handler;")
        w.blank()
        w.line("@Override")
        signature = (f"protected boolean dispatch(int typeId, byte[] frame, int offset, int size, {limits} limits) "
                     f"throws {decode_exception} {{")
        with w.block(signature, "}"), w.block("switch (typeId) {", "}"):
            for type_id, statements in cases:
                w.line(f"case {type_id}:")
                with w.indented():
                    for line in statements:
                        w.line(line)
                    w.line("return true;")
            w.line("default:")
            with w.indented():
                w.line("return false;")


def client(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    sender_class, receiver_class = ("FinalSender", "FinalReceiver") if final else ("Sender", "Receiver")
    answers, requests = protocol.client(c.schema, c.package)
    with w.block(f"public class {name} extends {c.rt('FrameClient')}<{sender_class}, {receiver_class}> {{", "}"):
        doc(w, "@param out    where the frames go", "@param notify gets every message that answers no pending request")
        with (w.block(f"public {name}({c.use('java.io.OutputStream')} out, Handler notify) {{", "}"),
              w.block(f"super(new {sender_class}(out), requests -> new {receiver_class}(new Handler() {{", "}));")):
            protocol.client_answers(c, w, answers)
        if requests:
            w.blank()
        protocol.client_requests(c, w, requests, request, request_sent)


def request(c: Context, w: CodeWriter, rq: protocol.Request, t: str, field: str, r: str) -> None:
    """The Client's request(value, timeoutMillis) of a request waiting for its response."""
    rejected = sorted({c.named(x) + ".class" for x in rq.rejects})
    doc(w, f"Sends a {rq.struct.qualified} and gives the {rq.response} of its id, or why there is none;",
        "timeoutMillis 0 waits for ever.")
    future = c.use("java.util.concurrent.CompletableFuture")
    with w.block(f"public {future}<{r}> request({t} value, long timeoutMillis) {{", "}"):
        w.line(f"return sendRequest(value.{field}, {r}.class, {c.use('java.util.Set')}.of({', '.join(rejected)}), "
               "timeoutMillis, () -> sender().send(value));")


def request_sent(c: Context, w: CodeWriter, rq: protocol.Request, t: str) -> None:
    """The Client's request(value) of a request without response."""
    w.line(f"/** Sends a {rq.struct.qualified}, a request without response: done once sent. */")
    with w.block(f"public void request({t} value) throws {c.use('java.io.IOException')} {{", "}"):
        w.line("sender().send(value);")

PARTS = (handler, proxy_handler, proxy, receiver, sender, client)
