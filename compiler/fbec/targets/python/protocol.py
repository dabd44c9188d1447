"""Protocol code (docs/format.md section 7): Sender, Receiver, Proxy, Client and their final twins."""

from __future__ import annotations

from fbec.targets.base import import_closure

from .context import Context


def protocol_code(ctx: Context) -> list[str]:
    pkg = ctx.package.name
    every = [ctx.schema.struct(d.type) for d in ctx.package.dispatch]  # the IR's dispatch table
    w = ctx.writer()
    # every protocol class below uses these (imported by use)
    class_var, callable_, any_ = ctx.std("typing", "ClassVar"), ctx.std("collections.abc", "Callable"), \
        ctx.std("typing", "Any")
    finals = [False, True] if ctx.options.final else [False]
    # decoders used by the receivers
    for m in every:
        cls = ctx.ref(m.qualified)
        key = m.qualified.replace(".", "_")
        for final in finals:
            with w.block(f"def fbe_d{'f' if final else 'v'}_{key}(data: bytes, limits: fbe.Limits | None) -> {cls}:"):
                w.line(f"return {ctx.decode(m, final, 'limits')}[0]")
            w.blank(2)

    # senders: every message of the package and of its imports can be sent
    send_all = [m for p in import_closure(ctx.schema, ctx.package) for m in p.protocol_types]
    for final in finals:
        prefix = "Final" if final else ""
        table = f"FBE_SEND_{'F' if final else 'V'}"
        with w.block(f"{table}: dict[type, {callable_}[[{any_}], bytearray]] = {{", "}"):
            for m in send_all:
                w.line(f"{ctx.ref(m.qualified)}: lambda v: {ctx.encode(m, final, 'v')},")
        w.blank(2)
        with w.block(f"class {prefix}Sender(fbe.Sender):"):
            w.line(f'"""Sends {pkg} messages as {"final" if final else "versioned"} frames; override ``on_send``."""')
            w.blank()
            w.line(f"fbe_final: {class_var}[bool] = {final}")
            w.blank()
            with w.block("def send(self, value: fbe.Struct) -> int:"):
                w.line('"""Serialize a message into the send buffer and flush it; return the frame size."""')
                w.line(f"encode = {table}.get(type(value))")
                with w.block("if encode is None:"):
                    w.line(f'raise TypeError(f"{{type(value).__name__}} is not a message of {pkg}")')
                w.line("return self._fbe_send_frame(encode(value), value)")
        w.blank(2)

    for final in finals:
        prefix = "Final" if final else ""
        dec = "fbe_df_" if final else "fbe_dv_"
        with w.block(f"class {prefix}Receiver(fbe.Receiver):"):
            w.line(f'"""Receives {pkg} {"final" if final else "versioned"} frames fed in any chunks; '
                   f'override ``on_receive_<message>``."""')
            w.blank()
            w.line(f"fbe_final: {class_var}[bool] = {final}")
            with w.block(f"_fbe_handlers: {class_var}[dict[int, tuple[{callable_}[[bytes, fbe.Limits | None], "
                         f"{any_}], str]]] = {{", "}"):
                for m in every:
                    w.line(f'{m.type_id}: ({dec}{m.qualified.replace(".", "_")}, "on_receive_{ctx.ident.handler(pkg, m.qualified)}"),')
            w.blank()
            for m in every:
                with w.block(f"def on_receive_{ctx.ident.handler(pkg, m.qualified)}(self, value: {ctx.ref(m.qualified)}) -> None:"):
                    w.line("self.on_receive(value)")
                w.blank()
        w.blank(2)

    # proxy (versioned only, as the original)
    with w.block("class Proxy(fbe.Proxy):"):
        w.line(f'"""Dispatches {pkg} versioned frames without deserializing (model + raw frame)."""')
        w.blank()
        with w.block(f"_fbe_handlers: {class_var}[dict[int, tuple[{callable_}[[], {any_}], str]]] = {{", "}"):
            for m in every:
                model = ctx.ref(m.qualified, local=ctx.ident.model(m.qualified))
                w.line(f'{m.type_id}: ({model}, "on_proxy_{ctx.ident.handler(pkg, m.qualified)}"),')
        w.blank()
        for m in every:
            model = ctx.ref(m.qualified, local=ctx.ident.model(m.qualified))
            with w.block(f"def on_proxy_{ctx.ident.handler(pkg, m.qualified)}(", ") -> None:"):
                w.line(f"self, model: {model}, type: int, buffer: bytes, offset: int, size: int")
            with w.indented():
                w.line("self.on_proxy(model, type, buffer, offset, size)")
            w.blank()
    w.blank(2)

    # clients
    requests = [m for m in ctx.package.protocol_types if m.request]
    for final in finals:
        prefix = "Final" if final else ""
        with w.block(f"class {prefix}Client(fbe.ClientBase, {prefix}Receiver, {prefix}Sender):"):
            w.line('"""Sender + Receiver with request(value, timeout_ms) -> Future, responses and rejects by ``id``."""')
            w.blank()
            w.line(f"fbe_final: {class_var}[bool] = {final}")
            with w.block(f"_fbe_requests: {class_var}[dict[type, tuple[type | None, frozenset[type]]]] = {{", "}"):
                # requests of imported packages go through this Client too (own entries win)
                for i in ctx.package.imports:
                    w.line(f"**{ctx.module_alias(i)}.{prefix}Client._fbe_requests,")
                for m in requests:
                    resp = ctx.ref(m.response) if m.response else "None"
                    rej = ", ".join(ctx.ref(r.type) for r in m.rejects)
                    rejset = f"frozenset({{{rej}}})" if rej else "frozenset()"
                    w.line(f"{ctx.ident.type(m.qualified)}: ({resp}, {rejset}),")
            w.blank()
            with w.block("def __init__(self, limits: fbe.Limits | None = None) -> None:"):
                w.line("fbe.ClientBase.__init__(self, limits)")
                w.line(f"{prefix}Sender.__init__(self)")
            w.blank()
            with w.block(f"def _fbe_send(self, value: {any_}) -> int:"):
                w.line("return self.send(value)")
            w.blank()
            with w.block("def reset(self) -> None:"):
                w.line("fbe.ClientBase.reset(self)")
                w.line(f"{prefix}Sender.reset(self)")
        w.blank(2)
    return w.text().splitlines() + ["", ""]
