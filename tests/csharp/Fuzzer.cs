// The seeded mutation fuzzer of the C# readers and receiver (docs/csharp.md "Fuzzing"): SharpFuzz, the .NET
// coverage-guided fuzzer, needs the .NET SDK and NuGet, which this machine lacks, so inputs are mutations of the golden
// vectors (both models' roots, their JSON) and of the protocol streams, drawn from a seed. Checks:
//   - a generated reader returns a value or throws DecodeException, nothing else; Verify gives its verdict and error;
//   - what reads writes back stably: its bytes read again and write the same bytes, in both models; its text prints;
//     its JSON reads back (or is refused with a DecodeException) and writes the same JSON;
//   - a mutated JSON document is read or refused with a DecodeException;
//   - a mutated stream gives the same messages and errors through a Receiver whole, in 1-byte and in random chunks.
// make test-csharp runs a short fixed-seed run (FuzzerTest); make fuzz-csharp (in make fuzz) runs it for FUZZ_SECONDS
// with a new seed (fuzz/csharp/Fuzz.cs), leaving a failing input in build/fuzz/crashes/csharp-*.

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using NUnit.Framework;

namespace Fbe.Tests
{
    /// <summary>A check that did not hold, with the input that shows it.</summary>
    public sealed class FuzzFailure : Exception
    {
        public FuzzFailure(string check, string message, byte[] input) : base(check + ": " + message)
        {
            Check = check;
            Input = input;
        }

        public string Check { get; }
        public byte[] Input { get; }
    }

    public sealed class Fuzzer
    {
        private readonly Random _rnd;
        private readonly List<VectorCase> _cases = VectorsTest.Cases().ToList();
        private readonly List<StreamCase> _streams = ProtocolTest.Streams().ToList();

        public Fuzzer(int seed)
        {
            _rnd = new Random(seed);
        }

        public int Binary { get; private set; }
        public int Refused { get; private set; }
        public int Json { get; private set; }
        public int Streams { get; private set; }

        /// <summary>Whether there is anything to fuzz (the golden vectors are there).</summary>
        public bool HasInputs { get { return _cases.Count > 0; } }

        /// <summary>One input: a mutated root (most often), JSON document or stream.</summary>
        public void Step()
        {
            int what = _rnd.Next(10);
            try
            {
                if (what < 6 || (what < 8 && _streams.Count == 0))
                    BinaryInput();
                else if (what < 8)
                    StreamInput();
                else
                    JsonInput();
            }
            catch (Exception e) when (!(e is FuzzFailure))
            {
                throw new FuzzFailure("unexpected", e.ToString(), _input);
            }
        }

        private byte[] _input;  // the input of the step

        // ------------------------------------------------------------ mutations

        private static readonly uint[] Interesting = { 0, 1, 4, 8, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff };

        /// <summary>1 to 4 mutations of <paramref name="input"/>: a byte replaced, a bit flipped, an interesting 32-bit value
        /// written (sizes, offsets, counts), cut short, bytes inserted or removed, a run copied from elsewhere.</summary>
        private byte[] Mutate(byte[] input)
        {
            var b = new List<byte>(input);
            int changes = 1 + _rnd.Next(4);
            for (int c = 0; c < changes; c++)
            {
                if (b.Count == 0)
                {
                    b.Add((byte)_rnd.Next(256));
                    continue;
                }
                int at = _rnd.Next(b.Count);
                switch (_rnd.Next(7))
                {
                    case 0: b[at] = (byte)_rnd.Next(256); break;
                    case 1: b[at] ^= (byte)(1 << _rnd.Next(8)); break;
                    case 2:
                        uint v = _rnd.Next(3) == 0 ? (uint)(b.Count + _rnd.Next(-8, 9)) : Interesting[_rnd.Next(Interesting.Length)];
                        for (int i = 0; i < 4 && at + i < b.Count; i++)
                            b[at + i] = (byte)(v >> (8 * i));
                        break;
                    case 3: b.RemoveRange(at, b.Count - at); break;
                    case 4: b.RemoveRange(at, Math.Min(b.Count - at, 1 + _rnd.Next(16))); break;
                    case 5:
                        for (int i = 1 + _rnd.Next(16); i > 0; i--)
                            b.Insert(at, (byte)_rnd.Next(256));
                        break;
                    default:
                        int from = _rnd.Next(b.Count), n = Math.Min(1 + _rnd.Next(32), b.Count - from);
                        byte[] run = b.GetRange(from, n).ToArray();
                        for (int i = 0; i < n && at + i < b.Count; i++)
                            b[at + i] = run[i];
                        break;
                }
            }
            return b.ToArray();
        }

        private static readonly string[] JsonTokens =
        {
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\udc80", "\\ud800", "0", "-0", "1e999", "-1", "0.5",
            "18446744073709551616", "true", "null", "\"x\"", "[]", "{}", "NaN", "//", "'", "\u00e9", "\xff",
        };

        private byte[] MutateJson(byte[] input)
        {
            if (_rnd.Next(3) > 0)
                return Mutate(input);
            string text = Utf8.Decode(input, 0, input.Length);
            for (int c = 1 + _rnd.Next(3); c > 0; c--)
            {
                int at = _rnd.Next(text.Length + 1);
                string token = JsonTokens[_rnd.Next(JsonTokens.Length)];
                text = _rnd.Next(2) == 0 ? text.Insert(at, token) : text.Substring(0, at) + token + text.Substring(Math.Min(text.Length, at + token.Length));
            }
            return Utf8.Bytes(text);
        }

        // ------------------------------------------------------------ checks

