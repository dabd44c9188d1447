"""`fbec --go --proto`: the protocol of a package (docs/format.md 7, docs/go.md "Protocol").

Per package, on the runtime's fbe.Sender, fbe.Receiver and fbe.Requests:

* `Handler`, an interface with an `On<Message>(*Message)` method per entry of
  the IR's dispatch table (own messages first, then the imports' as
  `On<Package><Message>`), with `BaseHandler` (no-op methods to embed) and
  `HandlerFunc` (one function gets every message, as http.HandlerFunc);
* `Sender` (`Send<Message>` per message of the package and of its imports),
  `Receiver` (`Receive`, io.Writer's `Write`, io.ReaderFrom's `ReadFrom`;
  a switch over the dispatch table decodes each frame and calls the
  Handler), `Proxy` (verified raw frames to a `ProxyHandler`, versioned
  only), `Client` (a Sender and a Receiver; `Request<Message>(ctx, v)` per
  `[request]` waits for its response, fails on a reject or when ctx ends;
  other messages go to `Notify`) and, with --final, `FinalSender`,
  `FinalReceiver`, `FinalClient`.

A protocol name taken by a schema type of the package (a message named
`Client`) gets a trailing underscore.
"""

from __future__ import annotations

from collections.abc import Callable

from fbec.targets.base import CodeWriter, Message, client_answers, protocol_messages
from fbec.targets.go.context import Context, braced, decl, declared, leave, one_line
from fbec.targets.go.names import exported, package_name

# Each model: the prefix of its protocol types' names, its name in doc comments, the suffix of its struct
# roots (AppendFBE, ReadFinal).
MODELS = [("", "versioned", "FBE"), ("Final", "final", "Final")]


def id_of(c: Context, m: Message) -> str:
    f = m.struct.id_field
    assert f is not None
    return c.ident.field(f)


def write_protocol(w: CodeWriter, c: Context, final: bool) -> None:
    if not c.package.dispatch:
        return
    names = c.file.declare
    send, dispatch = protocol_messages(c.schema, c.package, c.named, exported, lambda p: exported(package_name(p)))
    fbe = c.rt
    pkg = c.package.name
    handler, base_handler, handler_func = names("Handler"), names("BaseHandler"), names("HandlerFunc")

    # ------------------------------------------------------------ handlers
    _handler(w, f"// {handler} gets the messages a {names('Receiver')} of {pkg} reads: one method per message of the\n"
             "// package and of its imports. Each value is new; the handler may keep it.\n"
             f"// Embed {base_handler} to implement only some methods, or use {handler_func}.", handler,
             base_handler, "message", "define the methods you need", dispatch, "", lambda m: ("v", f"*{m.named}"))
    one_line(w, f"// {handler_func} is a {handler} that hands every message to one function (a type switch tells them\n"
             "// apart), as http.HandlerFunc.", f"type {handler_func} func(v any)")
    for m in dispatch:
        one_line(w, f"// On{m.suffix} calls f(v).", f"func (f {handler_func}) On{m.suffix}(v *{m.named}) {{ f(v) }}")

    # ------------------------------------------------------------ senders
    models = MODELS if final else MODELS[:1]
    for prefix, kind, suffix in models:
        sender = names(prefix + "Sender")
        declared(w, [f"// {sender} writes the messages of {pkg} and its imports as {kind} frames",
                     "// (docs/format.md 7.3): each to Out in one Write, or queued in Buffered when Out is nil.",
                     "// Safe for concurrent use."], f"type {sender} struct {{", fbe("Sender"))
        declared(w, f"// New{sender} is a {sender} writing its frames to out.",
                 f"func New{sender}(out {c.file.qualified('io', 'Writer')}) *{sender} {{",
                 f"return &{sender}{{{fbe('Sender')}{{Out: out}}}}")
        for m in send:
            declared(w, f"// Send{m.suffix} sends v as a {kind} frame; it returns the frame's size.",
                     f"func (s *{sender}) Send{m.suffix}(v *{m.named}) (int, error) {{",
                     f"return s.Sender.SendFrame(v.Append{suffix})")

    # ------------------------------------------------------------ receivers
    for prefix, kind, suffix in models:
        receiver = names(prefix + "Receiver")
        doc = (f"// {receiver} reads {kind} frames of {pkg} fed in chunks of any size and hands each message to\n"
               "// Handler (docs/format.md 7.4). A bad frame is a *fbe.FrameError: see fbe.Receiver for Limits\n"
               "// (frame size, decode limits) and OnError. Not safe for concurrent use.")
        _receiver(w, c, receiver, "r", handler, bool(prefix), doc, "messages",
                  "decodes one whole frame and hands the message to r.Handler", dispatch,
                  _decoding("Read" + suffix))

    # ------------------------------------------------------------ proxy (versioned, as the original)
    proxy, proxy_handler, base_proxy = names("Proxy"), names("ProxyHandler"), names("BaseProxyHandler")
    _handler(w, (f"// {proxy_handler} gets the verified versioned frames a {proxy} of {pkg} dispatches, raw: "
                 "to look at\n// or forward unchanged. A frame is valid during the call only (copy what you keep)."),
             proxy_handler,
             base_proxy, "frame", "", dispatch, "Frame", lambda m: ("frame", "[]byte"))
    doc = (f"// {proxy} dispatches versioned frames of {pkg} like a {names('Receiver')} but hands the verified frame,\n"
           "// not a decoded value, to Handler (docs/format.md 7.5).")
    _receiver(w, c, proxy, "x", proxy_handler, False, doc, "frames",
              "verifies one whole frame and hands it to x.Handler", dispatch,
              lambda m: ("", c.qualify(m.struct.qualified, c.ident.function("VerifyFBE", m.struct.qualified))
                         + "(frame, lim)", f"On{m.suffix}Frame(frame)"))

    # ------------------------------------------------------------ clients
    _clients(w, c, names, send, dispatch, models, handler)


