"""Protocol code (docs/format.md section 7): Sender, Receiver, Proxy, Client and their final twins."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import import_closure

from .context import Context, ident

IND = "    "


def _handler(s: ir.Struct, own: str) -> str:
    """Handler suffix: ``ordermessage`` for own messages, ``proto_ordermessage`` for imported ones."""
    pkg = s.qualified.rpartition(".")[0]
    return s.name.lower() if pkg == own else f"{pkg}_{s.name.lower()}"


def _messages(ctx: Context) -> tuple[list[ir.Struct], list[ir.Struct]]:
    """The IR's dispatch table of the package: its own entries, then the imported ones."""
    prefix = ctx.package.name + "."
    every = [ctx.schema.struct(d.type) for d in ctx.package.dispatch]
    return ([m for m in every if m.qualified.startswith(prefix)],
            [m for m in every if not m.qualified.startswith(prefix)])


def protocol_code(ctx: Context) -> list[str]:
    own, imported = _messages(ctx)
    pkg = ctx.package.name
    every = own + imported
    out: list[str] = []
    # every protocol class below uses these (imported by use)
    class_var, callable_, any_ = ctx.std("typing", "ClassVar"), ctx.std("collections.abc", "Callable"), \
        ctx.std("typing", "Any")
    finals = [False, True] if ctx.options.final else [False]
    # decoders used by the receivers
    for m in every:
        cls = ctx.ref(m.qualified)
        key = m.qualified.replace(".", "_")
        out += [f"def fbe_dv_{key}(data: bytes, limits: fbe.Limits | None) -> {cls}:",
                f"{IND}return fbe.decode_versioned({ctx.ref(m.qualified, 'fbe_vr_')}, data, limits)[0]", "", ""]
        if ctx.options.final:
            out += [f"def fbe_df_{key}(data: bytes, limits: fbe.Limits | None) -> {cls}:",
                    f"{IND}return fbe.decode_final({ctx.ref(m.qualified, 'fbe_fr_')}, data, {m.type_id}, limits)[0]",
                    "", ""]

    # senders: every message of the package and of its imports can be sent
    send_all: list[ir.Struct] = list(own)
    send_all.extend(m for p in import_closure(ctx.schema, ctx.package)[1:] for m in p.protocol_types)
    for final in finals:
        prefix = "Final" if final else ""
        table = f"FBE_SEND_{'F' if final else 'V'}"
        entries = []
        for m in send_all:
            cls = ctx.ref(m.qualified)
            if final:
                entries.append(f"{IND}{cls}: lambda v: fbe.encode_final({ctx.ref(m.qualified, 'fbe_fw_')}, "
                               f"{ctx.writable(m.qualified, 'v')}, {m.type_id}),")
            else:
                entries.append(f"{IND}{cls}: lambda v: fbe.encode_versioned({ctx.ref(m.qualified, 'fbe_vw_')}, "
                               f"{ctx.writable(m.qualified, 'v')}),")
        out += [f"{table}: dict[type, {callable_}[[{any_}], bytearray]] = {{"] + entries + ["}", "", ""]
        out += [f"class {prefix}Sender(fbe.Sender):",
                f'{IND}"""Sends {pkg} messages as {"final" if final else "versioned"} frames; override ``on_send``."""',
                "",
                f"{IND}fbe_final: {class_var}[bool] = {final}",
                "",
                f"{IND}def send(self, value: fbe.Struct) -> int:",
                f'{IND * 2}"""Serialize a message into the send buffer and flush it; return the frame size."""',
                f"{IND * 2}encode = {table}.get(type(value))",
                f"{IND * 2}if encode is None:",
                f'{IND * 3}raise TypeError(f"{{type(value).__name__}} is not a message of {pkg}")',
                f"{IND * 2}return self._fbe_send_frame(encode(value), value)", "", ""]

    for final in finals:
        prefix = "Final" if final else ""
        dec = "fbe_df_" if final else "fbe_dv_"
        entries = []
        for m in every:
            entries.append(f'{IND * 2}{m.type_id}: ({dec}{m.qualified.replace(".", "_")}, "on_receive_{_handler(m, pkg)}"),')
        out += [f"class {prefix}Receiver(fbe.Receiver):",
                (f'{IND}"""Receives {pkg} {"final" if final else "versioned"} frames fed in any chunks; '
                f'override ``on_receive_<message>``."""'),
                "",
                f"{IND}fbe_final: {class_var}[bool] = {final}",
                f"{IND}_fbe_handlers: {class_var}[dict[int, tuple[{callable_}[[bytes, fbe.Limits | None], {any_}], str]]] = {{"]
        out += entries + [f"{IND}}}", ""]
        for m in every:
            out += [f"{IND}def on_receive_{_handler(m, pkg)}(self, value: {ctx.ref(m.qualified)}) -> None:",
                    f"{IND * 2}self.on_receive(value)", ""]
        out += [""]

    # proxy (versioned only, as the original)
    entries = []
    for m in own:
        entries.append(f'{IND * 2}{m.type_id}: ({m.name}Model, "on_proxy_{_handler(m, pkg)}"),')
    for m in imported:
        entries.append(f'{IND * 2}{m.type_id}: ({ctx.ref(m.qualified)}Model, "on_proxy_{_handler(m, pkg)}"),')
    out += ["class Proxy(fbe.Proxy):",
            f'{IND}"""Dispatches {pkg} versioned frames without deserializing (model + raw frame)."""',
            "",
            f"{IND}_fbe_handlers: {class_var}[dict[int, tuple[{callable_}[[], {any_}], str]]] = {{"]
    out += entries + [f"{IND}}}", ""]
    for m in every:
        model = (m.name if m in own else ctx.ref(m.qualified)) + "Model"
        out += [f"{IND}def on_proxy_{_handler(m, pkg)}(",
                f"{IND * 2}self, model: {model}, type: int, buffer: bytes, offset: int, size: int",
                f"{IND}) -> None:",
                f"{IND * 2}self.on_proxy(model, type, buffer, offset, size)", ""]
    out += [""]

    # clients
    reqs = []
    for m in ctx.package.protocol_types:
        if m.request:
            resp = ctx.ref(m.response) if m.response else "None"
            rej = ", ".join(ctx.ref(r.type) for r in m.rejects)
            rejset = f"frozenset({{{rej}}})" if rej else "frozenset()"
            reqs.append(f"{IND * 2}{ident(m.name)}: ({resp}, {rejset}),")
    for final in finals:
        prefix = "Final" if final else ""
        out += [f"class {prefix}Client(fbe.ClientBase, {prefix}Receiver, {prefix}Sender):",
                f'{IND}"""Sender + Receiver with request(value, timeout_ms) -> Future, responses and rejects by ``id``."""',
                "",
                f"{IND}fbe_final: {class_var}[bool] = {final}",
                f"{IND}_fbe_requests: {class_var}[dict[type, tuple[type | None, frozenset[type]]]] = {{"]
        # requests of imported packages go through this Client too (own entries win)
        inherited = [f"{IND * 2}**{ctx.module_alias(i)}.{prefix}Client._fbe_requests," for i in ctx.package.imports]
        out += inherited + reqs + [f"{IND}}}", "",
                       f"{IND}def __init__(self, limits: fbe.Limits | None = None) -> None:",
                       f"{IND * 2}fbe.ClientBase.__init__(self, limits)",
                       f"{IND * 2}{prefix}Sender.__init__(self)", "",
                       f"{IND}def _fbe_send(self, value: {any_}) -> int:",
                       f"{IND * 2}return self.send(value)", "",
                       f"{IND}def reset(self) -> None:",
                       f"{IND * 2}fbe.ClientBase.reset(self)",
                       f"{IND * 2}{prefix}Sender.reset(self)", "", ""]
    return out