        /// <summary>The value <paramref name="read"/> gives, or the DecodeException's message (as a string); anything
        /// else thrown is a failure.</summary>
        private static object Attempt(string check, byte[] input, Func<object> read)
        {
            try
            {
                return read();
            }
            catch (DecodeException e)
            {
                return e.Message;
            }
            catch (Exception e)
            {
                throw new FuzzFailure(check, "threw " + e.GetType().Name + ": " + e.Message, input);
            }
        }

        private void BinaryInput()
        {
            VectorCase c = _cases[_rnd.Next(_cases.Count)];
            bool final = _rnd.Next(2) == 1;
            var roots = new Roots(c.Type);
            byte[] b = _input = Mutate(final ? c.Final : c.Versioned);
            string model = c.Name + (final ? " final" : " versioned");
            Binary++;
            object v = Attempt("read " + model, b, () => final ? roots.FromFinal(b) : roots.FromFbe(b));
            object verified = Attempt("verify " + model, b, () =>
            {
                if (final)
                    roots.VerifyFinal(b);
                else
                    roots.VerifyFbe(b);
                return null;
            });
            string error = v as string;
            if (!Equals(error, verified))
                throw new FuzzFailure("verify " + model, "verify gave " + (verified ?? "no error") + " where the read gave " + (error ?? "a value"), b);
            if (error != null)
            {
                Refused++;
                return;
            }
            foreach (bool to in new[] { false, true })
            {
                byte[] written = to ? Roots.ToFinal(v) : Roots.ToFbe(v);
                object again = Attempt("read back " + model, written, () => to ? roots.FromFinal(written) : roots.FromFbe(written));
                if (again is string)
                    throw new FuzzFailure("read back " + model, "what it wrote does not read: " + again, b);
                byte[] twice = to ? Roots.ToFinal(again) : Roots.ToFbe(again);
                if (!twice.SequenceEqual(written))
                    throw new FuzzFailure("write back " + model, "written again as " + (to ? "final" : "versioned") + " it gives other bytes", b);
            }
            v.ToString();
            string json = Roots.ToJson(v);
            byte[] utf8 = Utf8.Bytes(json);
            object back = Attempt("JSON of " + model, b, () => roots.FromJson(utf8));
            string rewritten = back is string ? json : Roots.ToJson(back);
            if (rewritten != json)
                throw new FuzzFailure("JSON of " + model, "its JSON reads back to a value of other JSON: " + Difference(json, rewritten), b);
        }

        /// <summary>Where two texts differ: a few characters of each around the first difference.</summary>
        private static string Difference(string a, string b)
        {
            int i = 0;
            while (i < a.Length && i < b.Length && a[i] == b[i])
                i++;
            int from = Math.Max(0, i - 40);
            return "..." + a.Substring(from, Math.Min(a.Length - from, 80)) + " became ..." + b.Substring(from, Math.Min(b.Length - from, 80));
        }

        private void JsonInput()
        {
            var withJson = _cases.Where(x => x.Json != null).ToList();
            VectorCase c = withJson[_rnd.Next(withJson.Count)];
            var roots = new Roots(c.Type);
            byte[] b = _input = MutateJson(c.Json);
            Json++;
            object v = Attempt("JSON " + c.Name, b, () => roots.FromJson(b));
            if (!(v is string))
                Roots.ToFbe(v);
        }

        private void StreamInput()
        {
            StreamCase c = _streams[_rnd.Next(_streams.Count)];
            byte[] stream = _input = Mutate(_rnd.Next(4) == 0 ? c.Stream.Concat(c.Stream).ToArray() : c.Stream);
            Streams++;
            List<string> whole, bytes, chunks;
            int chunkSeed = _rnd.Next();
            try
            {
                whole = ProtocolTest.Events(c, stream, i => stream.Length);
                bytes = ProtocolTest.Events(c, stream, i => 1);
                var chunk = new Random(chunkSeed);
                chunks = ProtocolTest.Events(c, stream, i => 1 + chunk.Next(64));
            }
            catch (Exception e)
            {
                throw new FuzzFailure("receive " + c.Name, "threw " + e.GetType().Name + ": " + e.Message, stream);
            }
            if (!whole.SequenceEqual(bytes) || !whole.SequenceEqual(chunks))
                throw new FuzzFailure("receive " + c.Name, "other events in other chunks", stream);
        }

        /// <summary>Runs until <paramref name="runs"/> inputs or <paramref name="seconds"/> have passed.</summary>
        public void Run(long runs, double seconds)
        {
            var clock = Stopwatch.StartNew();
            for (long n = 0; n < runs && clock.Elapsed.TotalSeconds < seconds; n++)
                Step();
        }

        public override string ToString()
        {
            return Binary + " roots (" + Refused + " refused), " + Json + " JSON documents, " + Streams + " streams";
        }
    }

    [TestFixture]
    public class FuzzerTest
    {
        /// <summary>The short fixed-seed run of make test-csharp: the same inputs every run.</summary>
        [Test]
        public void AFixedSeedRunFindsNothing()
        {
            var fuzzer = new Fuzzer(1);
            if (!fuzzer.HasInputs)
                Assert.Ignore("no golden vectors: the fuzzer has no inputs");
            try
            {
                fuzzer.Run(3000, double.MaxValue);
            }
            catch (FuzzFailure f)
            {
                Assert.Fail(f.Message + " on " + BitConverter.ToString(f.Input));
            }
            Assert.Greater(fuzzer.Refused, 0);
            Console.WriteLine("fuzzer: " + fuzzer);
        }
    }
}
