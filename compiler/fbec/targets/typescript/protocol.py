"""`fbec --typescript --proto` (and `--javascript --proto`): the protocol of a package
(docs/format.md 7, docs/javascript.md "Protocol").

Per package with messages, on the runtime's fbe.Sender, fbe.FrameReceiver and fbe.Requests:

* `AnyMessage`, the union of the messages the package sends and reads;
* `Handler`, an interface with an optional `on<Message>(value)` method per entry of the IR's
  dispatch table (own messages first, then the imports' as `on<Package><Message>`) and
  `onMessage(value)` for the messages without a method of their own;
* `Sender` (`send(value)`), `Receiver` (`receive(chunk)`: a switch over the dispatch table decodes
  each frame, another hands it to the Handler), `Proxy` (verified raw frames to a `ProxyHandler`,
  versioned only, as the original), `Client` (a Receiver with a Sender: `request(value, options)`
  per `[request]` returns a Promise of its response, rejected on a reject, a timeout, an
  AbortSignal or reset(); other messages go to the handler) and, with --final, `FinalSender`,
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


def _depth(c: Context, s: ir.Struct) -> int:
    return 0 if s.base is None else 1 + _depth(c, c.schema.struct(s.base))


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
    decode_fbe, decode_final, deliver_to = names("decodeFbe"), names("decodeFinal"), names("deliverTo")
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

    # ------------------------------------------------------------ decode and deliver (module functions)
    for fin in models:
        fn = decode_final if fin else decode_fbe
        read = "fromFinal" if fin else "fromFbe"
        w.line(f"/** Reads a whole {'final' if fin else 'versioned'} frame's message "
               "(fbe.UNKNOWN_TYPE: no message has typeId). */")
        def decoded(m: Message, read: str = read) -> None:
            w.line(f"return {m.named}.{read}(frame, limits);")
        params = [("typeId", "number"), ("frame", "Uint8Array"), ("limits", rt("Limits", False))]
        with w.block(c.method("function ", fn, params, "unknown", []), "}"):
            _switch(w, dispatch, decoded, f"return {rt('UNKNOWN_TYPE')};")
        w.blank()
    w.line("/** Hands a decoded message to its handler method, or to onMessage. */")
    with w.block(c.method("function ", deliver_to, [("h", handler), ("typeId", "number"), ("value", "unknown")], "void",
                          []), "}"):
        _switch(w, dispatch, lambda m: _deliver(w, f"on{m.suffix}", c.cast("value", m.named), "onMessage"))
    w.blank()

    # ------------------------------------------------------------ senders
    def classes(plain: str, base: str, doc: Callable[[str], list[str]]) -> Iterator[tuple[bool, str]]:
        """The class of each model (`Sender`, `FinalSender`) on the runtime's `base`, documented by doc(kind)."""
        for fin in models:
            name = names(("Final" if fin else "") + plain)
            with c.klass(w, d, ["/**", *doc("final" if fin else "versioned"), " */"], name, rt(base), rt(base, False)):
                yield fin, name

    send_type = " | ".join(t(m.struct.qualified) for m in send) if len(send) < len(union) else any_message
    for fin, _ in classes("Sender", "Sender", lambda kind: [
            f" * Writes messages of {pkg} and its imports as {kind} frames (docs/format.md 7.3): each frame",
            " * to the transport (a function, or anything with write(): a node:net Socket), or queued in",
            " * buffered() when there is none. The serialization buffer is reused."]):
        with w.block(c.constructor([("transport", rt("Transport", False), "")]), "}"):
            w.line(f"super(transport, {str(fin).lower()});")
        with c.member(w, "/** Sends `value` as one frame; returns the frame's size. An EncodeError sends nothing. */",
                      "", "send", [("value", send_type)], "number"):
            w.line("return this.sendValue(value);")

    # ------------------------------------------------------------ receivers
    def handled(handler_type: str, final: bool) -> str:
        """A FrameReceiver's handler and its constructor; the head of its decode method."""
        c.field(w, f"handler: {handler_type};")
        if c.ts:
            w.blank()
        with w.block(c.constructor([("handler", handler_type, "{}"), ("limits", rt("Limits", False), "")]), "}"):
            w.line(f"super({str(final).lower()}, limits);")
            w.line("this.handler = handler;")
        w.blank()
        return c.method("protected override ", "decode",
                        [("typeId", "number"), ("frame", "Uint8Array"), ("limits", rt("Limits", False))], "unknown")

    receivers: dict[bool, str] = {}
    for fin, receiver in classes("Receiver", "FrameReceiver", lambda kind: [
            f" * Reads {kind} frames of {pkg} fed in chunks of any size (`receive`) and hands each message",
            " * to `handler` (docs/format.md 7.4). A bad frame is an fbe.FrameError: see fbe.FrameReceiver",
            " * for `limits` (frame size, decode limits) and `onError`."]):
        receivers[fin] = receiver
        with w.block(handled(handler, fin), "}"):
            w.line(f"return {decode_final if fin else decode_fbe}(typeId, frame, limits);")
        with c.member(w, "", "protected override ", "deliver", [("typeId", "number"), ("value", "unknown")], "void"):
            w.line(f"{deliver_to}(this.handler, typeId, value);")

    # ------------------------------------------------------------ proxy (versioned, as the original)
    proxy = names("Proxy")
    with c.klass(w, d, ["/**",
                  f" * Dispatches versioned frames of {pkg} like a Receiver but hands the verified frame, not a",
                  " * decoded value, to `handler` (docs/format.md 7.5): to look at or forward unchanged.",
                  " */"], proxy, rt("FrameReceiver"), rt("FrameReceiver", False)):
        with w.block(handled(proxy_handler, False), "}"):
            w.line(f"let error{c.annot(rt('DecodeError', False) + ' | undefined')};")
            _switch(w, dispatch, lambda m: w.lines(f"error = {m.named}.verifyFbe(frame, limits);\nbreak;"),
                    f"return {rt('UNKNOWN_TYPE')};")
            with w.block("if (error !== undefined) {", "}"):
                w.line("throw error;")
            w.line("return frame;")
        with c.member(w, "", "protected override ", "deliver",
                      [("typeId", "number"), ("_value", "unknown"), ("frame", "Uint8Array")], "void"):
            w.line("const h = this.handler;")
            _switch(w, dispatch, lambda m: _deliver(w, f"on{m.suffix}Frame", "frame", "onFrame", "typeId, "))

    # ------------------------------------------------------------ clients
    _clients(w, c, d, names, send, dispatch, models, receivers)


