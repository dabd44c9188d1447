// The runtime's own pieces (runtime/csharp): errors, decimals, uuids, strings, limits.

using System;
using System.Collections.Generic;
using System.Linq;
using Fbe;
using NUnit.Framework;

namespace Fbe.Tests
{
    [TestFixture]
    public class RuntimeTest
    {
        [Test]
        public void ErrorsNameTypeFieldAndOffset()
        {
            var e = new DecodeException("string of 9 bytes beyond the end of the buffer", "symbol", 120)
                .InIndex(2).InField("orders").Within("proto.Account");
            Assert.AreEqual("string of 9 bytes beyond the end of the buffer (proto.Account.orders[2].symbol, offset 120)", e.Message);
            Assert.AreEqual("orders[2].symbol", e.Path);
            var s = new DecodeException("struct offset 0", "", 20).InField("wallet").Within("proto.Account");
            Assert.AreEqual("struct offset 0 (proto.Account.wallet, offset 20)", s.Message);
        }

        [Test]
        public void LimitsAreTheDocumentedNumbers()
        {
            var d = Limits.Default;
            Assert.AreEqual(new long[] { 128, 8, 4096, 67108864 }, new[] { d.MaxDepth, d.BudgetFactor, d.BudgetSlack, d.MaxFrameSize });
            Assert.AreEqual(4192, d.Budget(12));
        }

        private static byte[] Wire(decimal v)
        {
            var b = new byte[16];
            Decimals.Write(v, b, 0);
            return b;
        }

        [Test]
        public void DecimalsAreWrittenWithoutTrailingZeros()
        {
            Assert.AreEqual(Wire(1.5m), Wire(1.50m));
            Assert.AreEqual(new byte[16], Wire(-0.00m));
            Assert.AreEqual(new byte[] { 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0x80 }, Wire(-1.5m));
            Assert.AreEqual(-1.5m, Decimals.Read(Wire(-1.5m), 0, "d"));
        }

        [Test]
        public void DecimalsWithReservedFlagsAreRefused()
        {
            var b = Wire(1m);
            b[14] = 29;
            Assert.AreEqual("decimal scale 29 above 28 (d, offset 0)", Assert.Throws<DecodeException>(() => Decimals.Read(b, 0, "d")).Message);
            b[14] = 1;
            b[12] = 1;
            Assert.AreEqual("decimal flags 0x00010001: reserved bits set (d, offset 0)",
                Assert.Throws<DecodeException>(() => Decimals.Read(b, 0, "d")).Message);
        }

        [Test]
        public void UuidsAreTheBytesOfTheirText()
        {
            var b = new byte[16];
            Uuid.Write(new Guid("123e4567-e89b-12d3-a456-426655440000"), b, 0);
            Assert.AreEqual(new byte[] { 0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0, 0 }, b);
            Assert.AreEqual(new Guid("123e4567-e89b-12d3-a456-426655440000"), Uuid.Read(b, 0));
            Assert.Less(Uuid.Compare(new Guid("00000001-0000-0000-0000-000000000000"), new Guid("00000100-0000-0000-0000-000000000000")), 0);
        }

        [Test]
        public void StringsKeepBytesThatAreNotUtf8()
        {
            var bytes = new byte[] { 0x41, 0xC3, 0xA9, 0xC0, 0xAF, 0xFF };
            string s = Utf8.Decode(bytes, 0, bytes.Length);
            Assert.AreEqual("A\u00e9\udcc0\udcaf\udcff", s);
            Assert.AreEqual(bytes, Utf8.Bytes(s));
            Assert.AreEqual(new byte[] { 0xF0, 0x9F, 0x98, 0x80 }, Utf8.Bytes("\U0001F600"));
            Assert.Throws<EncodeException>(() => Utf8.Bytes("\ud800"));
            StringAssert.Contains("lone surrogate U+D83D", Assert.Throws<EncodeException>(() => new JsonBuilder().String("x\ud83d")).Message);
            StringAssert.Contains("lone surrogate U+DE00", Assert.Throws<EncodeException>(() => new JsonBuilder().String("\ude00x")).Message);
        }

