"""`fbec --cpp --proto` (or `--sender`): the protocol classes of a package.

* `<package>_protocol.h`       - Sender, Receiver, Proxy, Client (versioned frames)
* `<package>_final_protocol.h` - FinalSender, FinalReceiver, FinalClient (with --final)

API of the original (docs/design.md): `FBE::<package>::Sender<TBuffer>` with
`send(value)` per message and `onSend` / `onSendLog`; `Receiver` with
`onReceive(const T&)` per message, `receive(data, size)`, `onReceiveLog`
(plus `onReceiveError`, see fbe/protocol.h); `Proxy` with `onProxy(model,
type, data, size)`; `Client` with `request(value, timeout)` per `[request]`
message, `onReceiveResponse` / `onReceiveReject` / `onReceiveNotify`,
`watchdog(utc)` and `reset()`.

Which types are sent (docs/format.md 7.2): the package's `message`
declarations; a package without any message sends and receives all its
structs instead (schemas written before the `message` keyword). Type ids,
requests, responses and rejects come from the IR as they are. Imported
packages' classes are virtual bases, so a Sender also sends imported
messages and a Receiver dispatches its own ids first, then each import's
in import order.
"""

from __future__ import annotations

from fbec.model.ir import Package, Schema, Struct
from fbec.targets.base import Options, import_closure

from .common import CppWriter, deprecated_used, guard, header_file, imported, imports, model_ident, namespace, qualified
from .names import escape


def _dispatch_types(schema: Schema, package: Package) -> list[Struct]:
    """The package's own entries of the IR's dispatch table (a Receiver of an
    import, one of the bases, dispatches the others)."""
    prefix = package.name + "."
    return [schema.struct(d.type) for d in package.dispatch if d.type.startswith(prefix)]


def _has_requests(schema: Schema, package: Package) -> bool:
    return any(s.request for p in import_closure(schema, package) for s in p.structs)


def _ident(qualified_name: str) -> str:
    return qualified_name.replace(".", "_")


def generate(schema: Schema, package: Package, options: Options, final: bool) -> str:
    kind = "final" if final else "versioned"
    w = header_file(options, package, f"Protocol of the package '{package.name}' ({kind} frames, docs/format.md 7).",
                    [f'"{package.name}{"_final" if final else ""}_models.h"',
                     *imported(schema, package, "_final_protocol" if final else "_protocol")],
                    ["<fbe/protocol.h>"], ["<cstddef>", "<cstdint>", "<future>", "<memory>", "<string>"])
    deprecated = any(s.deprecated for s in package.protocol_types)
    with deprecated_used(w, deprecated), namespace(w, "FBE"), namespace(w, escape(package.name)):
        _sender(w, schema, package, final)
        _receiver(w, schema, package, final)
        if not final:
            _proxy(w, schema, package)
        _client(w, schema, package, final)
    return w.text()


# ---------------------------------------------------------------- names

def _cls(name: str, final: bool) -> str:
    return ("Final" + name) if final else name


def _model(s: Struct, final: bool, buffer: str) -> str:
    return f"FBE::{escape(s.qualified.rpartition('.')[0])}::{model_ident(s.qualified, final)}<{buffer}>"


def _bases(schema: Schema, package: Package, name: str, final: bool) -> list[str]:
    return [f"FBE::{escape(imp.name)}::{_cls(name, final)}<TBuffer>" for imp in imports(schema, package)]


def _class_head(w: CppWriter, name: str, bases: list[str]) -> None:
    w.line("template <class TBuffer = FBE::WriteBuffer>")
    w.line(f"class {name}")
    with w.indented():
        for i, b in enumerate(bases):
            w.line(f"{':' if i == 0 else ','} public virtual {b}")


# ---------------------------------------------------------------- Sender

def _sender(w: CppWriter, schema: Schema, package: Package, final: bool) -> None:
    name = _cls("Sender", final)
    types = list(package.protocol_types)
    imported = [b for b, imp in zip(_bases(schema, package, "Sender", final), imports(schema, package))
                if imp.dispatch]
    w.line(f"//! Serializes the messages of '{package.name}' into {'final' if final else 'versioned'} frames;")
    w.line("//! override onSend(data, size) (and optionally onSendLog(message)).")
    _class_head(w, name, ["FBE::Sender<TBuffer>"] + _bases(schema, package, "Sender", final))
    with w.block("{", "};"):
        w.label("public:")
        w.line(f"{name}() {{ this->_final = {'true' if final else 'false'}; }}")
        w.blank()
        for b in imported:
            w.line(f"using {b}::send;")
        for s in types:
            w.line(f"//! Sends {s.qualified}; returns the bytes onSend() accepted.")
            w.line(f"std::size_t send(const {qualified(s.qualified)}& value) "
                   f"{{ return this->send_value({s.name}Model, value); }}")
        w.blank()
        if types:
            w.line("// Sender models (their buffers are swapped with the sender buffer while serializing)")
        for s in types:
            w.line(f"{_model(s, final, 'TBuffer')} {s.name}Model;")
    w.blank()


