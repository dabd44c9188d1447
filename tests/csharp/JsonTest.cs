// The JSON reader's rules (docs/limits.md 7) on the runtime's codecs (runtime/csharp JsonReader.cs).

using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using Fbe;
using NUnit.Framework;

namespace Fbe.Tests
{
    [TestFixture]
    public class JsonTest
    {
        private static T Read<T>(Codec<T> codec, string json, Limits limits = null)
        {
            byte[] doc = Encoding.UTF8.GetBytes(json);
            return JsonSource.Read(doc, doc.Length, limits ?? Limits.Default, codec.FromJson);
        }

        private static string Refused<T>(Codec<T> codec, string json)
        {
            return Assert.Throws<DecodeException>(() => Read(codec, json)).Message;
        }

        private static readonly Codec<SortedDictionary<string, int>> ByName = Codecs.Map(Codecs.String, Codecs.Int32, Keys.String);
        private static readonly Codec<List<int>> Ints = Codecs.Vector(Codecs.Int32);

        [Test]
        public void NumbersReadToTheNearestDouble()
        {
            // Mono's double.Parse gives 21474836480, one ulp low (found by the fuzzer, tests/csharp/Fuzzer.cs)
            Assert.AreEqual(21474836481L, BitConverter.DoubleToInt64Bits(Read(Codecs.Double, "1.06099789553e-313")));
            Assert.AreEqual(double.Epsilon, Read(Codecs.Double, "4.9406564584124654e-324"));
            Assert.AreEqual(0.0, Read(Codecs.Double, "2.4703282292062327e-324"), "half the smallest: ties to even, 0");
            Assert.AreEqual(double.Epsilon, Read(Codecs.Double, "2.4703282292062328e-324"));
            Assert.AreEqual(double.MaxValue, Read(Codecs.Double, "1.7976931348623157e308"));
            Assert.AreEqual(9007199254740992.0, Read(Codecs.Double, "9007199254740993"), "a tie below 2^53 + 2: even");
            Assert.AreEqual(9007199254740994.0, Read(Codecs.Double, "9007199254740993." + new string('0', 900) + "1"), "the sticky digit");
            Assert.AreEqual(0.1, Read(Codecs.Double, "0.1000000000000000000000000000000000000000000000000001"));
            Refused(Codecs.Double, "1.8e308");
            var rnd = new Random(5);
            var bits = new byte[8];
            for (int k = 0; k < 20000; k++)
            {
                rnd.NextBytes(bits);
                double v = Math.Abs(BitConverter.ToDouble(bits, 0));
                if (double.IsNaN(v) || double.IsInfinity(v))
                    continue;
                Assert.AreEqual(v, Read(Codecs.Double, Dtoa.ToJson(v)), Dtoa.ToJson(v));
            }
        }

        [Test]
        public void EachObjectHasItsOwnNames()
        {
            var maps = Codecs.Vector(ByName);
            Assert.AreEqual(2, Read(maps, "[{\"a\":1},{\"a\":2}]").Count, "the set of names of an object ended is reused empty");
            StringAssert.Contains("duplicate member \"a\"", Refused(maps, "[{\"a\":1},{\"b\":2,\"a\":3,\"a\":4}]"));
        }

        [Test]
        public void ObjectsOfManyMembersHaveTheirNamesCheckedToo()
        {
            // up to 8 names are compared one by one, beyond that looked up in a set per depth
            Func<int, int, string> members = (from, n) =>
                string.Join(",", Enumerable.Range(from, n).Select(i => "\"k" + i + "\":" + i));
            var maps = Codecs.Vector(ByName);
            Assert.AreEqual(20, Read(ByName, "{" + members(0, 20) + "}").Count);
            Assert.AreEqual(2, Read(maps, "[{" + members(0, 20) + "},{" + members(0, 20) + "}]").Count, "the set is emptied with its object");
            StringAssert.Contains("duplicate member \"k0\"", Refused(ByName, "{" + members(0, 20) + ",\"k0\":1}"));
            StringAssert.Contains("duplicate member \"k2\"", Refused(ByName, "{" + members(0, 8) + ",\"k2\":1}"));
            StringAssert.Contains("duplicate member \"k7\"", Refused(ByName, "{" + members(0, 7) + ",\"k7\":1,\"k7\":2}"));
            var nested = Codecs.Map(Codecs.String, ByName, Keys.String);
            Assert.AreEqual(12, Read(nested, "{" + string.Join(",", Enumerable.Range(0, 12).Select(i => "\"n" + i + "\":{" + members(0, 10) + "}")) + "}").Count,
                "inner objects of the same names, at another depth");
            StringAssert.Contains("duplicate member \"n3\"",
                Refused(nested, "{" + string.Join(",", Enumerable.Range(0, 12).Select(i => "\"n" + i + "\":{" + members(0, 10) + "}")) + ",\"n3\":{}}"));
        }