        [Test]
        public void CharsOrderAsSignedBytes()
        {
            Assert.Less(Keys.Char.Compare(0x80, 0x01), 0);
            Assert.Less(Keys.Char.Compare(0xC8, 0x7F), 0);
            Assert.AreEqual(0, Keys.Double.Compare(-0.0, 0.0));
            Assert.Greater(Keys.Double.Compare(double.NaN, double.PositiveInfinity), 0);
        }

        [Test]
        public void FloatsPrintAsCsG()
        {
            var cases = new object[]
            {
                1000.0, "1000", 1.23456, "1.23456", 1e10, "1e+10", 123456.0, "123456", 1234567.0, "1.23457e+06",
                0.0001, "0.0001", 0.00001234, "1.234e-05", -1.5, "-1.5", 0.30000000000000004, "0.3",
                5e-324, "4.94066e-324", double.MaxValue, "1.79769e+308", 999999.5, "1e+06",
                double.NegativeInfinity, "-inf", -0.0, "-0", (double)123.456f, "123.456",
            };
            for (int i = 0; i < cases.Length; i += 2)
                Assert.AreEqual(cases[i + 1], Numbers.G((double)cases[i]), "%g of " + cases[i]);
            Assert.AreEqual("-123.456000", Numbers.Fixed(Numbers.ToDouble(-123.456m), 6));
            Assert.AreEqual("0.125000", Numbers.Fixed(0.125, 6));
            Assert.AreEqual("0.000000", Numbers.Fixed(0.0000004, 6));
            Assert.AreEqual("2.5", Numbers.Fixed(2.45, 1));   // 2.45 is 2.4500000000000001776...
        }

        [Test]
        public void DoublesAreWrittenInRapidJsonMastersDigits()
        {
            var cases = new object[]
            {
                1000.0, "1000.0", 1.23456, "1.23456", 1e-7, "1e-7", 1e21, "1e21", 1e23, "9.999999999999999e22",
                4.04925338542625e16, "40492533854262496.0", 0.30000000000000004, "0.30000000000000004",
                5e-324, "5e-324", double.MaxValue, "1.7976931348623157e308", 9007199254740992.0, "9007199254740992.0",
                (double)123.456f, "123.45600128173828", (double)0.1f, "0.10000000149011612", 0.000001234, "0.000001234",
                -0.0, "-0.0", 100000000000000000000.0, "100000000000000000000.0", -1e-7, "-1e-7", -0.000001234, "-0.000001234",
                -123.456, "-123.456", -4.04925338542625e16, "-40492533854262496.0", -5e-324, "-5e-324", -1e300, "-1e300",
            };
            for (int i = 0; i < cases.Length; i += 2)
            {
                Assert.AreEqual(cases[i + 1], Dtoa.ToJson((double)cases[i]), "the JSON of " + cases[i]);
                var d = new JsonBuilder();
                d.Double((double)cases[i]);
                Assert.AreEqual(cases[i + 1], d.ToString(), "the JSON written of " + cases[i]);
            }
            var j = new JsonBuilder();
            j.Double(double.NaN);
            j.String("a\"\u0001\u00e9\udcff\U0001F600");
            j.Decimal(-123.456m);
            j.Decimal(0.1234567890123456789012345678m);
            Assert.AreEqual("\"NaN\"\"a\\\"\\u0001\u00e9\\udcff\U0001F600\"\"-123.456000\"\"0.1234567890123456789012345678\"", j.ToString());
        }

        [Test]
        public void SerializingAListIntoAReusedWriterAllocatesNothing()
        {
            // issue 27: a serialize into a reused buffer allocates nothing (a boxed enumerator was 40 bytes)
            Assert.AreEqual(0, BytesAllocatedBySerializing(Codecs.Vector(Codecs.Int32), new List<int> { 1, 2, 3 }));
        }

