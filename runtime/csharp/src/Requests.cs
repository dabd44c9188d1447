using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Fbe
{
    /// <summary>A request refused by a reject message of its id (<c>[reject(E)]</c>, docs/format.md 7.6): its text is
    /// the reject's text form, <see cref="Value"/> the reject itself.</summary>
    public sealed class RejectException : Exception
    {
        public RejectException(object value) : base(value.ToString())
        {
            Value = value;
        }

        /// <summary>The reject message.</summary>
        public object Value { get; }
    }

    /// <summary>
    /// The requests of a client waiting for their response, by id (docs/format.md 7.6): conventions on top of a sender
    /// and a receiver, nothing on the wire. A request's task completes with the message of its response type and the
    /// same <c>id</c>, or fails: with a <see cref="RejectException"/> on one of its rejects of that id, a
    /// <see cref="TimeoutException"/> when its timeout passes (the original's "Timeout!"), a canceled task when its
    /// CancellationToken is canceled, an <see cref="OperationCanceledException"/> on <see cref="Reset"/> (a connection
    /// that closed), an <see cref="IOException"/> on <see cref="End"/> (the other end's model notice), an
    /// <see cref="InvalidOperationException"/> when another request is sent with its id. Safe for concurrent use:
    /// requests are sent from any thread while one thread feeds the client's receiver; tasks continue asynchronously,
    /// never on the receiver's thread. Generated clients use it.
    /// </summary>
    public sealed class Requests
    {
        private abstract class Pending
        {
            public Timer Timer;
            public CancellationTokenRegistration Cancellation;

            public abstract bool IsResponse(object value);
            public abstract bool IsReject(object value);
            public abstract void Complete(object value);
            public abstract void Fail(Exception why);
            public abstract void Cancel();
        }

        private sealed class Pending<R> : Pending where R : class
        {
            public readonly TaskCompletionSource<R> Answer =
                new TaskCompletionSource<R>(TaskCreationOptions.RunContinuationsAsynchronously);
            public Type[] Rejects;

            public override bool IsResponse(object value)
            {
                return value.GetType() == typeof(R);
            }

            public override bool IsReject(object value)
            {
                return Array.IndexOf(Rejects, value.GetType()) >= 0;
            }

            public override void Complete(object value)
            {
                Answer.TrySetResult((R)value);
            }

            public override void Fail(Exception why)
            {
                Answer.TrySetException(why);
            }

            public override void Cancel()
            {
                Answer.TrySetCanceled();
            }
        }

        private readonly object _lock = new object();
        private readonly Dictionary<Guid, Pending> _pending = new Dictionary<Guid, Pending>();

        /// <summary>The number of pending requests.</summary>
        public int Count
        {
            get
            {
                lock (_lock)
                    return _pending.Count;
            }
        }

        /// <summary>Registers a request of <paramref name="id"/> before it is sent: its task completes with the
        /// response (of type <typeparamref name="R"/>) or fails on one of <paramref name="rejects"/>, after
        /// <paramref name="timeout"/> (<see cref="Timeout.InfiniteTimeSpan"/>: never) or when
        /// <paramref name="cancellation"/> is canceled.</summary>
        public Task<R> Add<R>(Guid id, Type[] rejects, TimeSpan timeout, CancellationToken cancellation) where R : class
        {
            var p = new Pending<R> { Rejects = rejects };
            Pending old;
            lock (_lock)
            {
                _pending.TryGetValue(id, out old);
                _pending[id] = p;
            }
            if (old != null)
                Finish(old).Fail(new InvalidOperationException("another request was sent with the id " + id));
            if (timeout != Timeout.InfiniteTimeSpan)
                p.Timer = new Timer(_ => Expire(id, p, false), null, timeout, Timeout.InfiniteTimeSpan);
            if (cancellation.CanBeCanceled)
                p.Cancellation = cancellation.Register(() => Expire(id, p, true));
            return p.Answer.Task;
        }

        /// <summary>Fails the registered request of <paramref name="id"/> whose sending failed.</summary>
        public void Fail(Guid id, Exception why)
        {
            Pending p = Take(id, null);
            if (p != null)
                Finish(p).Fail(why);
        }

        /// <summary>Completes the pending request of <paramref name="id"/> with <paramref name="value"/> when it is
        /// its response, or fails it when it is one of its rejects; a <paramref name="global"/> reject (listed as
        /// <c>*E</c>) fails the request of that id whatever its type. Returns whether a request took the value
        /// (generated clients hand the others on as notifications).</summary>
        public bool Answer(Guid id, object value, bool global)
        {
            Pending p;
            bool response;
            lock (_lock)
            {
                if (!_pending.TryGetValue(id, out p))
                    return false;
                response = p.IsResponse(value);
                if (!response && !global && !p.IsReject(value))
                    return false;
                _pending.Remove(id);
            }
            Finish(p);
            if (response)
                p.Complete(value);
            else
                p.Fail(new RejectException(value));
            return true;
        }

        /// <summary>Fails every pending request with an <see cref="OperationCanceledException"/>: the connection
        /// closed, or the client starts over.</summary>
        public void Reset()
        {
            FailAll(new OperationCanceledException("client reset: the request was not answered"));
        }

        /// <summary>Fails every pending request with an <see cref="IOException"/> of <paramref name="reason"/>: why
        /// the stream ended (the other end's model notice, naming both models: docs/format.md 7.4).</summary>
        public void End(string reason)
        {
            FailAll(new IOException(reason));
        }

        private void FailAll(Exception why)
        {
            List<Pending> all;
            lock (_lock)
            {
                all = new List<Pending>(_pending.Values);
                _pending.Clear();
            }
            foreach (var p in all)
                Finish(p).Fail(why);
        }

        private Pending Take(Guid id, Pending only)
        {
            lock (_lock)
            {
                Pending p;
                if (!_pending.TryGetValue(id, out p) || (only != null && p != only))
                    return null;
                _pending.Remove(id);
                return p;
            }
        }

        private void Expire(Guid id, Pending p, bool canceled)
        {
            if (Take(id, p) == null)
                return;
            p.Timer?.Dispose();
            if (canceled)
                p.Cancel();
            else
            {
                p.Cancellation.Dispose();
                p.Fail(new TimeoutException("request " + id + " timed out"));
            }
        }

        /// <summary>Stops the timer and the cancellation of a request no longer pending.</summary>
        private static Pending Finish(Pending p)
        {
            p.Timer?.Dispose();
            p.Cancellation.Dispose();
            return p;
        }
    }
}
