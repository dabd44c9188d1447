// A request whose response has no id field (tests/java/generated/requests.fbe, the schema of Java's and Kotlin's
// RequestsTest): the generated Client waits for that response all the same (docs/format.md 7.6; base.client_answers
// decides it for every target, as Go's and TypeScript's Clients do). RequestAsync gives a Task that stays pending until
// its timeout, its cancellation or Reset(); the response, which carries no id to match it by, goes to its event.

using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Fbe.Tests
{
    using Ask = Requests_.Ask;
    using Client = Requests_.Client;
    using Pong = Requests_.Pong;
    using Receiver = Requests_.Receiver;
    using Sender = Requests_.Sender;

    [TestFixture]
    public class RequestsTest
    {
        [Test]
        public void WaitsForAResponseWithoutId([Values(false, true)] bool final)
        {
            var asked = new List<Ask>();
            var server = new Receiver(final, Limits.Default);
            server.OnAsk += asked.Add;
            var client = new Client(final, Limits.Default, (b, offset, count) =>
            {
                server.Receive(b, offset, count);
                return count;
            });
            var pongs = new List<Pong>();
            client.OnPong += pongs.Add;
            var ask = new Ask();
            Task<Pong> pong = client.RequestAsync(ask, Timeout.InfiniteTimeSpan);
            Assert.AreEqual(new[] { ask.Id }, asked.ConvertAll(a => a.Id), "sent");
            Assert.AreEqual(1, client.PendingRequests, "pending");

            var reply = new Sender(final, (b, offset, count) =>
            {
                client.Receive(b, offset, count);
                return count;
            });
            reply.Send(new Pong { N = 7 });
            Assert.AreEqual(1, pongs.Count, "the response without id goes to its event");
            Assert.AreEqual(7, pongs[0].N);
            Assert.IsFalse(pong.IsCompleted, "still pending: nothing answered it");
            Assert.AreEqual(1, client.PendingRequests, "still pending");

            client.Reset();
            Assert.IsInstanceOf<OperationCanceledException>(ClientTest.Failure(pong), "reset");
            var late = client.RequestAsync(new Ask(), TimeSpan.FromMilliseconds(50));
            Assert.IsInstanceOf<TimeoutException>(ClientTest.Failure(late), "timeout");
            var cancel = new CancellationTokenSource();
            Task<Pong> canceled = client.RequestAsync(new Ask(), Timeout.InfiniteTimeSpan, cancel.Token);
            cancel.Cancel();
            Assert.AreEqual(0, Task.WaitAny(new Task[] { canceled }, ClientTest.Wait), "the task did not end");
            Assert.IsTrue(canceled.IsCanceled, "canceled: " + canceled.Status);
            Assert.AreEqual(0, client.PendingRequests, "nothing pending");
        }
    }
}
