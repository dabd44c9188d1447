"""The protocol of fbec --kotlin --proto (docs/format.md 7), as the Java target's on the same runtime:
per schema package a Handler interface (an `onReceive` per message of the IR's dispatch table, own
messages first, then the imports'), a Receiver and a Sender on the runtime's FrameReceiver and
FrameSender, and with --final their final twins; a Proxy (versioned only, as the original) handing
each verified frame undecoded to a ProxyHandler; a Client (and FinalClient): a Sender and a
Receiver with requests whose responses come as CompletableFutures (docs/format.md 7.6)."""

from __future__ import annotations

from fbec.targets.base import CodeWriter
from fbec.targets.jvm import protocol
from fbec.targets.kotlin.syntax import Context


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
            protocol.client_requests(c, w, requests)
        w.line("}")
