"""fbec --csharp --proto: a package's Receiver, Sender, Proxy and Client (docs/format.md 7, docs/csharp.md
"Protocol"), thin typed classes over the runtime's Fbe.Receiver, Fbe.Sender and Fbe.Requests.

`Receiver` registers every entry of the IR's dispatch table (the package's messages, then its imports') and
raises a typed event per message (`OnOrderMessage`; an imported message's event is named after its package
too, `OnProtoOrderMessage`), `OnError` for each frame reported; `Sender` has a `Send` overload per message of
the package and of its imports. `Proxy` (versioned only, as the original) raises each frame verified but not
decoded (`OnOrderMessageFrame`). `Client` is a Sender and a Receiver with requests: a `RequestAsync` per
`[request]` with a response gives the Task of the response of its id (which fails on a reject of that id, a
timeout, a cancellation, Reset or the end of the stream); what answers no pending request is raised as the
Receiver's events are. The final twins are the same classes made with `final: true`. Every class name is
declared in the file, clear of the schema's types.
"""

from __future__ import annotations

from collections.abc import Callable

from fbec.model import ir
from fbec.targets.base import CodeWriter, import_closure, scope_idents
from fbec.targets.csharp.context import Context, braces, member
from fbec.targets.jvm import protocol
from fbec.targets.rust.names import camel as pascal  # the same words, each capitalized

MEMBERS = frozenset({"Receive", "Reset", "OnError", "Send", "Flush", "Pending", "Dispatch", "Stopped", "Sender",
                     "Receiver", "Request", "RequestAsync", "PendingRequests"})
# The namespaces the Client's code needs besides the file's own usings.
USINGS = ("System.Threading", "System.Threading.Tasks")


def uses_client(package: ir.Package) -> bool:
    """Whether the package's file has a Client (and needs USINGS)."""
    return bool(package.dispatch)


def write_protocol(w: CodeWriter, c: Context) -> None:
    package = c.package
    if not package.dispatch:
        return
    receiver, sender = c.file.declare("Receiver"), c.file.declare("Sender")
    own = package.name
    def event(t: str) -> str:
        pkg = t.rpartition(".")[0]
        return "On" + ("" if pkg == own else pascal(pkg)) + c.ident.type(t)

    events = scope_idents(((d.type, event(d.type)) for d in package.dispatch), lambda x: x in MEMBERS)
    w.line("/// <summary>Receives the package's messages and its imports' from a stream of frames fed in chunks of "
           "any size (docs/format.md 7.4).</summary>")
    _dispatcher(w, c, receiver, "bool final, Limits limits", "final", events, lambda t: t, lambda d: (
        f"final ? (Func<byte[], int, Limits, object>){c.qualified(d.type)}.FromFinal : {c.qualified(d.type)}.FromFbe"))
    w.blank()
    w.line("/// <summary>Sends the package's messages and its imports' as frames to a transport (docs/format.md "
           "7.3).</summary>")
    with braces(w, f"public sealed class {sender}"):
        w.line("private readonly global::Fbe.Sender _sender;")
        w.blank()
        member(w, "A sender of versioned frames, or of final ones with <paramref name=\"final\"/>, to <paramref "
               "name=\"transport\"/> (the bytes, their offset and count; returns how many it took).",
               f"public {sender}(bool final, Func<byte[], int, int, int> transport)",
               "_sender = new global::Fbe.Sender(final, transport);")
        w.blank()
        w.line("/// <summary>The bytes waiting for the transport.</summary>")
        w.line("public int Pending { get { return _sender.Pending; } }")
        for name in (s.qualified for p in import_closure(c.schema, package) for s in p.protocol_types):
            w.blank()
            t = c.qualified(name)
            member(w, "Sends the message; returns its frame's size.", f"public int Send({t} message)",
                   f"return _sender.Send({t}.Model.Instance, message);")
        w.blank()
        member(w, "Offers the buffered bytes to the transport again.", "public void Flush()", "_sender.Flush();")
    w.blank()
    proxy = c.file.declare("Proxy")
    w.line("/// <summary>Receives versioned frames like a Receiver but raises each one verified and not decoded, a new "
           "array to look at, keep or forward unchanged (docs/format.md 7.5).</summary>")
    _dispatcher(w, c, proxy, "Limits limits", "false", {k: v + "Frame" for k, v in events.items()}, lambda t: "byte[]",
                lambda d: f"(frame, size, l) => {{ {c.qualified(d.type)}.VerifyFbe(frame, size, l); return frame; }}")
    w.blank()
    _client(w, c, receiver, sender, events)


