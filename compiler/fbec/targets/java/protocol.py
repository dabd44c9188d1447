"""The protocol of fbec --java --proto (docs/format.md 7): per schema package a Handler interface
(an `onReceive` per message of the IR's dispatch table, own messages first, then the imports'),
a Receiver and a Sender on the runtime's FrameReceiver and FrameSender, and with --final their
final twins; a Proxy (versioned only, as the original) handing each verified frame undecoded to a
ProxyHandler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options

if TYPE_CHECKING:
    from fbec.targets.java import Context


def write_protocol(schema: ir.Schema, package: ir.Package, options: Options) -> list[GeneratedFile]:
    if not package.dispatch:
        return []
    out = [handler(schema, package, options), proxy_handler(schema, package, options), proxy(schema, package, options)]
    out += [receiver(schema, package, options, False), sender(schema, package, options, False)]
    if options.final:
        out += [receiver(schema, package, options, True), sender(schema, package, options, True)]
    return out


def _file(c: Context, name: str, w: CodeWriter, options: Options) -> GeneratedFile:
    from fbec.targets.java import path_of, write_file
    return GeneratedFile(path_of(c, name), write_file(c, w, options))


def handler(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    from fbec.targets.java import Context
    c = Context(schema, package)
    w = CodeWriter(options)
    w.line("/**")
    w.line(f" * What a Receiver of {package.name} delivers: an {{@code onReceive}} per message, its own first, then")
    w.line(" * those of its imports. Each does nothing but call {@link #onMessage} unless overridden; each value is")
    w.line(" * new, a handler may keep it.")
    w.line(" */")
    with w.block("public interface Handler {", "}"):
        w.line("/**")
        w.line(" * Every message whose own method is not overridden.")
        w.line(" *")
        w.line(" * @param value the message")
        w.line(" */")
        with w.block("default void onMessage(Object value) {", "}"):
            pass
        for d in package.dispatch:
            w.blank()
            w.line(f"/** @param value a {d.type} (type id {d.type_id}) */")
            with w.block(f"default void onReceive({c.named(d.type)} value) {{", "}"):
                w.line("onMessage(value);")
    return _file(c, "Handler", w, options)


def receiver(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    from fbec.targets.java import Context, int_literal
    c = Context(schema, package)
    w = CodeWriter(options)
    name = "FinalReceiver" if final else "Receiver"
    model = "final" if final else "versioned"
    base, limits, decode_exception = c.rt("FrameReceiver"), c.rt("Limits"), c.rt("DecodeException")
    w.line("/**")
    w.line(f" * Receives {model}-model frames of {package.name} (docs/format.md 7.4) and hands each message to a")
    w.line(" * Handler; see FrameReceiver for the limits and the errors.")
    w.line(" */")
    with w.block(f"public class {name} extends {base} {{", "}"):
        w.line("private final Handler handler;")
        w.blank()
        w.line("/** @param handler where the messages go */")
        with w.block(f"public {name}(Handler handler) {{", "}"):
            w.line(f"super({'true' if final else 'false'});")
            w.line("this.handler = handler;")
        w.blank()
        w.line("@Override")
        signature = (f"protected boolean dispatch(int typeId, byte[] frame, int offset, int size, {limits} limits) "
                     f"throws {decode_exception} {{")
        with w.block(signature, "}"), w.block("switch (typeId) {", "}"):
            for d in package.dispatch:
                w.line(f"case {int_literal(d.type_id, 'int')}:")
                with w.indented():
                    read = "fromFinal" if final else "fromFbe"
                    w.line(f"handler.onReceive({c.named(d.type)}.{read}(frame, offset, size, limits));")
                    w.line("return true;")
            w.line("default:")
            with w.indented():
                w.line("return false;")
    return _file(c, name, w, options)


def sender(schema: ir.Schema, package: ir.Package, options: Options, final: bool) -> GeneratedFile:
    from fbec.targets.java import Context
    c = Context(schema, package)
    w = CodeWriter(options)
    name = "FinalSender" if final else "Sender"
    model = "final" if final else "versioned"
    base, stream, io_exception = c.rt("FrameSender"), c.use("java.io.OutputStream"), c.use("java.io.IOException")
    w.line("/**")
    w.line(f" * Sends messages of {package.name} (and its imports) as {model}-model frames (docs/format.md 7.3), one")
    w.line(" * write per frame; see FrameSender.")
    w.line(" */")
    with w.block(f"public class {name} extends {base} {{", "}"):
        w.line("/** @param out where the frames go */")
        with w.block(f"public {name}({stream} out) {{", "}"):
            w.line("super(out);")
        for d in package.dispatch:
            w.blank()
            w.line("/**")
            w.line(f" * Sends a {d.type}.")
            w.line(" *")
            w.line(" * @param value the message")
            w.line(" * @return the frame's size")
            w.line(" * @throws IOException from the stream")
            w.line(" */")
            with w.block(f"public int send({c.named(d.type)} value) throws {io_exception} {{", "}"):
                w.line(f"return sendFrame(value::{'writeFinal' if final else 'writeFbe'});")
    return _file(c, name, w, options)


def frame_method(package: ir.Package, qualified: str) -> str:
    """The ProxyHandler method of a message: onOrderMessageFrame, onMarketFailureFrame (an import's)."""
    pkg, _, name = qualified.rpartition(".")
    prefix = "" if pkg == package.name else pkg[:1].upper() + pkg[1:]
    return f"on{prefix}{name[:1].upper()}{name[1:]}Frame"


def proxy_handler(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    from fbec.targets.java import Context
    c = Context(schema, package)
    w = CodeWriter(options)
    w.line("/**")
    w.line(f" * What a Proxy of {package.name} hands on: each frame, verified but not decoded, to look at or forward")
    w.line(" * unchanged (the bytes are valid during the call). Each method calls {@link #onFrame} unless overridden.")
    w.line(" */")
    with w.block("public interface ProxyHandler {", "}"):
        w.line("/**")
        w.line(" * Every frame whose own method is not overridden.")
        w.line(" *")
        w.line(" * @param typeId the frame's type id")
        w.line(" * @param frame  the buffer")
        w.line(" * @param offset the frame's first byte")
        w.line(" * @param size   the frame's size")
        w.line(" */")
        with w.block("default void onFrame(int typeId, byte[] frame, int offset, int size) {", "}"):
            pass
        for d in package.dispatch:
            w.blank()
            w.line("/**")
            w.line(f" * A frame of {d.type} (type id {d.type_id}).")
            w.line(" *")
            w.line(" * @param frame  the buffer")
            w.line(" * @param offset the frame's first byte")
            w.line(" * @param size   the frame's size")
            w.line(" */")
            with w.block(f"default void {frame_method(package, d.type)}(byte[] frame, int offset, int size) {{", "}"):
                w.line(f"onFrame({c.named(d.type)}.TYPE_ID, frame, offset, size);")
    return _file(c, "ProxyHandler", w, options)


def proxy(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    from fbec.targets.java import Context, int_literal
    c = Context(schema, package)
    w = CodeWriter(options)
    base, limits, decode_exception = c.rt("FrameReceiver"), c.rt("Limits"), c.rt("DecodeException")
    w.line("/**")
    w.line(f" * Receives versioned frames of {package.name} (docs/format.md 7.5) and hands each one, verified but not")
    w.line(" * decoded, to a ProxyHandler; see FrameReceiver for the limits and the errors.")
    w.line(" */")
    with w.block(f"public class Proxy extends {base} {{", "}"):
        w.line("private final ProxyHandler handler;")
        w.blank()
        w.line("/** @param handler where the frames go */")
        with w.block("public Proxy(ProxyHandler handler) {", "}"):
            w.line("super(false);")
            w.line("this.handler = handler;")
        w.blank()
        w.line("@Override")
        signature = (f"protected boolean dispatch(int typeId, byte[] frame, int offset, int size, {limits} limits) "
                     f"throws {decode_exception} {{")
        with w.block(signature, "}"), w.block("switch (typeId) {", "}"):
            for d in package.dispatch:
                w.line(f"case {int_literal(d.type_id, 'int')}:")
                with w.indented():
                    w.line(f"{c.named(d.type)}.verifyFbe(frame, offset, size, limits);")
                    w.line(f"handler.{frame_method(package, d.type)}(frame, offset, size);")
                    w.line("return true;")
            w.line("default:")
            with w.indented():
                w.line("return false;")
    return _file(c, "Proxy", w, options)