        [Test]
        public void MapKeysReadToTheNearestDouble()
        {
            var byDouble = Codecs.Map(Codecs.Double, Codecs.Int32, Keys.Double);
            foreach (double key in Read(byDouble, "{\"1.06099789553e-313\":1}").Keys)
                Assert.AreEqual(21474836481L, BitConverter.DoubleToInt64Bits(key));
        }

        [Test]
        public void ABadEscapeIsRefused()
        {
            StringAssert.StartsWith("invalid JSON", Refused(ByName, "{\"a\\u\":1}"));     // Newtonsoft threw a FormatException
            StringAssert.Contains("control character", Refused(ByName, "{\"a\r\":1}"));
            Assert.AreEqual(2, Read(ByName, "{\r\"a\"\r:\r\n1,\"b\"\r:2}")["b"], "lines of \\r and \\r\\n");
            Assert.AreEqual(new List<int> { 1, 23, 4, 5 }, Read(Ints, "[1,\n23,\r\n4,\r5\n]"), "numbers after line breaks");
        }

        [Test]
        public void DuplicateMembersAreRefused()
        {
            Assert.AreEqual(2, Read(ByName, "{\"a\":1,\"b\":2}").Count);
            StringAssert.Contains("duplicate member \"a\"", Refused(ByName, "{\"a\":1,\"a\":2}"));
            var byInt = Codecs.Map(Codecs.Int32, Codecs.Int32, Comparer<int>.Default);
            StringAssert.Contains("two keys read as the same key", Refused(byInt, "{\"1\":1,\"01\":2}"));
            var set = Codecs.Set(Codecs.Int32, Comparer<int>.Default);
            StringAssert.Contains("two elements read as the same element", Refused(set, "[1,1]"));
        }

        [Test]
        public void OnlyJsonIsRead()
        {
            StringAssert.Contains("byte order mark", Refused(Ints, "\uFEFF[1]"));
            StringAssert.Contains("comma", Refused(Ints, "[1,]"));
            StringAssert.Contains("no JSON number", Refused(Ints, "[01]"));
            StringAssert.Contains("comments", Refused(Ints, "[1 /* c */]"));
            StringAssert.Contains("double quotes", Refused(ByName, "{'a':1}"));
            StringAssert.Contains("double quotes", Refused(ByName, "{a:1}"));
            StringAssert.Contains("Additional text", Refused(Ints, "[1] [2]"));
            var doc = new byte[] { (byte)'"', 0xC0, 0xAF, (byte)'"' };
            Assert.Throws<DecodeException>(() => JsonSource.Read(doc, doc.Length, Limits.Default, Codecs.String.FromJson));
        }

        [Test]
        public void NestingIsBoundedBeforeParsing()
        {
            string deep = new string('[', 385) + new string(']', 385);
            var e = Assert.Throws<DecodeException>(() => Read(Ints, deep));
            Assert.AreEqual(ErrorKind.Depth, e.Kind);
        }

        [Test]
        public void StringsKeepTheirBytes()
        {
            Assert.AreEqual("\udcff", Read(Codecs.String, "\"\\udcff\""));
            Assert.AreEqual("\u00e9", Read(Codecs.String, "\"\\udcc3\\udca9\""));      // bytes of UTF-8 are the character
            Assert.AreEqual("\U0001F600", Read(Codecs.String, "\"\\ud83d\\ude00\""));
            StringAssert.Contains("lone surrogate", Refused(Codecs.String, "\"\\ud800\""));
            StringAssert.Contains("lone surrogate", Refused(Codecs.String, "\"\\udc41\""));
            StringAssert.Contains("lone surrogate", Refused(ByName, "{\"\\ud800\":1}"));
        }

