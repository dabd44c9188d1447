"""fbec --csharp --proto: a package's Sender and Receiver (docs/format.md 7, docs/csharp.md "Protocol"), thin
typed classes over the runtime's Fbe.Sender and Fbe.Receiver.

`Receiver` registers every entry of the IR's dispatch table (the package's messages, then its imports') and
raises a typed event per message (`OnOrderMessage`; an imported message's event is named after its package
too, `OnProtoOrderMessage`), `OnError` for each frame reported; `Sender` has a `Send` overload per message of
the package (`package.protocol`). Both class names are declared in the file, clear of the schema's types.
"""

from __future__ import annotations

from fbec.targets.base import CodeWriter, scope_idents
from fbec.targets.csharp.context import Context, braces
from fbec.targets.rust.names import camel as pascal  # the same words, each capitalized

MEMBERS = frozenset({"Receive", "Reset", "OnError", "Send", "Flush", "Pending", "Dispatch"})


def write_protocol(w: CodeWriter, c: Context) -> None:
    package = c.package
    if not package.dispatch:
        return
    receiver, sender = c.file.declare("Receiver"), c.file.declare("Sender")
    own = package.name
    wanted = [(d.type, "On" + ("" if d.type.rpartition(".")[0] == own else pascal(d.type.rpartition(".")[0]))
               + c.ident.type(d.type)) for d in package.dispatch]
    events = scope_idents(wanted, lambda x: x in MEMBERS)
    w.line("/// <summary>Receives the package's messages and its imports' from a stream of frames fed in chunks of "
           "any size (docs/format.md 7.4).</summary>")
    with braces(w, f"public sealed class {receiver}"):
        w.line("private readonly global::Fbe.Receiver _receiver;")
        w.blank()
        w.line("/// <summary>A receiver of versioned frames, or of final ones with <paramref name=\"final\"/>, read "
               "under <paramref name=\"limits\"/>.</summary>")
        with braces(w, f"public {receiver}(bool final, Limits limits)"):
            w.line("_receiver = new global::Fbe.Receiver(final, limits) { Message = Dispatch, "
                   "Error = reason => OnError?.Invoke(reason) };")
            for d in package.dispatch:
                t = c.qualified(d.type)
                w.line(f'_receiver.Register({d.type_id}, "{d.type}", final ? '
                       f"(Func<byte[], int, Limits, object>){t}.FromFinal : {t}.FromFbe);")
        w.blank()
        for d in package.dispatch:
            w.line(f"public event Action<{c.qualified(d.type)}> {events[d.type]};")
        w.blank()
        w.line("/// <summary>The reason of every frame reported and skipped, and of the end of a stream.</summary>")
        w.line("public event Action<string> OnError;")
        w.blank()
        w.line("/// <summary>Takes the next <paramref name=\"count\"/> bytes of the stream.</summary>")
        with braces(w, "public void Receive(byte[] data, int offset, int count)"):
            w.line("_receiver.Receive(data, offset, count);")
        w.blank()
        w.line("/// <summary>Forgets a partial frame and a stopped stream.</summary>")
        with braces(w, "public void Reset()"):
            w.line("_receiver.Reset();")
        w.blank()
        with braces(w, "private void Dispatch(string name, object message)"), braces(w, "switch (name)"):
            for d in package.dispatch:
                w.line(f'case "{d.type}":')
                with w.indented():
                    w.line(f"{events[d.type]}?.Invoke(({c.qualified(d.type)})message);")
                    w.line("break;")
    w.blank()
    w.line("/// <summary>Sends the package's messages as frames to a transport (docs/format.md 7.3).</summary>")
    with braces(w, f"public sealed class {sender}"):
        w.line("private readonly global::Fbe.Sender _sender;")
        w.blank()
        w.line("/// <summary>A sender of versioned frames, or of final ones with <paramref name=\"final\"/>, to "
               "<paramref name=\"transport\"/> (the bytes, their offset and count; returns how many it took).</summary>")
        with braces(w, f"public {sender}(bool final, Func<byte[], int, int, int> transport)"):
            w.line("_sender = new global::Fbe.Sender(final, transport);")
        w.blank()
        w.line("/// <summary>The bytes waiting for the transport.</summary>")
        w.line("public int Pending { get { return _sender.Pending; } }")
        for name in package.protocol:
            w.blank()
            t = c.qualified(name)
            w.line("/// <summary>Sends the message; returns its frame's size.</summary>")
            with braces(w, f"public int Send({t} message)"):
                w.line(f"return _sender.Send({t}.Model.Instance, message);")
        w.blank()
        w.line("/// <summary>Offers the buffered bytes to the transport again.</summary>")
        with braces(w, "public void Flush()"):
            w.line("_sender.Flush();")