def _decoding(read: str) -> Callable[[Message], tuple[str, str, str]]:
    """A Receiver's case (see _receiver): a new value, the read method read into it, the handler's call."""
    return lambda m: (f"v := new({m.named})", f"v.{read}(frame, lim)", f"On{m.suffix}(v)")


def _handler(w: CodeWriter, doc: str, name: str, base: str, what: str, base_doc: str, dispatch: list[Message],
             suffix: str, param: Callable[[Message], tuple[str, str]]) -> None:
    """A Handler or ProxyHandler interface (a method On<Message><suffix>(param) per message type) and
    its Base, whose methods ignore what they get."""
    declared(w, doc, f"type {name} interface {{", *[f"On{m.suffix}{suffix}({' '.join(param(m))})" for m in dispatch])
    one_line(w, f"// {base} ignores every {what}: embed it in a {name}{' and ' + base_doc if base_doc else ''}.",
             f"type {base} struct{{}}")
    for m in dispatch:
        one_line(w, f"// On{m.suffix}{suffix} ignores a {m.struct.qualified}{'' if what == 'message' else ' ' + what}.",
                 f"func ({base}) On{m.suffix}{suffix}({param(m)[1]}) {{}}")


def _receiver(w: CodeWriter, c: Context, name: str, r: str, handler: str, final: bool, doc: str, what: str,
              dispatching: str, dispatch: list[Message], case: Callable[[Message], tuple[str, str, str]]) -> None:
    """A Receiver or Proxy: the type over fbe.Receiver and its Handler, its constructor, its feeding
    methods and DispatchFrame, whose case of a message type runs case(message)'s (setup, call, handled):
    setup, then call, whose error it returns, then the Handler's method handled."""
    declared(w, doc, f"type {name} struct {{", c.rt("Receiver"), f"Handler {handler}")
    declared(w, f"// New{name} is a {name} handing the {what} to h.", f"func New{name}(h {handler}) *{name} {{",
             f"return &{name}{{Handler: h}}")
    _feeding(w, c, name, r, final)
    with decl(w, f"// DispatchFrame {dispatching} (Receive calls it).",
              f"func ({r} *{name}) DispatchFrame(typeID uint32, frame []byte, lim *{c.rt('Limits')}) (bool, error) {{"):
        with w.block("switch typeID {", "}"):
            for m in dispatch:
                w.label(f"case {m.struct.type_id}:")
                setup, call, handled = case(m)
                w.lines(setup)
                braced(w, f"if err := {call}; err != nil {{", "return true, err")
                braced(w, f"if {r}.Handler != nil {{", f"{r}.Handler.{handled}")
            w.label("default:")
            w.line("return false, nil")
        w.line("return true, nil")


def _feeding(w: CodeWriter, c: Context, name: str, r: str, final: bool) -> None:
    """Receive, Write (io.Writer) and ReadFrom (io.ReaderFrom) of a Receiver or Proxy."""
    fin = "true" if final else "false"
    declared(w, ["// Receive feeds a chunk of the stream (any size); each frame it completes is dispatched. Its error",
                 "// is a bad frame's (when OnError is nil; the bytes after it wait for the next Receive) or a lost",
                 "// stream's (fbe.FrameTooSmall)."], f"func ({r} *{name}) Receive(data []byte) error {{",
             f"return {r}.Receiver.Feed(data, {r}, {fin})")
    declared(w, "// Write is Receive as an io.Writer: it takes all of p and returns Receive's error.",
             f"func ({r} *{name}) Write(p []byte) (int, error) {{", f"return len(p), {r}.Receive(p)")
    declared(w, ["// ReadFrom feeds what src delivers until EOF (nil) or an error, as an io.ReaderFrom, so",
                 "// io.Copy(receiver, conn) works."],
             f"func ({r} *{name}) ReadFrom(src {c.file.qualified('io', 'Reader')}) (int64, error) {{",
             f"return {r}.Receiver.Pump(src, {r}, {fin})")