        [Test]
        public void NumbersKeepTheirForm()
        {
            Assert.AreEqual(long.MinValue, BitConverter.DoubleToInt64Bits(Read(Codecs.Double, "-0")));
            Assert.AreEqual(long.MinValue, BitConverter.DoubleToInt64Bits(Read(Codecs.Double, "-0.0")));
            Assert.AreEqual(0, Read(Codecs.Int32, "-0"));
            StringAssert.Contains("expected an integer", Refused(Codecs.Int32, "1.0"));
            StringAssert.Contains("out of range for int32", Refused(Codecs.Int32, "2147483648"));
            Assert.AreEqual(ulong.MaxValue, Read(Codecs.UInt64, "18446744073709551615"));
            Assert.AreEqual(3.4028234663852886e38f, Read(Codecs.Single, "3.4028234663852886e38"));
            StringAssert.Contains("out of range for float", Refused(Codecs.Single, "3.5e38"));
            Assert.IsNaN(Read(Codecs.Double, "\"NaN\""));
            Assert.AreEqual(0xC8, Read(Codecs.Char, "4294967240"));    // the original's signed char
        }

        [Test]
        public void Base64IsStrict()
        {
            Assert.AreEqual(new byte[] { 0x41 }, Read(Codecs.Bytes, "\"QQ==\""));
            foreach (string bad in new[] { "\"QR==\"", "\"QQ\"", "\"Q Q==\"", "\"QQ=\"", "\"-_==\"" })
                StringAssert.Contains("invalid base64", Refused(Codecs.Bytes, bad));
        }

        [Test]
        public void FixedArraysHaveTheirLength()
        {
            var three = Codecs.FixedArray(Codecs.Int32, 3);
            Assert.AreEqual(new[] { 1, 2, 3 }, Read(three, "[1,2,3]"));
            StringAssert.Contains("expected 3 elements, got 4", Refused(three, "[1,2,3,4]"));
            StringAssert.Contains("expected 3 elements, got 2", Refused(three, "[1,2]"));
        }

        [Test]
        public void DecimalsAreExactOrRefused()
        {
            Assert.AreEqual(1.5m, Read(Codecs.Decimal, "\"1.50\""));
            Assert.AreEqual(0.1m, Read(Codecs.Decimal, "\"0.10000000000000000000000000000000\""));
            StringAssert.Contains("has more than 28 fraction digits", Refused(Codecs.Decimal, "\"1e-29\""));
            StringAssert.Contains("out of range: more than 96 bits", Refused(Codecs.Decimal, "\"79228162514264337593543950336\""));
            StringAssert.Contains("longer than 64 characters: \"11111111111111111111111111111111\"...",
                Refused(Codecs.Decimal, "\"" + new string('1', 65) + "\""));
            Assert.AreEqual(0.1m, Read(Codecs.Decimal, "0.1"));             // a number converted as the original does
            Assert.AreEqual(-123.456m, Decimals.FromDouble(-123.456));
            Assert.AreEqual(0.333333333333333m, Decimals.FromDouble(1.0 / 3.0));
            Assert.AreEqual(0m, Decimals.FromDouble(1e-29));
            Assert.AreEqual(1m, Decimals.FromDouble(0.9999999999999999));
        }

        [Test]
        public void TheBudgetBoundsWhatIsMade()
        {
            // three int32 elements cost 12: 7 bytes of text at 2 per byte pay for them, at 1 per byte they do not
            Assert.AreEqual(3, Read(Ints, "[1,2,3]", new Limits { BudgetSlack = 0, BudgetFactor = 2 }).Count);
            var e = Assert.Throws<DecodeException>(() => Read(Ints, "[1,2,3]", new Limits { BudgetSlack = 0, BudgetFactor = 1 }));
            Assert.AreEqual(ErrorKind.Budget, e.Kind);
        }
    }
}
