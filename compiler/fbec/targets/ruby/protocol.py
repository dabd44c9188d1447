"""fbec --ruby --proto: a package's protocol classes (docs/format.md 7, docs/ruby.md "Protocol").

What the protocol does lives in the runtime (runtime/ruby/lib/fbe/protocol.rb: Fbe::Sender,
Fbe::Receiver, Fbe::Proxy, Fbe::Client); the generated classes add the package's tables, which the
IR decided: the messages a Sender sends (the package's and its imports'), the dispatch table of a
Receiver (type id => message class and handler, own ids first), the requests of a Client with
their responses and rejects, and one overridable handler method per message (module `Handlers`).
With --final, FinalSender, FinalReceiver and FinalClient are the same classes reading and writing
final frames.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets import ruby
from fbec.targets.base import CodeWriter, import_closure

if TYPE_CHECKING:
    from fbec.targets.ruby import Context


def write_handlers(w: CodeWriter, c: Context, kind: str, arg: str) -> None:
    """The dispatch table (type id => [message class, handler]), the IR's, and one handler method per
    message (`on_receive_<message>(value)`, `on_proxy_<message>(frame)`) calling the general one."""
    package = c.package.name
    dispatch = [(d.type_id, d.type, c.ident.handler(package, d.type)) for d in c.package.dispatch]
    ruby.entries(w, "FBE_MESSAGES = {", [f"{ruby.integer(t)} => [{c.named(q)}, :{kind}_{h}]" for t, q, h in dispatch],
                 "}.freeze", " ")
    for _, _, h in dispatch:
        w.blank()
        with w.block(f"def {kind}_{h}({arg})", "end"):
            w.line(f"{kind}({arg})")


def write_protocol(w: CodeWriter, c: Context) -> None:
    p = c.package
    name = p.name

    def cls(n: str) -> str:
        return c.ident.protocol(name, n)

    closure = import_closure(c.schema, p)
    sends = [s for q in closure for s in q.protocol_types]

    w.line(f"# The handlers of {name}'s messages (its own and its imports'), each calling on_receive:")
    w.line("# override the ones you need in a Receiver or Client.")
    with w.block(f"module {cls('Handlers')}", "end"):
        write_handlers(w, c, "on_receive", "value")
    w.blank()
    w.line(f"# Sends the messages of {name} and of its imports as versioned frames.")
    with w.block(f"class {cls('Sender')} < Fbe::Sender", "end"):
        ruby.entries(w, "FBE_SENDS = Set[", [c.named(s.qualified) for s in sends], "].freeze")
    w.blank()
    w.line(f"# Receives {name}'s versioned frames, fed in chunks of any size.")
    with w.block(f"class {cls('Receiver')} < Fbe::Receiver", "end"):
        w.line(f"include {cls('Handlers')}")
    w.blank()
    w.line(f"# Dispatches {name}'s versioned frames without keeping their messages: on_proxy_<message>(frame).")
    with w.block(f"class {cls('Proxy')} < Fbe::Proxy", "end"):
        write_handlers(w, c, "on_proxy", "frame")
    w.blank()
    requests: dict[str, ir.Struct] = {}
    for q in closure:                      # own requests first, then the imports' (own entries win)
        for s in q.protocol_types:
            if s.request:
                requests.setdefault(s.name if q is p else s.qualified, s)
    global_rejects = sorted({r.type for s in requests.values() for r in s.rejects if r.global_},
                            key=lambda t: c.named(t))
    w.line(f"# Sender and Receiver of {name} with request(value, timeout:) and responses and rejects matched by id.")
    with w.block(f"class {cls('Client')} < Fbe::Client", "end"):
        w.line(f"include {cls('Handlers')}")
        w.blank()
        w.line(f"FBE_SENDS = {cls('Sender')}::FBE_SENDS")
        items = []
        for s in requests.values():
            response = c.named(s.response) if s.response else "nil"
            rejects = ", ".join(c.named(r.type) for r in s.rejects)
            items.append(f"{c.named(s.qualified)} => [{response}, [{rejects}]]")
        ruby.entries(w, "FBE_REQUESTS = {", items, "}.freeze", " ")
        ruby.entries(w, "FBE_GLOBAL_REJECTS = Set[", [c.named(t) for t in global_rejects], "].freeze")
    if c.options.final:
        for twin, base in (("FinalSender", "Sender"), ("FinalReceiver", "Receiver"), ("FinalClient", "Client")):
            w.blank()
            w.line(f"# The {base} of final frames.")
            with w.block(f"class {cls(twin)} < {cls(base)}", "end"):
                w.line("FINAL = true")