def _clients(w: CodeWriter, c: Context, names: Callable[[str], str], send: list[Message], dispatch: list[Message],
             models: list[tuple[str, str, str]], handler: str) -> None:
    fbe = c.rt
    pkg = c.package.name
    by_name = {m.struct.qualified: m for m in send + dispatch}
    requests = [m for m in send if m.struct.request]
    waits, answers = client_answers(send, dispatch)
    waiting = [m for m in requests if m.struct.qualified in waits]
    client_handler = "clientHandler"

    declared(w, ["// clientHandler is the Handler of a Client's Receiver: responses and rejects of pending requests",
                 "// answer them, every other message goes to notify."], f"type {client_handler} struct {{",
             f"notify   *{handler}", f"requests *{fbe('Requests')}")
    for m in dispatch:
        q = m.struct.qualified
        with decl(w, f"// On{m.suffix} hands v to notify"
                  + (" unless it answers a pending request." if q in answers else "."),
                  f"func (h {client_handler}) On{m.suffix}(v *{m.named}) {{"):
            if q in answers:
                leave(w, f"h.requests.Answer(v.{id_of(c, m)}, v, {str(answers[q]).lower()})", [])
            braced(w, "if *h.notify != nil {", f"(*h.notify).On{m.suffix}(v)")
    for prefix, kind, _ in models:
        client, sender, receiver = (names(prefix + what) for what in ("Client", "Sender", "Receiver"))
        declared(w, [f"// {client} is a {sender} and a {receiver} of {pkg} with requests (docs/format.md 7.6):",
                     "// Request<Message> sends a [request] message and waits for the response of its id while another",
                     "// goroutine feeds the client what the peer sends (Receive, Write or ReadFrom). Every other",
                     f"// message goes to Notify. Make it with New{client}."], f"type {client} struct {{", sender,
                 receiver, "// Notify gets every message that does not answer a pending request (nil: dropped).",
                 f"Notify {handler}", f"\nrequests {fbe('Requests')}")
        declared(w, f"// New{client} is a {client} writing its {kind} frames to out and handing notifications to "
                 "notify.",
                 f"func New{client}(out {c.file.qualified('io', 'Writer')}, notify {handler}) *{client} {{",
                 f"c := &{client}{{Notify: notify}}", f"c.{sender}.Out = out",
                 f"c.{receiver}.Handler = {client_handler}{{&c.Notify, &c.requests}}", "return c")
        declared(w, "// Reset fails every pending request with fbe.ErrReset and drops the queued and partial frames.",
                 f"func (c *{client}) Reset() {{", "c.requests.Reset()", f"c.{sender}.Reset()", f"c.{receiver}.Reset()")
        declared(w, "// PendingRequests is the number of requests waiting for their response.",
                 f"func (c *{client}) PendingRequests() int {{", "return c.requests.Len()")
        for m in requests:
            ctx = c.file.qualified("context", "Context")
            if m in waiting:
                response = by_name[m.struct.response or ""]
                rej = ", ".join(r.type for r in m.struct.rejects)
                # the rejects a Receiver hands the client, by their type ids (fbe.Request)
                ids = ", ".join(f"{by_name[r.type].named}{{}}.TypeID()" for r in m.struct.rejects if r.type in answers)
                doc = [(f"// Request{m.suffix} sends v and waits for the {response.struct.qualified} of its id; "
                        "ctx is its"),
                       "// timeout (the error then wraps context.DeadlineExceeded)."]
                declared(w, doc + ([f"// A reject ({rej}) fails it with a *fbe.RejectError."] if rej else []),
                         f"func (c *{client}) Request{m.suffix}(ctx {ctx}, v *{m.named}) (*{response.named}, error) {{",
                         f'return {fbe("Request")}[*{response.named}](ctx, &c.requests, "{m.struct.qualified}", '
                         f"v.{id_of(c, m)}, c.Send{m.suffix}, v" + (f",\n\t{ids})" if ids else ")"))
            else:
                declared(w, f"// Request{m.suffix} sends v (a request without response: done once sent, or when ctx "
                         "has ended).", f"func (c *{client}) Request{m.suffix}(ctx {ctx}, v *{m.named}) error {{",
                         f"return {fbe('SendRequest')}(ctx, c.Send{m.suffix}, v)")
