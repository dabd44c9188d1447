// The protocol streams of ../shared/vectors (MANIFEST.json "protocol": the original's Sender sending
// OrderMessage, BalanceMessage, AccountMessage in both models) through the runtime's Receiver and Sender with
// fbec --csharp's proto messages: read whole, in 1-byte and in random chunks, each message's text as the original's
// Receiver printed it, and sent again byte for byte.

using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Text;
using Fbe;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace Fbe.Tests
{
    public sealed class StreamCase
    {
        public string Name;
        public bool Final;
        public byte[] Stream;
        public string[] Text;
        public Assembly Generated;

        public override string ToString() { return Name; }
    }

    [TestFixture]
    public class ProtocolTest
    {
        public static IEnumerable<StreamCase> Streams()
        {
            string shared = Environment.GetEnvironmentVariable("SHARED") ?? Path.GetFullPath("../shared");
            string manifest = Path.Combine(shared, "vectors", "MANIFEST.json");
            string dll = Path.Combine(Path.GetDirectoryName(typeof(ProtocolTest).Assembly.Location), "Shared.dll");
            if (!File.Exists(manifest) || !File.Exists(dll))
                yield break;
            Assembly generated = Assembly.LoadFrom(dll);
            foreach (JToken p in JObject.Parse(File.ReadAllText(manifest))["protocol"])
            {
                string folder = Path.Combine(shared, "vectors");
                yield return new StreamCase
                {
                    Name = (string)p["name"],
                    Final = ((string)p["kind"]).EndsWith("final", StringComparison.Ordinal),
                    Stream = File.ReadAllBytes(Path.Combine(folder, (string)p["file"])),
                    Text = File.ReadAllText(Path.Combine(folder, (string)p["text_file"]), Encoding.UTF8)
                        .TrimEnd('\n').Split('\n'),
                    Generated = generated,
                };
            }
        }

        private static readonly string[] Messages = { "OrderMessage", "BalanceMessage", "AccountMessage" };

        private static object Model(StreamCase c, string message)
        {
            Type t = c.Generated.GetType("Proto." + message, true);
            return t.GetNestedType("Model").GetField("Instance").GetValue(null);
        }

        private static List<object> Receive(StreamCase c, Func<int, int> chunk)
        {
            var received = new List<object>();
            var r = new Receiver(c.Final, Limits.Default) { Message = (name, v) => received.Add(v), Error = e => Assert.Fail(e) };
            foreach (string m in Messages)
            {
                object model = Model(c, m);
                Type type = model.GetType();
                uint id = (uint)type.GetProperty("TypeId").GetValue(model, null);
                MethodInfo read = type.GetMethod(c.Final ? "FromFinal" : "FromFbe", new[] { typeof(byte[]), typeof(int), typeof(Limits) });
                r.Register(id, m, (b, n, l) =>
                {
                    try { return read.Invoke(model, new object[] { b, n, l }); }
                    catch (TargetInvocationException e) { throw e.InnerException; }
                });
            }
            for (int i = 0; i < c.Stream.Length;)
            {
                int n = Math.Min(chunk(i), c.Stream.Length - i);
                r.Receive(c.Stream, i, n);
                i += n;
            }
            return received;
        }

        [TestCaseSource("Streams")]
        public void ReadsTheStreamInChunksOfAnySize(StreamCase c)
        {
            var rnd = new Random(3);
            foreach (var chunk in new Func<int, int>[] { i => c.Stream.Length, i => 1, i => 1 + rnd.Next(40) })
            {
                var received = Receive(c, chunk);
                Assert.AreEqual(c.Text.Length, received.Count);
                for (int k = 0; k < received.Count; k++)
                    Assert.AreEqual(c.Text[k], received[k].ToString(), "message " + k);
            }
        }

        private readonly List<object> _received = new List<object>();

        public void Collect<T>(T message) { _received.Add(message); }

        [TestCaseSource("Streams")]
        public void TheGeneratedReceiverRaisesAnEventPerMessage(StreamCase c)
        {
            // fbec --csharp --proto's Proto.Receiver: OnOrderMessage, OnBalanceMessage, OnAccountMessage
            Type receiverType = c.Generated.GetType("Proto.Receiver", true);
            object receiver = Activator.CreateInstance(receiverType, c.Final, Limits.Default);
            _received.Clear();
            foreach (string m in Messages)
            {
                EventInfo e = receiverType.GetEvent("On" + m);
                MethodInfo collect = GetType().GetMethod("Collect").MakeGenericMethod(c.Generated.GetType("Proto." + m, true));
                e.AddEventHandler(receiver, Delegate.CreateDelegate(e.EventHandlerType, this, collect));
            }
            for (int i = 0; i < c.Stream.Length; i++)
                receiverType.GetMethod("Receive").Invoke(receiver, new object[] { c.Stream, i, 1 });
            Assert.AreEqual(c.Text.Length, _received.Count);
            for (int k = 0; k < _received.Count; k++)
                Assert.AreEqual(c.Text[k], _received[k].ToString(), "message " + k);
        }

        /// <summary>What a Receiver of the proto messages did with <paramref name="stream"/> fed in chunks of
        /// <paramref name="chunk"/>(offset) bytes: each message's text, each error's reason.</summary>
        public static List<string> Events(StreamCase c, byte[] stream, Func<int, int> chunk)
        {
            var events = new List<string>();
            var r = new Receiver(c.Final, Limits.Default) { Message = (name, v) => events.Add(v.ToString()), Error = e => events.Add("error: " + e) };
            foreach (string m in Messages)
            {
                object model = Model(c, m);
                Type type = model.GetType();
                MethodInfo read = type.GetMethod(c.Final ? "FromFinal" : "FromFbe", new[] { typeof(byte[]), typeof(int), typeof(Limits) });
                r.Register((uint)type.GetProperty("TypeId").GetValue(model, null), m, (b, n, l) =>
                {
                    try { return read.Invoke(model, new object[] { b, n, l }); }
                    catch (TargetInvocationException e) { throw e.InnerException; }
                });
            }
            for (int i = 0; i < stream.Length;)
            {
                int n = Math.Min(chunk(i), stream.Length - i);
                r.Receive(stream, i, n);
                i += n;
            }
            return events;
        }

        /// <summary>The seeded mutation suite of the receiver: 500 mutations of each stream (bytes replaced, bits
        /// flipped, cut short, frames repeated) read whole and in 1-byte and random chunks give the same events,
        /// and nothing but a reported error comes out of a bad frame.</summary>
        [TestCaseSource("Streams")]
        public void MutatedStreamsGiveTheSameEventsInAnyChunks(StreamCase c)
        {
            var rnd = new Random(11);
            int errors = 0;
            for (int k = 0; k < 500; k++)
            {
                var b = new List<byte>(c.Stream);
                switch (k % 4)
                {
                    case 0: b[rnd.Next(b.Count)] = (byte)rnd.Next(256); break;
                    case 1: b[rnd.Next(b.Count)] ^= (byte)(1 << rnd.Next(8)); break;
                    case 2:
                        int at = rnd.Next(b.Count);
                        b.RemoveRange(at, Math.Min(b.Count - at, 1 + rnd.Next(8)));
                        break;
                    default: b.AddRange(c.Stream); b[rnd.Next(b.Count)] = (byte)rnd.Next(256); break;
                }
                byte[] stream = b.ToArray();
                var whole = Events(c, stream, i => stream.Length);
                Assert.AreEqual(whole, Events(c, stream, i => 1), "mutation " + k + " in 1-byte chunks");
                var chunks = new Random(k);
                Assert.AreEqual(whole, Events(c, stream, i => 1 + chunks.Next(64)), "mutation " + k + " in random chunks");
                errors += whole.FindAll(e => e.StartsWith("error: ", StringComparison.Ordinal)).Count;
            }
            Assert.Greater(errors, 0, "no mutation was reported");
        }

        [TestCaseSource("Streams")]
        public void SendsTheStreamAgain(StreamCase c)
        {
            var sent = new MemoryStream();
            var sender = new Sender(c.Final, (b, offset, count) =>
            {
                int take = Math.Min(count, 50);     // a transport that takes at most 50 bytes a call
                sent.Write(b, offset, take);
                return take;
            });
            foreach (object v in Receive(c, i => c.Stream.Length))
            {
                object model = Model(c, v.GetType().Name);
                MethodInfo send = typeof(Sender).GetMethod("Send").MakeGenericMethod(v.GetType());
                send.Invoke(sender, new[] { model, v });
            }
            while (sender.Pending > 0)
                sender.Flush();
            Assert.AreEqual(c.Stream, sent.ToArray());
        }
    }
}