        /// <summary>The bytes allocated by 20,000 serializes of <paramref name="v"/> in both models into a reused Writer,
        /// after a warm-up.</summary>
        private static long BytesAllocatedBySerializing<T>(Codec<T> codec, T v)
        {
            var w = new Writer();
            return BytesAllocatedBy(() => Serialize(codec, w, v));
        }

        /// <summary>The bytes allocated by 20,000 calls of <paramref name="write"/>, after a warm-up.</summary>
        private static long BytesAllocatedBy(Action write)
        {
            for (int i = 0; i < 100; i++)
                write();
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 20000; i++)
                write();
            return GC.GetAllocatedBytesForCurrentThread() - before;
        }

        [Test]
        public void IntegersAreWrittenAsTheirDigits()
        {
            var j = new JsonBuilder();
            Codecs.Int64.Json(j, long.MinValue);
            Codecs.UInt64.Json(j, ulong.MaxValue);
            Codecs.SByte.Json(j, sbyte.MinValue);
            Codecs.Byte.Json(j, byte.MaxValue);
            Codecs.Int32.Json(j, 0);
            Codecs.Int16.Json(j, -1);
            Codecs.Int64.JsonKey(j, long.MaxValue);
            Codecs.UInt64.JsonKey(j, ulong.MaxValue);
            Codecs.Int32.JsonKey(j, -42);
            Assert.AreEqual("-922337203685477580818446744073709551615-128255" + "0-1" +
                "\"9223372036854775807\":\"18446744073709551615\":\"-42\":", j.ToString());
        }

        [Test]
        public void WritingJsonIntoAReusedBuilderAllocatesNothing()
        {
            // issue 27: every integer went through BigInteger.ToString and every double through a string, decimals and
            // uuids still did
            var j = new JsonBuilder();
            var orders = Codecs.Vector(Codecs.Int32);
            var ids = new List<int> { 1, -2, 3 };
            var blob = new byte[] { 0, 1, 2, 250, 251 };
            var uuid = new Guid("123e4567-e89b-12d3-a456-426655440000");
            Action write = () =>
            {
                j.Reset();
                Codecs.Int32.Json(j, -123456);
                Codecs.Byte.Json(j, 7);
                Codecs.UInt64.Json(j, ulong.MaxValue);
                Codecs.Int64.JsonKey(j, long.MinValue);
                Codecs.Timestamp.Json(j, new Timestamp(1234567890123456789));
                Codecs.Double.Json(j, 123.456);
                Codecs.Double.Json(j, -1e-7);
                Codecs.Double.Json(j, 5.0);
                Codecs.Double.Json(j, double.NaN);
                Codecs.String.Json(j, "EURUSD");
                Codecs.String.Json(j, "\u00e9\u20ac\U0001F600");
                Codecs.Bytes.Json(j, blob);
                Codecs.Decimal.Json(j, -123.4500m);
                Codecs.Decimal.JsonKey(j, 0.000001m);
                Codecs.Guid.Json(j, uuid);
                Codecs.Guid.JsonKey(j, uuid);
                orders.Json(j, ids);
            };
            Assert.AreEqual(0, BytesAllocatedBy(write));
        }