# ---------------------------------------------------------------- Receiver

def _receiver(w: CppWriter, schema: Schema, package: Package, final: bool) -> None:
    name = _cls("Receiver", final)
    types = list(package.protocol_types)
    dispatch = _dispatch_types(schema, package)
    bases = _bases(schema, package, "Receiver", final)
    w.line(f"//! Reassembles {'final' if final else 'versioned'} frames of '{package.name}' and its imports and")
    w.line("//! delivers each message to onReceive(value); see FBE::Receiver for errors.")
    _class_head(w, name, ["FBE::Receiver<TBuffer>"] + bases)
    with w.block("{", "};"):
        w.label("public:")
        w.line(f"{name}() {{ this->_final = {'true' if final else 'false'}; }}")
        w.blank()
        w.label("protected:")
        for b in bases:
            w.line(f"using {b}::onReceive;")
        for s in types:
            w.line(f"virtual void onReceive(const {qualified(s.qualified)}& /*value*/) {{}}")
        w.blank()
        _on_receive(w, bases, dispatch, final, proxy=False)
    w.blank()


def _on_receive(w: CppWriter, bases: list[str], dispatch: list[Struct], final: bool, proxy: bool) -> None:
    """A Receiver's or Proxy's onReceive and readers: the runtime's dispatch over the readers of `dispatch`, which
    hands a Receiver's value deserialized to onReceive(value), a Proxy's model only verified to onProxy(model, ...),
    then the imports' classes."""
    with w.function("bool onReceive(std::size_t type, const void* data, std::size_t size) override", False):
        tried = [f"{b}::onReceive(type, data, size)" for b in bases]
        if dispatch:
            w.line("const auto handle = [&](auto& model) { onProxy(model, type, data, size); };" if proxy
                   else "const auto handle = [this](const auto& value) { this->onReceive(value); };")
            with w.block(f"const bool known = this->template dispatch<{'false' if proxy else 'true'}>"
                         "(type, data, size, handle,"):
                w.lines(",\n".join(f"{s.name}Reader" for s in dispatch) + ");")
            tried.insert(0, "known")
        w.line(f"return {' || '.join(tried or ['false'])};")
    if dispatch:
        w.blank()
        w.label("private:")
    for s in dispatch:
        w.line(f'FBE::MessageReader<{_model(s, final, "FBE::ReadBuffer")}> {s.name}Reader{{"{s.qualified}"}};')


# ---------------------------------------------------------------- Proxy

def _proxy(w: CppWriter, schema: Schema, package: Package) -> None:
    dispatch = _dispatch_types(schema, package)
    bases = _bases(schema, package, "Proxy", False)
    w.line(f"//! Dispatches versioned frames of '{package.name}' like a Receiver but without deserializing:")
    w.line("//! onProxy() gets the verified model attached to the frame and the raw frame bytes.")
    _class_head(w, "Proxy", ["FBE::Receiver<TBuffer>"] + bases)
    with w.block("{", "};"):
        w.label("protected:")
        for b in bases:
            w.line(f"using {b}::onProxy;")
        for s in dispatch:
            w.line(f"virtual void onProxy({_model(s, False, 'FBE::ReadBuffer')}& /*model*/, std::size_t /*type*/, "
                   "const void* /*data*/, std::size_t /*size*/) {}")
        w.blank()
        _on_receive(w, bases, dispatch, False, proxy=True)
    w.blank()


# ---------------------------------------------------------------- Client

