"""Protocol code (docs/format.md section 7): Sender, Receiver, Proxy, Client and their final twins.

What the Senders send and the Receivers dispatch are base.protocol_messages (Go's and TypeScript's
too), each message's type as ctx.ref names it; a handler method is named by ctx.ident.handler
(``on_receive_<it>``, ``on_proxy_<it>``). A Client matches responses and rejects at run time, from
its table of requests (fbe.ClientBase).
"""

from __future__ import annotations

from fbec.targets.base import CodeWriter, Message, protocol_messages

from .context import Context


def protocol_code(ctx: Context) -> list[str]:
    pkg = ctx.package.name
    any_, callable_ = ctx.std("typing", "Any"), ctx.std("collections.abc", "Callable")
    # (the messages' suffixes are Go's and TypeScript's method names: not used here)
    send, dispatch = protocol_messages(ctx.schema, ctx.package, ctx.ref, str.lower, str.lower)
    finals = [False, True] if ctx.options.final else [False]
    w = ctx.writer()
    for final in finals:
        with w.block(f"class {'Final' if final else ''}Sender(fbe.Sender):"):
            _head(ctx, w, f"Sends {pkg} messages as {'final' if final else 'versioned'} frames; override "
                  "``on_send``.", final)
            class_var = ctx.std("typing", "ClassVar")
            w.line(f'fbe_package: {class_var}[str] = "{pkg}"')
            with w.block(f"fbe_messages: {class_var}[frozenset[type]] = frozenset({{", "})"):
                for m in send:
                    w.line(f"{m.named},")
        w.blank(2)

    for final in finals:
        with w.block(f"class {'Final' if final else ''}Receiver(fbe.Receiver):"):
            _head(ctx, w, f"Receives {pkg} {'final' if final else 'versioned'} frames fed in any chunks; override "
                  "``on_receive_<message>``.", final)
            _handlers(ctx, w, "type[fbe.Struct]", "receive", [(m, m.named) for m in dispatch])
            for m in dispatch:
                head = f"on_receive_{ctx.ident.handler(pkg, m.struct.qualified)}(self, value: {m.named})"
                with w.block(f"def {head} -> None:"):
                    w.line("self.on_receive(value)")
                w.blank()
        w.blank(2)

    with w.block("class Proxy(fbe.Proxy):"):  # versioned only, as the original
        _head(ctx, w, f"Dispatches {pkg} versioned frames without deserializing (model + raw frame).")
        models = [(m, ctx.ref(m.struct.qualified, local=ctx.ident.model(m.struct.qualified))) for m in dispatch]
        _handlers(ctx, w, f"{callable_}[[], {any_}]", "proxy", models)
        for m, model in models:
            with w.block(f"def on_proxy_{ctx.ident.handler(pkg, m.struct.qualified)}(", ") -> None:"):
                w.line(f"self, model: {model}, type: int, buffer: bytes, offset: int, size: int")
            with w.indented():
                w.line("self.on_proxy(model, type, buffer, offset, size)")
            w.blank()
    w.blank(2)

    requests = [s for s in ctx.package.protocol_types if s.request]
    for final in finals:
        prefix = "Final" if final else ""
        with w.block(f"class {prefix}Client(fbe.ClientBase, {prefix}Receiver, {prefix}Sender):"):
            _head(ctx, w, "Sender + Receiver with request(value, timeout_ms) -> Future, responses and rejects by "
                  "``id``.", final)
            class_var = ctx.std("typing", "ClassVar")
            with w.block(f"_fbe_requests: {class_var}[dict[type, tuple[type | None, frozenset[type]]]] = {{", "}"):
                # requests of imported packages go through this Client too (own entries win)
                for i in ctx.package.imports:
                    w.line(f"**{ctx.module_alias(i)}.{prefix}Client._fbe_requests,")
                for s in requests:
                    resp = ctx.ref(s.response) if s.response else "None"
                    rej = ", ".join(ctx.ref(r.type) for r in s.rejects)
                    rejset = f"frozenset({{{rej}}})" if rej else "frozenset()"
                    w.line(f"{ctx.ident.type(s.qualified)}: ({resp}, {rejset}),")
        w.blank(2)
    return w.text().splitlines() + ["", ""]


def _head(ctx: Context, w: CodeWriter, doc: str, final: bool | None = None) -> None:
    """A protocol class's docstring and (not the Proxy's) the model of its frames, ``fbe_final``."""
    w.line(f'"""{doc}"""')
    w.blank()
    if final is not None:
        w.line(f"fbe_final: {ctx.std('typing', 'ClassVar')}[bool] = {final}")


def _handlers(ctx: Context, w: CodeWriter, call: str, kind: str, calls: list[tuple[Message, str]]) -> None:
    """A Receiver's or Proxy's table: each dispatched type id's decoder or model class (of type
    ``call``) and the name of its handler, ``on_<kind>_<it>``."""
    with w.block(f"_fbe_handlers: {ctx.std('typing', 'ClassVar')}[dict[int, tuple[{call}, str]]] = {{", "}"):
        for m, x in calls:
            w.line(f'{m.struct.type_id}: ({x}, "on_{kind}_{ctx.ident.handler(ctx.package.name, m.struct.qualified)}"),')
    w.blank()
