"""`fbec --rust --proto`: the protocol of a package (docs/format.md 7, docs/rust.md "Protocol"), on the
runtime's `fbe::protocol`.

Per package with a dispatch table: `Message`, an enum with a variant per entry of the IR's dispatch
table (own messages first, then the imports', those named after their package) implementing
`fbe::Protocol` (a match over the type ids) and the text form; `Handler`, a trait with an
`on_<message>` method per variant and `handle`, which hands a receiver's event to them;
`fbe::Member<Message>` for every message the package and its imports send and `fbe::Request<Message>`
for each `[request]` with a `[response]` (its id, which messages answer it); and the runtime's
generic Sender, Receiver, Proxy and Client of `Message` under their names (`Sender<W>`,
`FinalSender<W>`, ...). A name taken by a type of the package gets a trailing underscore.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.targets.base import CodeWriter, import_closure
from fbec.targets.rust.names import camel, snake

if TYPE_CHECKING:
    from fbec.targets.rust import Context

WIDTH = 100   # rustfmt's max_width
ALIASES = [   # the runtime's generic protocol types of the package's Message: name, parameters, type, doc
    ("Sender", "<W>", "fbe::Sender<{m}, W>", "Writes each message as a versioned frame to `W` (docs/format.md 7.3)."),
    ("FinalSender", "<W>", "fbe::Sender<{m}, W, true>", "Writes each message as a final frame to `W`."),
    ("Receiver", "", "fbe::Receiver<{m}>", "Reads versioned frames fed in chunks of any size (docs/format.md 7.4)."),
    ("FinalReceiver", "", "fbe::Receiver<{m}, true>", "Reads final frames fed in chunks of any size."),
    ("Proxy", "", "fbe::Proxy<{m}>", "Verifies versioned frames and hands them on raw (docs/format.md 7.5)."),
    ("Client", "<S>", "fbe::Client<{m}, S>", "Sends requests and waits for their answers on `S` (docs/format.md 7.6)."),
    ("FinalClient", "<S>", "fbe::Client<{m}, S, true>", "A `Client` of final frames."),
]


def arm(w: CodeWriter, pattern: str, body: str) -> None:
    """A match arm as rustfmt writes it: on one line, or its body in a block when that is too long."""
    if len(w.unit) * w.depth + len(f"{pattern} => {body},") <= WIDTH:
        w.line(f"{pattern} => {body},")
    else:
        with w.block(f"{pattern} => {{", "}"):
            w.line(body)


def signature(w: CodeWriter, head: str, params: list[str], tail: str) -> str:
    """`fn head(params) tail {` on one line, or one parameter a line as rustfmt breaks it."""
    line = f"{head}({', '.join(params)}){tail} {{"
    if len(w.unit) * w.depth + len(line) <= WIDTH:
        return line
    w.line(f"{head}(")
    with w.indented():
        for p in params:
            w.line(f"{p},")
    return f"){tail} {{"


def write_protocol(w: CodeWriter, c: Context) -> None:
    package = c.package
    if not package.dispatch:
        return
    taken = {c.ident.type(s.qualified) for s in package.structs} | {c.ident.type(e.qualified)
                                                                     for e in package.enums + package.flags}

    def name(n: str) -> str:
        while n in taken:
            n += "_"
        return n

    message, handler = name("Message"), name("Handler")
    own = package.name
    variants: dict[str, str] = {}
    for p in import_closure(c.schema, package):
        for s in p.protocol_types:
            v = c.ident.type(s.qualified)
            if p.name != own:
                v = camel(c.ident.module(p.name)) + v
            while v in variants.values():
                v += "_"
            variants[s.qualified] = v
    dispatch = [(d.type_id, c.schema.struct(d.type)) for d in package.dispatch]
    for _, s in dispatch:
        variants.setdefault(s.qualified, c.ident.type(s.qualified))
    methods: dict[str, str] = {}
    for _, s in dispatch:
        m = "on_" + snake(variants[s.qualified])
        while m in methods.values() or m in ("on_error", "handle"):
            m += "_"
        methods[s.qualified] = m
    received = {s.qualified for _, s in dispatch}
    read_frame = c.file.imported("fbe", "read_frame")
    verify_frame = c.file.imported("fbe", "verify_frame")

    w.line(f"/// The messages a receiver of `{own}` reads (docs/format.md 7.4): the package's own, then its imports'.")
    w.line("#[derive(Clone, Debug, PartialEq)]")
    # Each message is handed on at once (no box per message), and a variant is named as the schema
    # names its message, which often ends as the enum's name does (OrderMessage).
    w.line("#[allow(clippy::large_enum_variant, clippy::enum_variant_names)]")
    with w.block(f"pub enum {message} {{", "}"):
        for type_id, s in dispatch:
            w.line(f"/// `{s.qualified}` (type id {type_id}).")
            w.line(f"{variants[s.qualified]}({c.named(s.qualified)}),")
    w.blank()
    with w.block(f"impl fbe::Protocol for {message} {{", "}"):
        params = ["type_id: u32", "frame: &[u8]", "is_final: bool", "limits: &fbe::Limits"]
        w.line(signature(w, "fn read", params, " -> Result<Option<Self>, fbe::DecodeError>"))
        with w.indented(), w.block("Ok(Some(match type_id {", "}))"):
            for type_id, s in dispatch:
                arm(w, str(type_id), f"Self::{variants[s.qualified]}({read_frame}(frame, is_final, limits)?)")
            w.line("_ => return Ok(None),")
        w.line("}")
        w.blank()
        w.line(signature(w, "fn verify", params, " -> Result<bool, fbe::DecodeError>"))
        with w.indented():
            with w.block("match type_id {", "}"):
                for type_id, s in dispatch:
                    arm(w, str(type_id), f"{verify_frame}::<{c.named(s.qualified)}>(frame, is_final, limits)?")
                w.line("_ => return Ok(false),")
            w.line("Ok(true)")
        w.line("}")
        w.blank()
        with w.block("fn name(&self) -> &'static str {", "}"), w.block("match self {", "}"):
            for _, s in dispatch:
                arm(w, f"Self::{variants[s.qualified]}(_)", f'"{s.qualified}"')
        answering = [s for _, s in dispatch if s.id_field is not None]
        if answering:
            w.blank()
            with w.block("fn id(&self) -> Option<fbe::Uuid> {", "}"), w.block("match self {", "}"):
                for s in answering:
                    field = c.ident.field(s.qualified, "id")
                    arm(w, f"Self::{variants[s.qualified]}(v)", f"Some(v.{field})")
                if len(answering) < len(dispatch):
                    w.line("_ => None,")
    w.blank()
    with w.block(f"impl fbe::text::Text for {message} {{", "}"), \
            w.block("fn text(&self, t: &mut fbe::text::TextWriter) {", "}"), w.block("match self {", "}"):
        for _, s in dispatch:
            arm(w, f"Self::{variants[s.qualified]}(v)", "fbe::text::Text::text(v, t)")
    w.blank()

    w.line(f"/// Gets the messages a receiver of `{own}` reads: one method per message, which ignores it unless")
    w.line("/// implemented; `handle` hands a receiver's event to them:")
    w.line("/// `receiver.receive(&bytes, |event| handler.handle(event))`.")
    with w.block(f"pub trait {handler} {{", "}"):
        for _, s in dispatch:
            w.line(f"/// A `{s.qualified}`.")
            with w.block(f"fn {methods[s.qualified]}(&mut self, v: {c.named(s.qualified)}) {{", "}"):
                w.line("let _ = v;")
            w.blank()
        w.line("/// A frame the receiver refused and skipped, or the error that lost the stream.")
        with w.block("fn on_error(&mut self, e: fbe::FrameError) {", "}"):
            w.line("let _ = e;")
        w.blank()
        w.line("/// Calls the method of the event's message, or `on_error`.")
        with w.block(f"fn handle(&mut self, event: Result<{message}, fbe::FrameError>) {{", "}"), \
                w.block("match event {", "}"):
            for _, s in dispatch:
                arm(w, f"Ok({message}::{variants[s.qualified]}(v))", f"self.{methods[s.qualified]}(v)")
            w.line("Err(e) => self.on_error(e),")
    w.blank()

    for alias, generics, target, doc in ALIASES:
        w.line(f"/// {doc}")
        w.line(f"pub type {name(alias)}{generics} = {target.format(m=message)};")
    w.blank()

    sendable = [s for p in import_closure(c.schema, package) for s in p.protocol_types]
    for s in sendable:
        w.line(f"impl fbe::Member<{message}> for {c.named(s.qualified)} {{}}")
    w.blank()
    global_rejects = [r.type for s in sendable if s.request for r in s.rejects if r.global_ and r.type in received]
    for s in sendable:
        if not s.request or s.response not in received or s.id_field is None:
            continue
        response = c.schema.struct(s.response or "")
        rejects = [r.type for r in s.rejects if r.type in received]
        rejects += [r for r in dict.fromkeys(global_rejects) if r not in rejects]
        w.line(f"/// `{s.qualified}` is answered by a `{s.response}`"
               + (f", refused by a {', '.join(f'`{r}`' for r in rejects)}." if rejects else "."))
        with w.block(f"impl fbe::Request<{message}> for {c.named(s.qualified)} {{", "}"):
            w.line(f"type Response = {c.named(response.qualified)};")
            w.blank()
            with w.block("fn request_id(&self) -> fbe::Uuid {", "}"):
                w.line(f"self.{c.ident.field(s.qualified, 'id')}")
            w.blank()
            with w.block(f"fn answer(m: &{message}) -> fbe::Answer {{", "}"), w.block("match m {", "}"):
                arm(w, f"{message}::{variants[response.qualified]}(_)", "fbe::Answer::Response")
                for r in rejects:
                    arm(w, f"{message}::{variants[r]}(_)", "fbe::Answer::Reject")
                if len(rejects) + 1 < len(dispatch):
                    w.line("_ => fbe::Answer::Other,")
            w.blank()
            w.line(signature(w, "fn response", [f"m: {message}"], " -> Option<Self::Response>"))
            with w.indented(), w.block("match m {", "}"):
                arm(w, f"{message}::{variants[response.qualified]}(v)", "Some(v)")
                if len(dispatch) > 1:
                    w.line("_ => None,")
            w.line("}")
        w.blank()