        [Test]
        public void UuidsAndDecimalsAreWrittenAndComparedAsTheirBytesWithoutAllocating()
        {
            // issue 27: Uuid.Write and Compare went through Guid.ToByteArray, Uuid.Read through a byte[16],
            // Decimals.Write through decimal.GetBits: an array per value on every serialize
            var rnd = new Random(27);
            var bytes = new byte[16];
            for (int i = 0; i < 1000; i++)
            {
                rnd.NextBytes(bytes);
                var a = new Guid(bytes);
                rnd.NextBytes(bytes);
                var b = new Guid(i % 3 == 0 ? a.ToByteArray() : bytes);
                if (i % 5 == 0)
                    b = new Guid(a.ToString().Substring(0, 30) + b.ToString().Substring(30));
                var wire = new byte[16];
                Uuid.Write(a, wire, 0);
                Assert.AreEqual(a.ToString("N"), BitConverter.ToString(wire).Replace("-", "").ToLowerInvariant());
                Assert.AreEqual(a, Uuid.Read(wire, 0));
                var j = new JsonBuilder();
                j.Guid(a);
                Assert.AreEqual("\"" + a.ToString("D") + "\"", j.ToString());
                Assert.AreEqual(Math.Sign(string.CompareOrdinal(a.ToString(), b.ToString())), Math.Sign(Uuid.Compare(a, b)), a + " against " + b);
            }
            var g = new Guid("123e4567-e89b-12d3-a456-426655440000");
            Assert.AreEqual(0, BytesAllocatedBySerializing(Codecs.Guid, g));
            Assert.AreEqual(0, BytesAllocatedBySerializing(Codecs.Decimal, -123.4500m));
            var w = new Writer();
            Serialize(Codecs.Guid, w, g);
            int order = 0;
            Assert.AreEqual(0, BytesAllocatedBy(() =>
            {
                order += Keys.Guid.Compare(g, Guid.Empty);
                order += Reader.GetGuid(w.Buffer, 8) == g ? 1 : 0;
            }));
            Assert.AreEqual(40200, order);
        }

