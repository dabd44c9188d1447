"""The protocol of fbec --kotlin --proto (docs/format.md 7), as the Java target's on the same runtime:
per schema package a Handler interface (an `onReceive` per message of the IR's dispatch table, own
messages first, then the imports'), a Receiver and a Sender on the runtime's FrameReceiver and
FrameSender, and with --final their final twins; a Proxy (versioned only, as the original) handing
each verified frame undecoded to a ProxyHandler; a Client (and FinalClient): a Sender and a
Receiver with requests whose responses come as CompletableFutures (docs/format.md 7.6)."""

from __future__ import annotations

from collections.abc import Callable

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm import protocol
from fbec.targets.jvm.context import doc
from fbec.targets.kotlin.syntax import Context, fits, signature


def handler(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    _interface(w, c, "Handler", "message", "fun onMessage(value: Any) {}", lambda d: [
        f"/** A {d.type} (type id {d.type_id}). */", f"fun onReceive(value: {c.named(d.type)}) = onMessage(value)"])


def _interface(w: CodeWriter, c: Context, name: str, what: str, every: str,
               method: Callable[[ir.Dispatch], list[str]]) -> None:
    """A handler interface (jvm.protocol.interface): `every` (the method every `what` goes to unless its
    own is overridden), then the lines of each message's own method."""

    def catch_all() -> None:
        w.line(f"/** Every {what} whose own method is not overridden. */")
        w.line(every)

    def own(d: ir.Dispatch) -> None:
        for line in method(d):
            w.line(line)

    protocol.interface(w, c, name, catch_all, own)


def dispatch(w: CodeWriter, c: Context, lines: list[tuple[str, list[str]]]) -> None:
    """FrameReceiver's dispatch: the statements of each type id, false for any other."""
    limits = c.rt("Limits")
    with w.block(f"override fun dispatch(typeId: Int, frame: ByteArray, offset: Int, size: Int, limits: {limits}): "
                 "Boolean {", "}"):
        with w.block("when (typeId) {", "}"):
            for type_id, statements in lines:
                if len(statements) == 1:
                    w.line(f"{type_id} -> {statements[0]}")
                else:
                    with w.block(f"{type_id} -> {{", "}"):
                        for s in statements:
                            w.line(s)
            w.line("else -> return false")
        w.line("return true")


def receiver(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    with w.block(f"open class {name}(private val handler: Handler) : {c.rt('FrameReceiver')}({str(final).lower()}) {{",
                 "}"):
        dispatch(w, c, protocol.received(c, final))


def sender(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    stream, io_exception = c.use("java.io.OutputStream"), c.use("java.io.IOException")
    with w.block(f"open class {name}(out: {stream}) : {c.rt('FrameSender')}(out) {{", "}"):
        for k, d in enumerate(c.package.dispatch):
            if k:
                w.blank()
            w.line(f"/** Sends a {d.type}; returns the frame's size. */")
            w.line(f"@Throws({io_exception}::class)")
            write = "writeFinal" if final else "writeFbe"
            w.line(f"fun send(value: {c.named(d.type)}): Int = sendFrame(value::{write})")


def proxy_handler(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    def method(d: ir.Dispatch) -> list[str]:
        head = f"fun {c.ident.frame_method(c.package.name, d.type)}(frame: ByteArray, offset: Int, size: Int) ="
        body = f"onFrame({c.named(d.type)}.TYPE_ID, frame, offset, size)"
        lines = [head, w.unit + body] if not fits(w, w.depth, f"{head} {body}") else [f"{head} {body}"]
        return [f"/** A frame of {d.type} (type id {d.type_id}). */", *lines]

    _interface(w, c, "ProxyHandler", "frame", "fun onFrame(typeId: Int, frame: ByteArray, offset: Int, size: Int) {}",
               method)


def proxy(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    with w.block(f"open class Proxy(private val handler: ProxyHandler) : {c.rt('FrameReceiver')}(false) {{", "}"):
        dispatch(w, c, protocol.proxied(c))


def client(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    sender_class, receiver_class = ("FinalSender", "FinalReceiver") if final else ("Sender", "Receiver")
    answers, requests = protocol.client(c.schema, c.package)
    w.line(f"open class {name}(out: {c.use('java.io.OutputStream')}, notify: Handler) :")
    answered = "requests" if any(a.id is not None for a in answers) else "_"
    with (w.indented(),
          w.block(f"{c.rt('FrameClient')}<{sender_class}, {receiver_class}>({sender_class}(out), {{ {answered} ->",
                  "})" + (" {" if requests else "")),
          w.block(f"{receiver_class}(object : Handler {{", "})")):
        protocol.client_answers(c, w, answers)
    if requests:
        with w.indented():
            protocol.client_requests(c, w, requests, request, request_sent)
        w.line("}")


def request(c: Context, w: CodeWriter, rq: protocol.Request, t: str, field: str, r: str) -> None:
    """The Client's request(value, timeoutMillis) of a request waiting for its response."""
    rejected = sorted({c.named(x) + "::class.java" for x in rq.rejects})
    future = c.use("java.util.concurrent.CompletableFuture")
    doc(w, f"Sends a {rq.struct.qualified} and gives the {rq.response} of its id, or why there is none;",
        "[timeoutMillis] 0 waits for ever.")
    head = f"fun request(value: {t}, timeoutMillis: Long = 0): {future}<{r}> ="
    args = [f"value.{field}", f"{r}::class.java", f"setOf({', '.join(rejected)})" if rejected else "emptySet()",
            "timeoutMillis"]
    call = f"sendRequest({', '.join(args)}) {{ sender.send(value) }}"
    if fits(w, w.depth, f"{head} {call}"):
        w.line(f"{head} {call}")
    elif fits(w, w.depth + 1, call):    # the body on the next line
        w.line(head)
        w.line(w.unit + call)
    else:
        signature(w, w.depth, f"{head} sendRequest", args, " { sender.send(value) }")


def request_sent(c: Context, w: CodeWriter, rq: protocol.Request, t: str) -> None:
    """The Client's request(value) of a request without response."""
    w.line(f"/** Sends a {rq.struct.qualified}, a request without response: done once sent. */")
    w.line(f"@Throws({c.use('java.io.IOException')}::class)")
    with w.block(f"fun request(value: {t}) {{", "}"):
        w.line("sender.send(value)")

PARTS = (handler, proxy_handler, proxy, receiver, sender, client)