def _dispatcher(w: CodeWriter, c: Context, name: str, parameters: str, final: str, events: dict[str, str],
                value: Callable[[str], str], read: Callable[[ir.Dispatch], str]) -> None:
    """A class over Fbe.Receiver registering each message of the dispatch table with read(d) (what it makes of
    a frame) and raising events[d.type] with it (of the C# type value(message's type))."""
    with braces(w, f"public sealed class {name}"):
        w.line("private readonly global::Fbe.Receiver _receiver;")
        w.blank()
        w.line(f"/// <summary>A {name.lower().rstrip('_')} of "
               + ("versioned frames, or of final ones with <paramref name=\"final\"/>, " if final == "final" else
                  "versioned frames ")
               + "read under <paramref name=\"limits\"/>.</summary>")
        with braces(w, f"public {name}({parameters})"):
            w.line(f"_receiver = new global::Fbe.Receiver({final}, limits) {{ Message = Dispatch, "
                   "Error = reason => OnError?.Invoke(reason) };")
            for d in c.package.dispatch:
                w.line(f'_receiver.Register({d.type_id}, "{d.type}", {read(d)});')
        w.blank()
        for d in c.package.dispatch:
            w.line(f"public event Action<{value(c.qualified(d.type))}> {events[d.type]};")
        w.blank()
        w.line("/// <summary>The reason of every frame reported and skipped, and of the end of a stream.</summary>")
        w.line("public event Action<string> OnError;")
        w.blank()
        w.line("/// <summary>Whether the stream ended (the other end's model notice, a size below the smallest frame): "
               "already true when OnError reports why.</summary>")
        w.line("public bool Stopped { get { return _receiver.Stopped; } }")
        w.blank()
        member(w, "Takes the next <paramref name=\"count\"/> bytes of the stream.",
               "public void Receive(byte[] data, int offset, int count)", "_receiver.Receive(data, offset, count);")
        w.blank()
        member(w, "Forgets a partial frame and a stopped stream.", "public void Reset()", "_receiver.Reset();")
        w.blank()
        with braces(w, "private void Dispatch(string name, object message)"), braces(w, "switch (name)"):
            for d in c.package.dispatch:
                w.line(f'case "{d.type}":')
                with w.indented():
                    w.line(f"{events[d.type]}?.Invoke(({value(c.qualified(d.type))})message);")
                    w.line("break;")