        [Test]
        public void DecimalsInJsonAreTheirExactTextPaddedToSixFractionDigits()
        {
            // the digits are written straight into the builder: checked against decimal.ToString of the wire's value
            var rnd = new Random(27);
            var cases = new List<decimal>
            {
                0m, -0m, 0.000m, 1m, -1m, 1.10m, 0.005m, -0.0000001m, 123.456789m, 1234567.1234567m, decimal.MaxValue,
                decimal.MinValue, 0.0000000000000000000000000001m, -7.9228162514264337593543950335m, 100m, 1e20m,
            };
            for (int i = 0; i < 2000; i++)
                cases.Add(new decimal(rnd.Next(), i % 2 == 0 ? rnd.Next() : 0, i % 3 == 0 ? rnd.Next() : 0, i % 7 == 0, (byte)rnd.Next(29)));
            foreach (decimal v in cases)
            {
                var j = new JsonBuilder();
                j.Decimal(v);
                string text = Decimals.Read(Wire(v), 0, "").ToString(System.Globalization.CultureInfo.InvariantCulture);
                int point = text.IndexOf('.');
                int fraction = point < 0 ? 0 : text.Length - point - 1;
                string expected = "\"" + (point < 0 ? text + "." : text) + new string('0', Math.Max(0, 6 - fraction)) + "\"";
                Assert.AreEqual(expected, j.ToString(), "the JSON of " + v.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        [Test]
        public void NumbersAreReadAsTheNearestDouble()
        {
            // 15 significant digits or fewer and a power of ten up to 22 are gathered into a long; the rest exactly (the
            // subnormal as its bits: mcs reads that literal one ulp low, as Mono's double.Parse does; Python's float agrees)
            var cases = new object[]
            {
                "0", 0.0, "0.000", 0.0, "1.23456", 1.23456, "1000.0", 1000.0, "0.000123", 0.000123, "0.1", 0.1,
                "123456789012345", 123456789012345.0, "1234567890123456", 1234567890123456.0, "12345678901234.50", 12345678901234.5,
                "9007199254740993", 9007199254740992.0, "1e22", 1e22, "1e23", 1e23, "12.5e-3", 0.0125, "5E+2", 500.0,
                "1.5e-22", 1.5e-22, "1.5e-23", 1.5e-23, "2.2250738585072014e-308", 2.2250738585072014e-308,
                "1.7976931348623157e308", 1.7976931348623157e308, "1.06099789553e-313", BitConverter.Int64BitsToDouble(0x500000001), "1e400", double.PositiveInfinity,
            };
            for (int i = 0; i < cases.Length; i += 2)
                Assert.AreEqual(BitConverter.DoubleToInt64Bits((double)cases[i + 1]), BitConverter.DoubleToInt64Bits(Numbers.ParseDouble((string)cases[i])),
                    "the double of " + cases[i]);
        }

        [Test]
        public void SerializingEveryKindOfFieldIntoAReusedWriterAllocatesNothing()
        {
            // issue 27: schemas/tests/everything.fbe's struct of every type (its collections empty: a non-empty sorted set's
            // or map's enumerator allocates its stack), in both models and as JSON; an empty sorted one allocated too
            var v = new global::Everything.Everything { F24 = new byte[] { 1, 2 }, F33 = "s", F35 = new global::Everything.Counted(), F31 = 3 };
            v.F38.Add(0.5);
            v.F39.Add(new global::Everything.Counted { A = 7 });
            v.F45[new Guid("123e4567-e89b-12d3-a456-426655440000")] = new byte[] { 3 };
            var w = new Writer();
            var j = new JsonBuilder();
            Action write = () =>
            {
                v.WriteFbe(w);
                v.WriteFinal(w);
                global::Everything.Everything.Model.Instance.WriteJson(j, v);
            };
            Assert.AreEqual(0, BytesAllocatedBy(write));
        }

        /// <summary>Decimals.TryParse as it was written with a Regex and BigInteger: the oracle of the test below.</summary>
        private static bool ReferenceTryParse(string s, out decimal value, out string error)
        {
            Func<string, string> quoted = t => "\"" + (t.Length <= 32 ? t + "\"" : t.Substring(0, 32) + "\"...");
            value = 0m;
            error = null;
            if (s.Length > Decimals.MaxText)
            {
                error = "decimal text longer than 64 characters: " + quoted(s);
                return false;
            }
            var m = System.Text.RegularExpressions.Regex.Match(s, @"^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$");
            if (!m.Success || m.Groups[2].Length + m.Groups[3].Length == 0)
            {
                error = "invalid decimal " + quoted(s);
                return false;
            }
            string digits = (m.Groups[2].Value + m.Groups[3].Value).TrimStart('0');
            var exponent = m.Groups[4].Success ? System.Numerics.BigInteger.Parse(m.Groups[4].Value) : 0;
            long scale = m.Groups[3].Length - (long)System.Numerics.BigInteger.Max(-100000, System.Numerics.BigInteger.Min(100000, exponent));
            if (digits.Length == 0)
                return true;
            int zeros = digits.Length - digits.TrimEnd('0').Length;
            digits = digits.Substring(0, digits.Length - zeros);
            scale -= zeros;
            if (scale > 28)
            {
                error = "decimal " + quoted(s) + " has more than 28 fraction digits";
                return false;
            }
            var magnitude = digits.Length - scale > 29 ? System.Numerics.BigInteger.One << 96 : System.Numerics.BigInteger.Parse(digits);
            if (scale < 0)
            {
                magnitude *= System.Numerics.BigInteger.Pow(10, (int)-scale);
                scale = 0;
            }
            if (magnitude >= System.Numerics.BigInteger.One << 96)
            {
                error = "decimal " + quoted(s) + " out of range: more than 96 bits";
                return false;
            }
            value = new decimal((int)(uint)(magnitude & uint.MaxValue), (int)(uint)((magnitude >> 32) & uint.MaxValue),
                (int)(uint)(magnitude >> 64), m.Groups[1].Value == "-", (byte)scale);
            return true;
        }

        [Test]
        public void DecimalTextIsReadExactlyOrRefused()
        {
            // Decimals.TryParse gathers the digits into 96 bits as it reads them: the same verdicts, values and errors as
            // the Regex and BigInteger reader it replaced, over texts made of a decimal's characters
            var rnd = new Random(27);
            const string alphabet = "0000000123456789....eE+-x";
            var cases = new List<string> { "", "0", "-0", "+.5", ".", "1.", "1.e5", "1e28", "9e28", "79228162514264337593543950335",
                "79228162514264337593543950336", "0.0000000000000000000000000001", "0.00000000000000000000000000001", "1e-28", "1e-29",
                "123.4500", "-0.000", "1e100000000000", "1e-100000000000", "5E+2", "e5", "1e", "1e+", "--1", new string('9', 65) };
            for (int i = 0; i < 20000; i++)
            {
                var t = new System.Text.StringBuilder();
                int length = rnd.Next(i % 10 == 0 ? 70 : 20);
                for (int k = 0; k < length; k++)
                    t.Append(k == 0 && rnd.Next(3) == 0 ? '-' : alphabet[rnd.Next(alphabet.Length)]);
                cases.Add(t.ToString());
            }
            Func<int, string> digits = max => string.Concat(Enumerable.Repeat(0, rnd.Next(max)).Select(_ => (char)('0' + rnd.Next(10))));
            for (int i = 0; i < 20000; i++)     // of the grammar: [-]digits[.digits][e[-]digits]
                cases.Add((rnd.Next(2) == 0 ? "-" : "") + digits(31) + (rnd.Next(2) == 0 ? "." + digits(31) : "") +
                          (rnd.Next(3) == 0 ? "e" + (rnd.Next(2) == 0 ? "-" : "") + digits(3) : ""));
            int read = 0;
            foreach (string text in cases)
            {
                decimal expected, actual;
                string expectedError, actualError;
                bool ok = ReferenceTryParse(text, out expected, out expectedError);
                Assert.AreEqual(ok, Decimals.TryParse(text, out actual, out actualError), text);
                Assert.AreEqual(expectedError, actualError, text);
                Assert.AreEqual(decimal.GetBits(expected), decimal.GetBits(actual), text);
                read += ok ? 1 : 0;
            }
            Assert.Greater(read, 10000, "texts read as decimals");
        }

        [Test]
        public void SerializingAHashIntoAReusedWriterAllocatesNothing()
        {
            // a foreach over the codec's ICollection boxed the dictionary's enumerator on every write
            var codec = Codecs.Hash(Codecs.Int32, Codecs.String, EqualityComparer<int>.Default);
            Assert.AreEqual(0, BytesAllocatedBySerializing(codec, new Dictionary<int, string> { { 1, "a" }, { 2, "b" } }));
        }

        [Test]
        public void AFinalRootInAReusedWriterIsTheFreshWritersBytes()
        {
            // Append stores fixed values into bytes it does not clear first: every byte must be written again
            var codec = Codecs.Vector(Codecs.Bool);
            var w = new Writer();
            w.BeginFinal();
            Codecs.Vector(Codecs.Int64).Append(w, new List<long> { -1, -1, -1, -1 });
            w.EndFinal(1);
            var v = new List<bool> { false, true, false, false, false, false, false, false, false, false, false, false };
            w.BeginFinal();
            codec.Append(w, v);
            w.EndFinal(1);
            var fresh = new Writer();
            fresh.BeginFinal();
            codec.Append(fresh, v);
            fresh.EndFinal(1);
            Assert.AreEqual(fresh.ToArray(), w.ToArray());
        }

        private static void Serialize<T>(Codec<T> codec, Writer w, T v)
        {
            w.BeginVersioned();
            codec.Put(w, 0, 4, v);
            w.EndVersioned();
            w.BeginFinal();
            codec.Append(w, v);
            w.EndFinal(1);
        }

        [Test]
        public void WriterRefusesStructsNestedTooDeep()
        {
            var w = new Writer(2);
            w.Enter("a");
            w.Enter("b");
            Assert.AreEqual("structs nested deeper than 2 (c)", Assert.Throws<EncodeException>(() => w.Enter("c")).Message);
        }
    }
}
