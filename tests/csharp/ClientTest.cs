// The generated Client and Proxy of fbec --csharp --proto (schemas/tests/everything.fbe, docs/format.md 7.5 and 7.6) on
// the runtime's Requests: responses matched by id, rejects, timeouts, cancellation, a closed connection, a failed send.

using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Everything;
using NUnit.Framework;

namespace Fbe.Tests
{
    using Receiver = Everything.Receiver;   // not Fbe's, which the namespace would give
    using Sender = Everything.Sender;

    [TestFixture]
    public class ClientTest
    {
        /// <summary>A client talking to a server over a loopback transport: what the client sends reaches the server's
        /// receiver, which keeps the requests; what the server's sender sends reaches the client.</summary>
        private sealed class Loopback
        {
            public readonly Client Client;
            public readonly Receiver Server;
            public readonly Sender Reply;
            public readonly List<PlaceOrder> Orders = new List<PlaceOrder>();
            public readonly List<Ping> Pings = new List<Ping>();
            public readonly List<object> Notified = new List<object>();

            public Loopback(bool final)
            {
                Client = new Client(final, Limits.Default, (b, offset, count) =>
                {
                    Server.Receive(b, offset, count);
                    return count;
                });
                Server = new Receiver(final, Limits.Default);
                Server.OnPlaceOrder += Orders.Add;
                Server.OnPing += Pings.Add;
                Reply = new Sender(final, (b, offset, count) =>
                {
                    Client.Receive(b, offset, count);
                    return count;
                });
                Client.OnAccepted += Notified.Add;
                Client.OnRejected += Notified.Add;
                Client.OnMarketFailure += Notified.Add;
            }
        }

        private static readonly TimeSpan Long = TimeSpan.FromSeconds(30);

        /// <summary>How long a test waits for a task to end, in milliseconds: the outcome is asserted, not the speed, on
        /// a loaded machine.</summary>
        internal const int Wait = 30000;

        /// <summary>The exception the task ended with (its first), after waiting for it at most <see cref="Wait"/>.</summary>
        internal static Exception Failure(Task task)
        {
            Assert.AreEqual(0, Task.WaitAny(new[] { task }, Wait), "the task did not end");
            Assert.IsTrue(task.IsFaulted, "the task did not fail: " + task.Status);
            return task.Exception.InnerException;
        }

        private static T Result<T>(Task<T> task)
        {
            Assert.AreEqual(0, Task.WaitAny(new Task[] { task }, Wait), "the task did not end");
            return task.Result;
        }

        [Test]
        public void ResponsesAreMatchedByTheirId([Values(false, true)] bool final)
        {
            var l = new Loopback(final);
            var a = new PlaceOrder { Id = Guid.NewGuid() };
            var b = new PlaceOrder { Id = Guid.NewGuid() };
            Task<Accepted> ta = l.Client.RequestAsync(a, Long), tb = l.Client.RequestAsync(b, Long);
            Assert.AreEqual(new[] { a.Id, b.Id }, l.Orders.ConvertAll(o => o.Id));
            Assert.AreEqual(2, l.Client.PendingRequests);
            var stranger = new Accepted { Id = Guid.NewGuid() };
            l.Reply.Send(stranger);
            l.Reply.Send(new Accepted { Id = b.Id });
            Assert.AreEqual(b.Id, Result(tb).Id);
            Assert.IsFalse(ta.IsCompleted);
            l.Reply.Send(new Accepted { Id = a.Id });
            Assert.AreEqual(a.Id, Result(ta).Id);
            Assert.AreEqual(0, l.Client.PendingRequests);
            Assert.AreEqual(1, l.Notified.Count, "an answer of no pending request is a notification");
            Assert.AreEqual(stranger.Id, ((Accepted)l.Notified[0]).Id);
        }

        [Test]
        public void ARejectOfItsIdFailsTheRequest([Values(false, true)] bool final)
        {
            var l = new Loopback(final);
            var a = new PlaceOrder { Id = Guid.NewGuid() };
            var b = new PlaceOrder { Id = Guid.NewGuid() };
            Task<Accepted> ta = l.Client.RequestAsync(a, Long), tb = l.Client.RequestAsync(b, Long);
            l.Reply.Send(new Rejected { Id = a.Id, Reason = "closed market" });
            var e = (RejectException)Failure(ta);
            Assert.AreEqual("closed market", ((Rejected)e.Value).Reason);
            StringAssert.Contains("closed market", e.Message);
            l.Reply.Send(new Market.Failure { Id = b.Id, Reason = "down" });
            Assert.AreEqual("down", ((Market.Failure)((RejectException)Failure(tb)).Value).Reason);
            Assert.AreEqual(0, l.Notified.Count);
            Assert.AreEqual(0, l.Client.PendingRequests);
        }

