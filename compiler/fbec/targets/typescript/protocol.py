"""`fbec --typescript --proto` (and `--javascript --proto`): the protocol of a package
(docs/format.md 7, docs/javascript.md "Protocol").

Per package with messages, on the runtime's classes (runtime/js/src/protocol.ts), which hold the
protocol's code and documentation:

* `AnyMessage`, the union of the messages the package sends and reads;
* `Handler`, an interface with an optional `on<Message>(value)` method per entry of the IR's
  dispatch table (own messages first, then the imports' as `on<Package><Message>`) and
  `onMessage(value)` for the messages without a method of their own; `ProxyHandler` the same for frames;
* `MESSAGES`, the dispatch table as an fbe.MessageTable (each class and its ProxyHandler's method), and
  `deliverTo`, a switch over it handing a message to its Handler's method (a typed call: faster than a table),
  and `REQUESTS`, an fbe.ClientTable (the requests with their response and rejects, the messages
  that answer one by id), when the package has requests or answers;
* `Sender` (an fbe.Sender of the package's messages), `Receiver` (an fbe.MessageReceiver of the table
  and Handler), `Proxy` (an fbe.MessageProxy: verified raw frames to a `ProxyHandler`, versioned only,
  as the original), `Client` (a Receiver with a Sender and fbe.Requests of the ClientTable:
  `request(value, options)` overloaded per `[request]`) and, with --final, `FinalSender`,
  `FinalReceiver`, `FinalClient`.

In JavaScript (`--javascript`) the same code without annotations, its declarations (overloads
included) in the .d.ts. A protocol name taken by a schema type of the package (a message named
`Client`) gets a trailing underscore.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from fbec.model import ir
from fbec.targets.base import CodeWriter, Message, client_answers, protocol_messages
from fbec.targets.typescript.context import Context


def capitalized(name: str) -> str:
    return name[:1].upper() + name[1:]


def write_protocol(w: CodeWriter, c: Context, d: CodeWriter | None) -> None:
    """The protocol classes of the package (nothing for a package without messages)."""
    if not c.package.dispatch:
        return
    names = c.file.declare
    # a message's methods clear of onMessage's
    send, dispatch = protocol_messages(c.schema, c.package, c.named, capitalized, capitalized, taken=("Message",))
    rt = c.rt
    pkg = c.package.name
    any_message = names("AnyMessage")
    handler, proxy_handler = names("Handler"), names("ProxyHandler")
    models = [False, True] if c.options.final else [False]
    union = list({m.struct.qualified: m for m in send + dispatch}.values())
    unit = w.unit

    def t(qualified: str) -> str:            # a schema class as a type
        return c.named(qualified, False)

    # ------------------------------------------------------------ types
    for out in (w, d) if d is not None else (w,):
        out.line("// ---------------------------------------------------------------- protocol (docs/format.md 7)")
        out.line("")
    lines = [f"/** A message of {pkg} or of its imports: what its Senders send and its Receivers read. */",
             f"export type {any_message} ="]
    lines += [f"{unit}| {t(m.struct.qualified)}" + (";" if i == len(union) - 1 else "")
              for i, m in enumerate(union)]
    lines += ["", "/**",
              f" * Gets the messages a Receiver of {pkg} reads: an optional method per message of the package",
              " * and of its imports (the dispatch table), and `onMessage` for those without their own. Each",
              " * value is new: a handler may keep it.", " */",
              f"export interface {handler} {{"]
    lines += [f"{unit}on{m.suffix}?(value: {t(m.struct.qualified)}): void;" for m in dispatch]
    lines += [f"{unit}onMessage?(value: {any_message}): void;", "}", "", "/**",
              f" * Gets the verified versioned frames a Proxy of {pkg} reads, raw, to look at or forward",
              " * unchanged: an optional method per message, and `onFrame` for those without their own. A frame",
              " * is valid during the call only (copy what you keep).", " */",
              f"export interface {proxy_handler} {{"]
    lines += [f"{unit}on{m.suffix}Frame?(frame: Uint8Array): void;" for m in dispatch]
    lines += [f"{unit}onFrame?(typeId: number, frame: Uint8Array): void;", "}", ""]
    typed = w if c.ts else d      # type-only code: in the TypeScript file, or in the .d.ts
    assert typed is not None
    for line in lines:
        if line:
            typed.line(line)
        else:
            typed.blank()

    # ------------------------------------------------------------ the runtime's tables
    messages = names("MESSAGES")
    w.line(f"/** The messages a Receiver of {pkg} reads (the dispatch table), each with its ProxyHandler's method. */")
    with w.block(f"const {messages} = new {rt('MessageTable')}{c.generic(proxy_handler)}([", "]);"):
        for m in dispatch:
            w.line(f"[{m.named}, (p) => p.on{m.suffix}Frame],")
    w.blank()
    # a typed call of each handler method: a table of them would cost a receive some 20 ns a frame
    deliver_to = names("deliverTo")
    w.line("/** Hands a decoded message to its handler method, or to onMessage. */")
    with w.block(c.method("function ", deliver_to, [("h", handler), ("typeId", "number"), ("value", "unknown")], "void",
                          []), "}"), w.block("switch (typeId) {", "}"):
        for m in dispatch:
            w.label(f"case {m.struct.type_id}:")
            with w.if_else(f"if (h.on{m.suffix} !== undefined) {{", f"h.on{m.suffix}({c.cast('value', m.named)});"):
                w.line(f"h.onMessage?.({c.cast('value', m.named)});")
            w.line("break;")
    w.blank()
    requests = _client_table(w, c, names, send, dispatch)

    # ------------------------------------------------------------ senders, receivers, proxy (versioned only)
    def classes(plain: str, base: str, argument: str, doc: str,
                kinds: list[bool] = models) -> Iterator[tuple[bool, str]]:
        """The class of each model of kinds (`Sender`, `FinalSender`) on the runtime's `base`<argument>,
        documented by doc (its {kind}: versioned or final)."""
        for fin in kinds:
            name = names(("Final" if fin else "") + plain)
            comment = [f"/** {doc.format(kind='final' if fin else 'versioned')} */"]
            with c.klass(w, d, comment, name, rt(base) + c.generic(argument), f"{rt(base, False)}<{argument}>"):
                yield fin, name

    send_type = " | ".join(t(m.struct.qualified) for m in send) if len(send) < len(union) else any_message
    senders: dict[bool, str] = {}
    for fin, sender in classes("Sender", "Sender", send_type, f"Writes messages of {pkg} and its imports as "
                               "{kind} frames (fbe.Sender, docs/format.md 7.3)."):
        senders[fin] = sender
        with w.block(c.constructor([("transport", rt("Transport", False), "")]), "}"):
            w.line(f"super(transport, {str(fin).lower()});")
    limits = ("limits", rt("Limits", False), "")
    receivers: dict[bool, str] = {}
    for fin, receiver in classes("Receiver", "MessageReceiver", handler, f"Reads {{kind}} frames of {pkg}, each "
                                 "message to `handler` (fbe.MessageReceiver, docs/format.md 7.4)."):
        receivers[fin] = receiver
        with w.block(c.constructor([("handler", handler, "{}"), limits]), "}"):
            w.line(f"super({messages}, {deliver_to}, {str(fin).lower()}, handler, limits);")
    for _ in classes("Proxy", "MessageProxy", proxy_handler, f"Hands verified {{kind}} frames of {pkg} to "
                     "`handler` (fbe.MessageProxy, docs/format.md 7.5).", [False]):
        with w.block(c.constructor([("handler", proxy_handler, "{}"), limits]), "}"):
            w.line(f"super({messages}, handler, limits);")

    # ------------------------------------------------------------ clients
    for fin in models:
        client, sender, receiver = names("FinalClient" if fin else "Client"), senders[fin], receivers[fin]
        with c.klass(w, d, ["/**",
                      f" * A {receiver} of {pkg} with a {sender} and requests (fbe.Requests, docs/format.md 7.6):",
                      " * `request(value, options)` sends a [request] message and returns a Promise of its response;",
                      " * every message that answers no request goes to `handler`.",
                      " */"], client, receiver):
            c.field(w, f"readonly sender: {sender};")
            c.field(w, f"readonly requests: {rt('Requests', False)};")
            if c.ts:
                w.blank()
            with w.block(c.constructor([("transport", rt("Transport", False), ""), ("handler", handler, "{}"),
                                        limits]), "}"):
                w.line("super(handler, limits);")
                w.line(f"this.sender = new {sender}(transport);")
                w.line(f"this.requests = new {rt('Requests')}({requests});")
            with c.member(w, "/** Fails every pending request (an fbe.RequestError of failure \"reset\") and forgets a "
                          "partial frame. */", "override ", "reset", [], "void"):
                w.line("this.requests.reset();")
                w.line("super.reset();")
            if requests:
                params = [("typeId", "number"), ("value", "unknown")]
                with (c.member(w, "", "protected override ", "deliver", params, "void"),
                      w.block("if (!this.requests.answered(typeId, value)) {", "}")):
                    w.line("super.deliver(typeId, value);")
            _request(w, c, send, dispatch)


def _client_table(w: CodeWriter, c: Context, names: Callable[[str], str], send: list[Message],
                  dispatch: list[Message]) -> str:
    """The package's fbe.ClientTable (its requests, the messages answering one): its name, or "" for none."""
    waiting, answers = client_answers(send, dispatch)
    requests = _requests(c, send)
    if not requests and not answers:
        return ""
    by_name = {m.struct.qualified: m for m in send + dispatch}
    table = names("REQUESTS")
    w.line(f"/** The requests a Client of {c.package.name} sends (a derived one first) and the messages answering one "
           "by id. */")
    with w.block(f"const {table} = new {c.rt('ClientTable')}(\"{c.package.name}\", [", "]);"):
        for m in requests:
            s = m.struct
            parts = [f"type: {m.named}", f'name: "{s.qualified}"']
            if s.id_field is not None:
                parts.append(f'id: "{c.ident.field(s.id_field)}"')
            if s.qualified in waiting:
                rejects = [by_name[r.type].named for r in s.rejects if r.type in by_name]
                parts += [f"response: {by_name[s.response or ''].named}", f"rejects: [{', '.join(rejects)}]"]
            w.line(f"{{ {', '.join(parts)} }},")
        w.label("], [")
        for m in dispatch:
            if m.struct.id_field is not None and m.struct.qualified in answers:
                glob = ", global: true" if answers[m.struct.qualified] else ""
                w.line(f'{{ type: {m.named}, id: "{c.ident.field(m.struct.id_field)}"{glob} }},')
    w.blank()
    return table


