"""The protocol of fbec --kotlin --proto (docs/format.md 7), as the Java target's on the same runtime:
per schema package a Handler interface (an `onReceive` per message of the IR's dispatch table, own
messages first, then the imports'), a Receiver and a Sender on the runtime's FrameReceiver and
FrameSender, and with --final their final twins; a Proxy (versioned only, as the original) handing
each verified frame undecoded to a ProxyHandler; a Client (and FinalClient): a Sender and a
Receiver with requests whose responses come as CompletableFutures (docs/format.md 7.6)."""

from __future__ import annotations

from fbec.targets.base import CodeWriter
from fbec.targets.jvm import protocol
from fbec.targets.jvm.context import doc
from fbec.targets.kotlin.syntax import Context, fits, signature


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
