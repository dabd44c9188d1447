"""The protocol of fbec --java --proto (docs/format.md 7): per schema package a Handler interface
(an `onReceive` per message of the IR's dispatch table, own messages first, then the imports'),
a Receiver and a Sender on the runtime's FrameReceiver and FrameSender, and with --final their
final twins; a Proxy (versioned only, as the original) handing each verified frame undecoded to a
ProxyHandler; a Client (and FinalClient): a Sender and a Receiver with requests waiting for their
responses (docs/format.md 7.6)."""

from __future__ import annotations

from fbec.targets.base import CodeWriter
from fbec.targets.java.syntax import Context
from fbec.targets.jvm import protocol
from fbec.targets.jvm.context import doc


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
        protocol.client_requests(c, w, requests)