def _requests(c: Context, send: list[Message]) -> list[Message]:
    """The [request] messages a Client sends, a derived request before its base (the first it is an instance of)."""
    def depth(s: ir.Struct) -> int:
        return 0 if s.base is None else 1 + depth(c.schema.struct(s.base))
    return sorted((m for m in send if m.struct.request), key=lambda m: -depth(m.struct))


def _request(w: CodeWriter, c: Context, send: list[Message], dispatch: list[Message]) -> None:
    """The Client's `request`, overloaded per [request] message (none without requests)."""
    requests = _requests(c, send)
    if not requests:
        return
    waiting = client_answers(send, dispatch)[0]
    options = c.rt("RequestOptions", False)
    w.blank()
    w.lines("/**\n * Sends a request. One with a response resolves to it (rejected on a reject, a timeout, an\n"
            " * abort, reset()); one without is done once sent.\n */")
    overloads = []
    for m in requests:
        s = m.struct
        result = f"Promise<{c.named(s.response or '', False)}>" if s.qualified in waiting else "Promise<void>"
        overloads.append(f"request(value: {c.named(s.qualified, False)}, options?: {options}): {result};")
    if c.ts:
        w.lines("\n".join(overloads))
        union = " | ".join(c.named(m.struct.qualified, False) for m in requests)
        opening = f"request(value: {union}, options?: {options}): Promise<unknown> {{"
    else:
        c.declarations.extend(overloads)
        opening = "request(value, options) {"
    with w.block(opening, "}"):
        w.line("return this.requests.send(value, () => this.sender.send(value), options);")