def _client(w: CppWriter, schema: Schema, package: Package, final: bool) -> None:
    name = _cls("Client", final)
    requests = [s for s in package.structs if s.request]
    imp_packages = imports(schema, package)
    imp_clients = _bases(schema, package, "Client", final)

    # Response types (one pending table each) and, per reject type, the response tables it can fail (a
    # global reject's: any table, FBE::Client::fail_request).
    responses = list(dict.fromkeys(r.response for r in requests if r.response))
    rejects: dict[str, list[str]] = {}
    for r in requests:
        for j in r.rejects:
            tables = rejects.setdefault(j.type, [])
            if r.response and r.response not in tables:
                tables.append(r.response)
    global_rejects = {j.type for r in requests for j in r.rejects if j.global_}

    # Every received type this client handles: own protocol types, then imported response/reject types.
    own = [s.qualified for s in _dispatch_types(schema, package)]
    handled = [(q, True) for q in own] + [(q, False) for q in dict.fromkeys(responses + list(rejects)) if q not in own]

    w.line(f"//! Sender + Receiver of '{package.name}' with requests: request(value, timeout) returns a")
    w.line("//! future completed by the response, failed by a reject, a timeout (watchdog) or reset().")
    _class_head(w, name, ["FBE::Client<TBuffer>", f"FBE::{escape(package.name)}::{_cls('Sender', final)}<TBuffer>",
                          f"FBE::{escape(package.name)}::{_cls('Receiver', final)}<TBuffer>"] + imp_clients)
    with w.block("{", "};"):
        # send(), receive(), reset()... need no using-declaration: the class that declares them last (the
        # package's Sender, FBE::Client) dominates the virtual bases it derives from
        imp_requests = [c for imp, c in zip(imp_packages, imp_clients) if _has_requests(schema, imp)]
        if requests or imp_requests:
            w.label("public:")
        for c in imp_requests:
            w.line(f"using {c}::request;")
        for r in requests:
            _request(w, r)
        if requests or imp_requests:
            w.blank()
        w.label("protected:")
        w.line(f"using FBE::{escape(package.name)}::{_cls('Receiver', final)}<TBuffer>::onReceive;")
        for c in (c for imp, c in zip(imp_packages, imp_clients) if imp.dispatch):
            for handler in ("onReceiveResponse", "onReceiveReject", "onReceiveNotify"):
                w.line(f"using {c}::{handler};")
        for q, is_own in handled:
            t = qualified(q)
            if not is_own:
                # An imported response/reject type: complete or fail this
                # package's requests, else let the imported Client handle it
                # (its own onReceiveResponse/onReceiveReject stay in charge).
                with w.braced(f"void onReceive(const {t}& value) override"):
                    if q in responses:
                        guard(w, f"_requests_{_ident(q)}.complete(value.id, value)", "return;")
                    _fail(w, "value", rejects.get(q, []), q in global_rejects, "return;")
                    w.line(f"FBE::{q.rpartition('.')[0]}::{name}<TBuffer>::onReceive(value);")
                continue
            if q in responses:
                w.line(f"virtual bool onReceiveResponse(const {t}& response) "
                       f"{{ return _requests_{_ident(q)}.complete(response.id, response); }}")
            else:
                w.line(f"virtual bool onReceiveResponse(const {t}& /*response*/) {{ return false; }}")
            if q in rejects:
                with w.function(f"virtual bool onReceiveReject(const {t}& reject)", False):
                    _fail(w, "reject", rejects[q], q in global_rejects, "return true;")
                    w.line("return false;")
            else:
                w.line(f"virtual bool onReceiveReject(const {t}& /*reject*/) {{ return false; }}")
            w.line(f"virtual void onReceiveNotify(const {t}& /*notify*/) {{}}")
            with w.braced(f"void onReceive(const {t}& value) override"), \
                    w.block("if (!onReceiveResponse(value) && !onReceiveReject(value))"):
                w.line("onReceiveNotify(value);")
        if responses:
            w.blank()
            w.label("private:")
            for q in responses:     # (each in the tables FBE::Client's reset() and watchdog() go through)
                w.line(f"FBE::PendingRequests<{qualified(q)}> _requests_{_ident(q)}{{*this}};")
    w.blank()


def _fail(w: CppWriter, reject: str, tables: list[str], everywhere: bool, then: str) -> None:
    """Fails the pending request a reject answers (`then` when one was): a global reject's in any table of this
    Client and its imports' (FBE::Client::fail_request, docs/format.md 7.6), another's in this Client's `tables`
    of the response types whose requests list it."""
    if everywhere:
        guard(w, f"this->fail_request({reject}.id, {reject}.string())", then)
        return
    if tables:
        w.line(f"const std::string error = {reject}.string();")
    for table in tables:
        guard(w, f"_requests_{_ident(table)}.fail({reject}.id, error)", then)


def _request(w: CppWriter, r: Struct) -> None:
    """A Client's request(value, timeout) for one request type: the runtime's Client::send_request."""
    result = f"std::future<{qualified(r.response)}>" if r.response else "std::future<void>"
    what = f"completes with the {r.response} of the same id" if r.response else "completes once sent"
    w.line(f"//! Sends {r.qualified}; the future {what}. timeout in milliseconds, 0 = none.")
    with w.function(f"{result} request(const {qualified(r.qualified)}& value, uint64_t timeout = 0)", False):
        pending = f"_requests_{_ident(r.response)}, value.id, timeout, " if r.response else ""
        w.line(f"return this->send_request({pending}[&] {{ this->send(value); }});")