        [Test]
        public void ARequestTimesOut()
        {
            var l = new Loopback(false);
            var a = new PlaceOrder { Id = Guid.NewGuid() };
            Task<Accepted> ta = l.Client.RequestAsync(a, TimeSpan.FromMilliseconds(50));
            Assert.IsInstanceOf<TimeoutException>(Failure(ta));
            Assert.AreEqual(0, l.Client.PendingRequests);
            l.Reply.Send(new Accepted { Id = a.Id });
            Assert.AreEqual(1, l.Notified.Count, "a late response is a notification");
        }

        [Test]
        public void ARequestIsCanceled()
        {
            var l = new Loopback(false);
            var cancel = new CancellationTokenSource();
            Task<Accepted> ta = l.Client.RequestAsync(new PlaceOrder { Id = Guid.NewGuid() }, Long, cancel.Token);
            cancel.Cancel();
            Assert.AreNotEqual(-1, Task.WaitAny(new Task[] { ta }, Wait));
            Assert.IsTrue(ta.IsCanceled);
            Assert.AreEqual(0, l.Client.PendingRequests);
        }

        [Test]
        public void AClosedConnectionFailsThePendingRequests([Values(false, true)] bool final)
        {
            var l = new Loopback(final);
            Task<Accepted> ta = l.Client.RequestAsync(new PlaceOrder { Id = Guid.NewGuid() }, Long);
            l.Client.Reset();
            Assert.IsInstanceOf<OperationCanceledException>(Failure(ta));
            // the other end's model notice: it reads the other model and refused our frame
            ta = l.Client.RequestAsync(new PlaceOrder { Id = Guid.NewGuid() }, Long);
            var errors = new List<string>();
            l.Client.OnError += errors.Add;
            l.Client.Receive(BitConverter.GetBytes(final ? 1u : 2u), 0, 4);
            var e = Failure(ta);
            Assert.IsInstanceOf<IOException>(e);
            StringAssert.Contains("start both ends with the same model", e.Message);
            Assert.AreEqual(new[] { e.Message }, errors);
            Assert.IsTrue(l.Client.Receiver.Stopped);
        }

        [Test]
        public void AFailedSendFailsTheRequest()
        {
            var client = new Client(false, Limits.Default, (b, offset, count) => { throw new IOException("connection reset"); });
            var e = Failure(client.RequestAsync(new PlaceOrder { Id = Guid.NewGuid() }, Long));
            Assert.AreEqual("connection reset", e.Message);
            Assert.AreEqual(0, client.PendingRequests);
        }

        [Test]
        public void ARequestWithoutResponseIsSent()
        {
            var l = new Loopback(true);
            l.Client.Request(new Ping { Sequence = 7 });
            Assert.AreEqual(7, l.Pings[0].Sequence);
            Assert.AreEqual(0, l.Client.PendingRequests);
        }

        [Test]
        public void ASecondRequestWithTheSameIdFailsTheFirst()
        {
            var l = new Loopback(false);
            var id = Guid.NewGuid();
            Task<Accepted> first = l.Client.RequestAsync(new PlaceOrder { Id = id }, Long);
            Task<Accepted> second = l.Client.RequestAsync(new PlaceOrder { Id = id }, Long);
            Assert.IsInstanceOf<InvalidOperationException>(Failure(first));
            l.Reply.Send(new Accepted { Id = id });
            Assert.AreEqual(id, Result(second).Id);
        }

        [Test]
        public void AProxyRaisesVerifiedFramesUndecoded()
        {
            var frames = new List<byte[]>();
            var errors = new List<string>();
            var proxy = new Proxy(Limits.Default);
            proxy.OnPlaceOrderFrame += frames.Add;
            proxy.OnError += errors.Add;
            var sent = new MemoryStream();
            var sender = new Sender(false, (b, offset, count) =>
            {
                sent.Write(b, offset, count);
                return count;
            });
            sender.Send(new PlaceOrder { Id = Guid.NewGuid() });
            byte[] frame = sent.ToArray();
            byte[] bad = (byte[])frame.Clone();
            bad[bad.Length - 1] = 0xff;     // the instrument's struct offset beyond the frame
            bad[bad.Length - 2] = 0xff;
            foreach (var stream in new[] { frame, bad, frame })
                for (int i = 0; i < stream.Length; i++)
                    proxy.Receive(stream, i, 1);
            Assert.AreEqual(2, frames.Count);
            Assert.AreEqual(frame, frames[0]);
            Assert.AreEqual(1, errors.Count, string.Join("; ", errors));
        }
    }
}