def _switch(w: CodeWriter, messages: list[Message], case: Callable[[Message], None], default: str = "") -> None:
    """`switch (typeId)`: a case per message (its type id), whose lines case(message) writes, and a
    default of one line when given."""
    with w.block("switch (typeId) {", "}"):
        for m in messages:
            w.label(f"case {m.struct.type_id}:")
            case(m)
        if default:
            w.label("default:")
            w.line(default)


def _deliver(w: CodeWriter, method: str, value: str, fallback: str, first: str = "") -> None:
    """A case handing value to the handler `h`'s method when it has one, else to its method fallback
    (first: the arguments before value)."""
    with w.if_else(f"if (h.{method} !== undefined) {{", f"h.{method}({value});"):
        w.line(f"h.{fallback}?.({first}{value});")
    w.line("break;")


def _clients(w: CodeWriter, c: Context, d: CodeWriter | None, names: Callable[[str], str], send: list[Message],
             dispatch: list[Message], models: list[bool], receivers: dict[bool, str]) -> None:
    rt = c.rt
    pkg = c.package.name
    by_name = {m.struct.qualified: m for m in send + dispatch}
    requests = [m for m in send if m.struct.request]
    requests.sort(key=lambda m: -_depth(c, m.struct))    # a derived request is tested before its base
    waiting, answers = client_answers(send, dispatch)
    answering = [m for m in dispatch if m.struct.qualified in answers]

    def t(qualified: str) -> str:
        return c.named(qualified, False)

    matchers: dict[str, str] = {}
    for m in requests:
        if m.struct.qualified not in waiting:
            continue
        fn = matchers[m.struct.qualified] = names("answers" + m.suffix)
        response = by_name[m.struct.response or ""]
        w.line(f"/** Which messages answer a {m.struct.qualified}: its response and its rejects. */")
        with w.block(c.method("function ", fn, [("m", "unknown")], rt("Answer", False), []), "}"):
            with w.block(f"if (m instanceof {response.named}) {{", "}"):
                w.line(f"return {rt('Answer')}.Response;")
            types = [by_name[r.type].named for r in m.struct.rejects if r.type in by_name]
            if types:
                with w.block(f"if ({' || '.join(f'm instanceof {x}' for x in types)}) {{", "}"):
                    w.line(f"return {rt('Answer')}.Reject;")
            w.line(f"return {rt('Answer')}.None;")
        w.blank()

    options = rt("RequestOptions", False)
    for fin in models:
        client = names("FinalClient" if fin else "Client")
        sender = names("FinalSender" if fin else "Sender")
        receiver = receivers[fin]
        kind = "final" if fin else "versioned"
        with c.klass(w, d, ["/**",
                      f" * A {receiver} of {pkg} with a {sender} and requests (docs/format.md 7.6): `request(value,",
                      " * options)` sends a [request] message and returns a Promise of the response of its id,",
                      " * rejected with an fbe.RejectError on one of its rejects and an fbe.RequestError on its",
                      " * timeout (milliseconds), its AbortSignal or reset(). Feed it what the peer sends",
                      (" * (`receive`); every message that answers no request goes to `handler`. "
                       f"{kind.capitalize()} frames."),
                      " */"], client, receiver):
            c.field(w, f"readonly sender: {sender};")
            c.field(w, f"readonly requests: {rt('Requests', False)};")
            if c.ts:
                w.blank()
            with w.block(c.constructor([("transport", rt("Transport", False), ""), ("handler", names("Handler"), "{}"),
                                        ("limits", rt("Limits", False), "")]), "}"):
                w.line("super(handler, limits);")
                w.line(f"this.sender = new {sender}(transport);")
                w.line(f"this.requests = new {rt('Requests')}();")
            with c.member(w, "/** Fails every pending request (an fbe.RequestError of failure \"reset\") and forgets a "
                          "partial frame. */", "override ", "reset", [], "void"):
                w.line("this.requests.reset();")
                w.line("super.reset();")
            if answering:
                with c.member(w, "", "protected override ", "deliver", [("typeId", "number"), ("value", "unknown")],
                              "void"):
                    def answer(m: Message) -> None:
                        f = m.struct.id_field
                        assert f is not None
                        value = f"({c.cast('value', m.named)})" if c.ts else "value"
                        glob = str(answers[m.struct.qualified]).lower()
                        with w.block(f"if (this.requests.answer({value}.{c.ident.field(f)}, value, {glob})) {{", "}"):
                            w.line("return;")
                        w.line("break;")
                    _switch(w, answering, answer)
                    w.line("super.deliver(typeId, value);")
            if requests:
                w.blank()
                w.line("/**")
                w.line(" * Sends a request. One with a response resolves to it (rejected on a reject, a timeout, an")
                w.line(" * abort, reset()); one without is done once sent.")
                w.line(" */")
                overloads = []
                for m in requests:
                    result = (f"Promise<{t(m.struct.response or '')}>" if m.struct.qualified in waiting
                              else "Promise<void>")
                    overloads.append(f"request(value: {t(m.struct.qualified)}, options?: {options}): {result};")
                if c.ts:
                    for line in overloads:
                        w.line(line)
                    union = " | ".join(t(m.struct.qualified) for m in requests)
                    opening = f"request(value: {union}, options?: {options}): Promise<unknown> {{"
                else:
                    c.declarations.extend(overloads)
                    opening = "request(value, options) {"
                with w.block(opening, "}"):
                    for m in requests:
                        q = m.struct.qualified
                        f = m.struct.id_field
                        ident = f"value.{c.ident.field(f)}" if f is not None else '""'
                        match = matchers.get(q, "undefined")
                        with w.block(f"if (value instanceof {m.named}) {{", "}"):
                            w.line(f'return this.requests.request("{q}", {ident}, {match}, '
                                   "() => this.sender.send(value), options);")
                    w.line(f'return Promise.reject(new TypeError("not a request message of {pkg}"));')
