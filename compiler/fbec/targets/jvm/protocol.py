"""The protocol of fbec --java --proto and --kotlin --proto (docs/format.md 7): which classes a schema
package gets and what its Client does with each request, decided once, and the classes both languages
write alike through the Context's spelling (the handler interfaces, the Receivers, the Proxy, the
Senders) on the runtime's FrameReceiver and FrameSender; each language writes its Client
(java/protocol.py, kotlin/protocol.py).

Per schema package with messages: a Handler interface (an `onReceive` per message of the IR's
dispatch table, own messages first, then the imports'), a ProxyHandler and a Proxy (versioned only,
as the original) handing each verified frame undecoded on, a Receiver, a Sender and a Client (a
Sender and a Receiver with requests waiting for their responses, docs/format.md 7.6), and with
--final the final twins of the last three.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fbec.model import ir
from fbec.targets import base
from fbec.targets.base import CodeWriter, GeneratedFile, Options
from fbec.targets.jvm.context import Context, doc

# A class of the protocol: its writer, given the file's context, writer, class name and model.
Part = Callable[..., None]


@dataclass(frozen=True)
class Answer:
    """A message a Client's receiver gets (the package's dispatch table, in order)."""
    message: str                 # its type
    id: ir.Field | None          # the id it answers a pending request by (a response or a reject of one)
    everyone: bool               # a global reject: it answers a request of any type with its id


@dataclass(frozen=True)
class Request:
    """A request a Client sends (the package's, in order)."""
    struct: ir.Struct
    id: ir.Field | None          # when the Client waits for its response: the id it is matched by
    response: str                # the response's type
    rejects: list[str]           # its rejects the Client matches by id (delivered, with an id)


def client(schema: ir.Schema, package: ir.Package) -> tuple[list[Answer], list[Request]]:
    """What a Client does with each message it receives and each request it sends (docs/format.md 7.6):
    base.client_answers decides it, for Go's and TypeScript's Clients too (a request with an id waits
    for its response, whether the response has an id or not)."""
    waiting, answers = base.client_answers([base.Message(s, s.qualified, "") for s in package.protocol_types],
                                           [base.Message(schema.struct(d.type), d.type, "") for d in package.dispatch])
    return ([Answer(d.type, schema.struct(d.type).id_field if d.type in answers else None, answers.get(d.type, False))
             for d in package.dispatch],
            [Request(s, s.id_field if s.qualified in waiting else None, s.response or "",
                     [r.type for r in s.rejects if r.type in answers]) for s in package.protocol_types if s.request])


FRAME = (("frame", "bytes"), ("offset", "int32"), ("size", "int32"))
"""The parameters a frame is handed on by (name, the primitive of its type)."""


def params(c: Context, *names: tuple[str, str]) -> str:
    """A parameter list of (name, primitive or class) pairs."""
    return ", ".join(c.spell("param", name, c.TYPES[t][0] if t in c.TYPES else t) for name, t in names)


def handler(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    """The Handler interface: an onReceive per message, calling onMessage unless overridden."""
    _interface(c, w, name, "message", params(c, ("value", c.spell("object"))), lambda d: (
        f"A {d.type} (type id {d.type_id}).", "onReceive", params(c, ("value", c.named(d.type))), "onMessage(value)"))


def proxy_handler(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    """The ProxyHandler interface: a method per message's frame, calling onFrame unless overridden."""
    _interface(c, w, name, "frame", params(c, ("typeId", "int32"), *FRAME), lambda d: (
        f"A frame of {d.type} (type id {d.type_id}).", c.ident.frame_method(c.package.name, d.type),
        params(c, *FRAME), f"onFrame({c.named(d.type)}.TYPE_ID, frame, offset, size)"))


def _interface(c: Context, w: CodeWriter, name: str, what: str, every: str,
               own: Callable[[ir.Dispatch], tuple[str, str, str, str]]) -> None:
    """A handler interface of the package's messages: the method every `what` goes to unless its own
    is overridden (`on` + what, taking every), then own(d): the doc, name, parameters and body of
    each message's own method."""
    with w.block(f"{c.spell('interface', name)} {{", "}"):
        w.line(f"/** Every {what} whose own method is not overridden. */")
        with w.block(f"{c.method(f'on{what.title()}', every, '', 'default')} {{", "}"):
            pass
        for d in c.package.dispatch:
            text, method, own_params, body = own(d)
            w.blank()
            doc(w, text)
            c.returns(w, c.method(method, own_params, "", "default"), body, False)


def receiver(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    """A Receiver: each message decoded and handed to its handler."""
    read = "fromFinal" if final else "fromFbe"
    _dispatcher(c, w, name, "Handler", "messages", final, lambda d: [
        f"handler.onReceive({c.named(d.type)}.{read}(frame, offset, size, limits))"])


def proxy(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    """The Proxy: each frame verified, then handed on undecoded."""
    _dispatcher(c, w, name, "ProxyHandler", "frames", False, lambda d: [
        f"{c.named(d.type)}.verifyFbe(frame, offset, size, limits)",
        f"handler.{c.ident.frame_method(c.package.name, d.type)}(frame, offset, size)"])


def _dispatcher(c: Context, w: CodeWriter, name: str, handler: str, what: str, final: bool,
                statements: Callable[[ir.Dispatch], list[str]]) -> None:
    """A FrameReceiver of the package's messages handing them to a handler: dispatch runs the
    statements of each type id (one on the case's line, several in a block), false for any other."""
    with c.klass(w, name, [("handler", handler, f"where the {what} go")], c.rt("FrameReceiver"),
                 str(final).lower(), kept=True):
        head = c.override(w, "dispatch", params(c, ("typeId", "int32"), *FRAME, ("limits", c.rt("Limits"))),
                          c.TYPES["bool"][0], "protected")
        throws = c.throws(w, c.rt("DecodeException"))
        with w.block(f"{head}{throws} {{", "}"):
            with w.block(c.spell("switch", "typeId"), "}"):
                for d in c.package.dispatch:
                    case = c.spell("case", c.int_literal(d.type_id, "int32"))
                    lines = [c.stmt(s) for s in statements(d)]
                    if len(lines) == 1:
                        w.line(f"{case} {lines[0]}")
                        continue
                    with w.block(f"{case} {{", "}"):
                        for line in lines:
                            w.line(line)
                w.line(c.spell("otherwise", c.stmt("return false")))
            w.line(c.stmt("return true"))


def sender(c: Context, w: CodeWriter, name: str, model: str, final: bool) -> None:
    """A Sender: a send per message, writing its frame."""
    with c.klass(w, name, [("out", c.use("java.io.OutputStream"), "where the frames go")], c.rt("FrameSender"), "out"):
        for k, d in enumerate(c.package.dispatch):
            if k:
                w.blank()
            doc(w, f"Sends a {d.type}; returns the frame's size.")
            throws = c.throws(w, c.use("java.io.IOException"))
            c.returns(w, c.method("send", params(c, ("value", c.named(d.type))), c.TYPES["int32"][0]) + throws,
                      f"sendFrame(value::{'writeFinal' if final else 'writeFbe'})")


def client_answers(c: Context, w: CodeWriter, answers: list[Answer]) -> None:
    """The Client's handler's onReceive of each message its receiver gets, a blank line between: a
    response or a reject answers the pending request of its id (a global reject one of any type),
    anything else, and an answer no request waits for, goes to the notify handler."""
    for k, answer in enumerate(answers):
        if k:
            w.blank()
        head = c.override(w, "onReceive", c.spell("param", "value", c.named(answer.message)))
        if answer.id is None:
            c.returns(w, head, "notify.onReceive(value)", False)
            continue
        with w.block(f"{head} {{", "}"):
            c.if_(w, f"!requests.answer(value.{c.ident.field(answer.id)}, value, {str(answer.everyone).lower()})",
                  "notify.onReceive(value)")


def client_requests(c: Context, w: CodeWriter, requests: list[Request]) -> None:
    """The Client's `request` of each request, a blank line between: one that waits for its response
    gives a future of it, matched by its id (request(value, timeoutMillis)), one without response is
    done once sent (request(value))."""
    for k, rq in enumerate(requests):
        if k:
            w.blank()
        value = c.spell("param", "value", c.named(rq.struct.qualified))
        send = f"{c.spell('getter', 'sender')}.send(value)"
        if rq.id is None:
            doc(w, f"Sends a {rq.struct.qualified}, a request without response: done once sent.")
            throws = c.throws(w, c.use("java.io.IOException"))
            with w.block(f"{c.method('request', value)}{throws} {{", "}"):
                w.line(c.stmt(send))
            continue
        r = c.named(rq.response)
        doc(w, f"Sends a {rq.struct.qualified} and gives the {rq.response} of its id, or why there is none;",
            f"{c.spell('reference', 'timeoutMillis')} 0 waits for ever.")
        head = c.method("request", f"{value}, {c.spell('timeout', 'timeoutMillis')}",
                        f"{c.use('java.util.concurrent.CompletableFuture')}<{r}>")
        rejected = ", ".join(sorted({c.spell("class", c.named(x)) for x in rq.rejects}))
        args = [f"value.{c.ident.field(rq.id)}", c.spell("class", r), c.spell("set_of", rejected), "timeoutMillis"]
        c.returns_call(w, head, "sendRequest", args, send)


# The documentation of each class (a final twin's as its class's), one text for both languages: {package},
# {model} (the class's model), {sender} and {receiver} (a Client's) filled in.
CLASS_DOCS = {
    "Handler": ("What a Receiver of {package} delivers: an onReceive per message, its own first, then those of",
                "its imports. Each does nothing but call onMessage unless overridden; each value is new, a",
                "handler may keep it."),
    "ProxyHandler": ("What a Proxy of {package} hands on: each frame, verified but not decoded, to look at or",
                     "forward unchanged (the bytes are valid during the call). Each method calls onFrame unless",
                     "overridden."),
    "Proxy": ("Receives versioned frames of {package} (docs/format.md 7.5) and hands each one, verified but not",
              "decoded, to a ProxyHandler; see FrameReceiver for the limits and the errors."),
    "Receiver": ("Receives {model}-model frames of {package} (docs/format.md 7.4) and hands each message to a",
                 "Handler; see FrameReceiver for the limits and the errors."),
    "Sender": ("Sends messages of {package} (and its imports) as {model}-model frames (docs/format.md 7.3), one",
               "write per frame; see FrameSender."),
    "Client": ("A {sender} and a {receiver} of {package} with requests: a request per [request] message with a",
               "response; see FrameClient. Feed it the {model}-model stream."),
}


def write_protocol(schema: ir.Schema, package: ir.Package, options: Options, context: type[Context],
                   write_client: Part) -> list[GeneratedFile]:
    """The protocol's files of a package (none when it has no messages); write_client: the language's
    writer of the Client."""
    if not package.dispatch:
        return []

    def file(name: str, part: Part, final: bool = False) -> GeneratedFile:
        c, w = context(schema, package, options.package_prefix), CodeWriter(options)
        model, prefix = ("final", "Final") if final else ("versioned", "")
        lines = CLASS_DOCS[name.removeprefix(prefix)]
        doc(w, *(line.format(package=package.name, model=model, sender=f"{prefix}Sender", receiver=f"{prefix}Receiver")
                 for line in lines))
        part(c, w, name, model, final)
        return c.file(name, w, options)

    out = [file("Handler", handler), file("ProxyHandler", proxy_handler), file("Proxy", proxy)]
    for final in (False, True) if options.final else (False,):
        prefix = "Final" if final else ""
        out += [file(f"{prefix}Receiver", receiver, final), file(f"{prefix}Sender", sender, final),
                file(f"{prefix}Client", write_client, final)]
    return out