def _client(w: CodeWriter, c: Context, receiver: str, sender: str, events: dict[str, str]) -> None:
    client = c.file.declare("Client")
    answers, requests = protocol.client(c.schema, c.package)
    w.line("/// <summary>A Sender and a Receiver of the package with requests (docs/format.md 7.6): RequestAsync sends "
           "a [request] message and gives the task of the response of its id; every message that answers no pending "
           "request is raised as an event. Feed it what the other end sends with Receive (one thread) and Reset it "
           "when the connection closes; requests may be sent from any thread (other sends: lock the Sender).</summary>")
    with braces(w, f"public sealed class {client}"):
        w.line("private readonly global::Fbe.Requests _requests = new global::Fbe.Requests();")
        w.blank()
        w.line("/// <summary>A client of versioned frames, or of final ones with <paramref name=\"final\"/>, read "
               "under <paramref name=\"limits\"/> and sent to <paramref name=\"transport\"/> (the bytes, their "
               "offset and count; returns how many it took).</summary>")
        with braces(w, f"public {client}(bool final, Limits limits, Func<byte[], int, int, int> transport)"):
            w.line(f"Sender = new {sender}(final, transport);")
            w.line(f"Receiver = new {receiver}(final, limits);")
            for a in answers:
                event = events[a.message]
                if a.id is None:
                    w.line(f"Receiver.{event} += message => {event}?.Invoke(message);")
                    continue
                w.line(f"Receiver.{event} += message =>")
                answered = (f"_requests.Answer(message.{c.ident.field(a.message, a.id.name)}, message, "
                            f"{str(a.everyone).lower()})")
                with w.block("{", "};"), braces(w, f"if (!{answered})"):
                    w.line(f"{event}?.Invoke(message);")
            w.line("Receiver.OnError += reason =>")
            with w.block("{", "};"):
                with braces(w, "if (Receiver.Stopped)"):
                    w.line("_requests.End(reason);")
                w.line("OnError?.Invoke(reason);")
        w.blank()
        w.line("/// <summary>Sends the package's messages.</summary>")
        w.line(f"public {sender} Sender {{ get; }}")
        w.blank()
        w.line("/// <summary>Receives what the other end sends.</summary>")
        w.line(f"public {receiver} Receiver {{ get; }}")
        w.blank()
        for a in answers:
            w.line(f"public event Action<{c.qualified(a.message)}> {events[a.message]};")
        w.blank()
        w.line("/// <summary>The reason of every frame reported and skipped, and of the end of a stream (which fails "
               "the pending requests with an IOException).</summary>")
        w.line("public event Action<string> OnError;")
        w.blank()
        w.line("/// <summary>The number of requests waiting for their response.</summary>")
        w.line("public int PendingRequests { get { return _requests.Count; } }")
        w.blank()
        member(w, "Takes the next <paramref name=\"count\"/> bytes the other end sent.",
               "public void Receive(byte[] data, int offset, int count)", "Receiver.Receive(data, offset, count);")
        w.blank()
        member(w, "Fails every pending request with an OperationCanceledException and forgets a partial frame: the "
               "connection closed.", "public void Reset()", "_requests.Reset();", "Receiver.Reset();")
        for r in requests:
            w.blank()
            t = c.qualified(r.struct.qualified)
            if r.id is None:
                w.line(f"/// <summary>Sends the {r.struct.qualified} request, which has no response: done once "
                       "sent.</summary>")
                with braces(w, f"public void Request({t} message)"), braces(w, "lock (Sender)"):
                    w.line("Sender.Send(message);")
                continue
            response = c.qualified(r.response)
            rejects = ", ".join(f"typeof({c.qualified(x)})" for x in r.rejects)
            rejected = f", or fails with a RejectException on a {' or '.join(r.rejects)} of its id" if r.rejects else ""
            w.line(f"/// <summary>Sends the {r.struct.qualified} request and gives the {r.response} of its "
                   f"id{rejected}; it fails with a TimeoutException after <paramref name=\"timeout\"/> "
                   "(Timeout.InfiniteTimeSpan: never), is canceled with <paramref name=\"cancellation\"/>, and fails "
                   "with what the sending threw.</summary>")
            with braces(w, f"public Task<{response}> RequestAsync({t} message, TimeSpan timeout, "
                           "CancellationToken cancellation = default(CancellationToken))"):
                ident = c.ident.field(r.struct.qualified, r.id.name)
                w.line(f"var response = _requests.Add<{response}>(message.{ident}, "
                       f"{f'new[] {{ {rejects} }}' if rejects else 'Type.EmptyTypes'}, timeout, cancellation);")
                with braces(w, "try"), braces(w, "lock (Sender)"):
                    w.line("Sender.Send(message);")
                with braces(w, "catch (Exception e)"):
                    w.line(f"_requests.Fail(message.{ident}, e);")
                w.line("return response;")
