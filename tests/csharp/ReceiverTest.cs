// The protocol Receiver of the runtime (runtime/csharp Receiver.cs): frames split from a stream in chunks of any
// size, bad frames reported and skipped (docs/format.md 7.4, docs/limits.md 6).

using System;
using System.Collections.Generic;
using Fbe;
using NUnit.Framework;

namespace Fbe.Tests
{
    [TestFixture]
    public class ReceiverTest
    {
        /// <summary>A final frame of type <paramref name="typeId"/> with <paramref name="n"/> body bytes.</summary>
        private static byte[] Frame(uint typeId, int n)
        {
            var b = new byte[8 + n];
            BitConverter.GetBytes((uint)b.Length).CopyTo(b, 0);
            BitConverter.GetBytes(typeId).CopyTo(b, 4);
            return b;
        }

        private static List<string> Feed(byte[] stream, int chunk, Limits limits = null)
        {
            var events = new List<string>();
            var r = new Receiver(true, limits ?? Limits.Default)
            {
                Message = (name, v) => events.Add(name + ":" + v),
                Error = reason => events.Add("error: " + reason),
            };
            r.Register(1, "t.One", (b, n, l) => n);
            for (int i = 0; i < stream.Length; i += chunk)
                r.Receive(stream, i, Math.Min(chunk, stream.Length - i));
            return events;
        }

        private static byte[] Concat(params byte[][] parts)
        {
            var all = new List<byte>();
            foreach (var p in parts)
                all.AddRange(p);
            return all.ToArray();
        }

        [Test]
        public void FramesArriveInChunksOfAnySize()
        {
            byte[] stream = Concat(Frame(1, 3), Frame(1, 0), Frame(1, 100));
            foreach (int chunk in new[] { 1, 7, 64, 1000 })
                Assert.AreEqual(new[] { "t.One:11", "t.One:8", "t.One:108" }, Feed(stream, chunk), "chunks of " + chunk);
        }

        [Test]
        public void BadFramesAreReportedAndSkipped()
        {
            var events = Feed(Concat(Frame(999, 2), Frame(1, 0)), 5);
            StringAssert.StartsWith("error: no message has type id 999 (frame of 10 bytes skipped)", events[0]);
            Assert.AreEqual("t.One:8", events[1]);
            events = Feed(Concat(Frame(1, 2000), Frame(1, 0)), 3, new Limits { MaxFrameSize = 1024 });
            StringAssert.Contains("above the largest of 1024", events[0]);
            Assert.AreEqual(new[] { events[0], "t.One:8" }, events);
        }

        [Test]
        public void AServerStopsAtABadFrameAndKnowsItsKind()
        {
            var events = new List<string>();
            var r = new Receiver(true, Limits.Default) { Message = (name, v) => events.Add(name) };
            r.Error = reason =>
            {
                events.Add(r.LastError.ToString());
                r.Stop();
            };
            r.Register(1, "t.One", (b, n, l) => n);
            byte[] stream = Concat(Frame(1, 0), Frame(999, 2), Frame(1, 0), Frame(1, 5));
            r.Receive(stream, 0, stream.Length - 3);
            Assert.AreEqual(new[] { "t.One", "UnknownType" }, events, "nothing after the bad frame is read");
            Assert.IsTrue(r.Stopped);
            r.Reset();
            r.Receive(stream, 0, 11);
            Assert.AreEqual(3, r.Pending, "the bytes of the frame begun");
        }

        [Test]
        public void AModelNoticeEndsTheStream()
        {
            var events = Feed(Concat(Frame(1, 0), BitConverter.GetBytes(1u), Frame(1, 0)), 1);
            Assert.AreEqual(2, events.Count);
            StringAssert.Contains("the other end reads versioned frames and refused ours: this end sends final frames", events[1]);
        }
    }
}
