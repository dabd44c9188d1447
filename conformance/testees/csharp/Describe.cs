// Value descriptions (../shared/vectors/README.md "Value descriptions") to and from final roots, walked with the
// IR of the schemas (fbec --ir): the testee's own encoder and decoder of the final model, so that a value enters and
// leaves the generated code through its FromFinal and ToFinal.

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Numerics;
using System.Text;
using Fbe;
using Newtonsoft.Json.Linq;

namespace Fbe.Conformance
{
    /// <summary>
    /// A value a description holds that C#'s types cannot (a decimal beyond 96 bits) or that the final root it becomes
    /// cannot (null where the type has none, a lone surrogate that stands for no byte): refused as a writer refuses it,
    /// naming the field path (".priceVector[1]"), built on the way up (testee_protocol.md).
    /// </summary>
    internal sealed class Unheld : Exception
    {
        public Unheld(string message, string path = "") : base(message) { Path = path; }

        public string Path { get; }

        public Unheld Within(string step) { return new Unheld(Message, step + Path); }
    }

    internal sealed class Describe
    {
        private readonly Dictionary<string, JToken> _structs = new Dictionary<string, JToken>();

        /// <summary>Each package's Receiver table (the IR's dispatch: its own messages, then its imports').</summary>
        public readonly Dictionary<string, JToken> Dispatch = new Dictionary<string, JToken>();

        public void AddIr(JObject ir)
        {
            foreach (JToken p in ir["packages"])
            {
                foreach (JToken s in p["structs"])
                    _structs[(string)s["qualified"]] = s;
                Dispatch[(string)p["name"]] = p["dispatch"];
            }
        }

        // ------------------------------------------------------------ description -> final root

        public byte[] Encode(JToken value, string qualified, uint typeId)
        {
            var o = new MemoryStream();
            o.Write(new byte[8], 0, 8);
            Struct(o, value, qualified);
            byte[] b = o.ToArray();
            BitConverter.GetBytes((uint)b.Length).CopyTo(b, 0);
            BitConverter.GetBytes(typeId).CopyTo(b, 4);
            return b;
        }

        private void Struct(MemoryStream o, JToken v, string qualified)
        {
            foreach (JToken f in _structs[qualified]["all_fields"])
            {
                string name = (string)f["name"];
                try { Value(o, v[name], f["type"]); }
                catch (Unheld e) { throw e.Within("." + name); }
            }
        }

        // An element's value, named "[i]" (a map entry's key and value: "[i].key", "[i].value") in what it refuses.
        private void Item(MemoryStream o, JToken v, JToken t, string step)
        {
            try { Value(o, v, t); }
            catch (Unheld e) { throw e.Within(step); }
        }

        private static void Put(MemoryStream o, byte[] b) { o.Write(b, 0, b.Length); }

        private static BigInteger Int(JToken v)
        {
            return BigInteger.Parse(v.Type == JTokenType.String ? (string)v : v.ToString(Newtonsoft.Json.Formatting.None), CultureInfo.InvariantCulture);
        }

        private static void Integer(MemoryStream o, BigInteger v, int size)
        {
            var b = new byte[size];
            BigInteger x = v < 0 ? (BigInteger.One << (8 * size)) + v : v;
            for (int i = 0; i < size; i++)
            {
                b[i] = (byte)(x & 0xFF);
                x >>= 8;
            }
            Put(o, b);
        }

        private static readonly Dictionary<string, int> Sizes = new Dictionary<string, int>
        {
            { "bool", 1 }, { "byte", 1 }, { "char", 1 }, { "int8", 1 }, { "uint8", 1 }, { "int16", 2 }, { "uint16", 2 },
            { "int32", 4 }, { "uint32", 4 }, { "wchar", 4 }, { "int64", 8 }, { "uint64", 8 }, { "timestamp", 8 },
        };

        private void Value(MemoryStream o, JToken v, JToken t)
        {
            if ((v == null || v.Type == JTokenType.Null) && (string)t["kind"] != "optional")
                throw new Unheld("expected " + (string)t["name"] + ", got null");     // no FromFinal gives null
            switch ((string)t["kind"])
            {
                case "struct":
                    Struct(o, v, (string)t["name"]);
                    return;
                case "enum":
                case "flags":
                    Integer(o, Int(v), Sizes[(string)t["wire"]]);
                    return;
                case "optional":
                    bool present = v != null && v.Type != JTokenType.Null;
                    o.WriteByte(present ? (byte)1 : (byte)0);
                    if (present)
                        Value(o, v, t["element"]);
                    return;
                case "array":
                {
                    int i = 0;
                    foreach (JToken x in v)
                        Item(o, x, t["element"], "[" + i++ + "]");
                    return;
                }
                case "vector":
                case "list":
                case "set":
                {
                    Integer(o, ((JArray)v).Count, 4);
                    int i = 0;
                    foreach (JToken x in v)
                        Item(o, x, t["element"], "[" + i++ + "]");
                    return;
                }
                case "map":
                case "hash":
                {
                    Integer(o, ((JArray)v).Count, 4);
                    int i = 0;
                    foreach (JToken x in v)
                    {
                        Item(o, x[0], t["key"], "[" + i + "].key");
                        Item(o, x[1], t["value"], "[" + i++ + "].value");
                    }
                    return;
                }
            }
            string name = (string)t["name"];
            switch (name)
            {
                case "bool": o.WriteByte((bool)v ? (byte)1 : (byte)0); return;
                case "float": Put(o, BitConverter.GetBytes((float)Real(v))); return;
                case "double": Put(o, BitConverter.GetBytes(Real(v))); return;
                case "decimal":
                    decimal d;
                    string error;
                    if (!Decimals.TryParse((string)v, out d, out error))
                        throw new Unheld(error);        // a C# decimal holds 96 bits
                    var w = new byte[16];
                    Decimals.Write(d, w, 0);
                    Put(o, w);
                    return;
                case "string":
                    byte[] s;
                    try { s = Utf8.Bytes((string)v); }
                    catch (EncodeException e) { throw new Unheld(e.Message); }     // a lone surrogate that stands for no byte
                    Integer(o, s.Length, 4);
                    Put(o, s);
                    return;
                case "bytes":
                    string hex = (string)v;
                    var bytes = new byte[hex.Length / 2];
                    for (int i = 0; i < bytes.Length; i++)
                        bytes[i] = byte.Parse(hex.Substring(2 * i, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                    Integer(o, bytes.Length, 4);
                    Put(o, bytes);
                    return;
                case "uuid":
                    var u = new byte[16];
                    Uuid.Write(new Guid((string)v), u, 0);
                    Put(o, u);
                    return;
                default:
                    Integer(o, Int(v), Sizes[name]);
                    return;
            }
        }

        /// <summary>
        /// A float or double of a description: a number, or its text as a string (Testee.QuotedReals; "-0" is
        /// negative zero), read correctly rounded (Fbe.Numbers.ParseDouble).
        /// </summary>
        private static double Real(JToken v)
        {
            if (v.Type != JTokenType.String)
                return (double)v;
            string text = (string)v;
            if (text == "-0")
                return -0.0;
            bool negative = text.StartsWith("-", StringComparison.Ordinal);
            double d = Numbers.ParseDouble(negative ? text.Substring(1) : text);
            return negative ? -d : d;
        }

        // ------------------------------------------------------------ final root -> description

        public JToken Decode(byte[] root, string qualified)
        {
            int p = 8;
            return Struct(root, ref p, qualified);
        }

        private JObject Struct(byte[] b, ref int p, string qualified)
        {
            var o = new JObject { { "@type", qualified } };
            foreach (JToken f in _structs[qualified]["all_fields"])
                o[(string)f["name"]] = Value(b, ref p, f["type"]);
            return o;
        }

        private static BigInteger Integer(byte[] b, ref int p, int size, bool signed)
        {
            BigInteger x = 0;
            for (int i = size - 1; i >= 0; i--)
                x = (x << 8) | b[p + i];
            p += size;
            if (signed && x >= BigInteger.One << (8 * size - 1))
                x -= BigInteger.One << (8 * size);
            return x;
        }

        private static JToken Number(BigInteger v, bool wide) { return wide ? (JToken)v.ToString(CultureInfo.InvariantCulture) : new JValue((long)v); }

        private static bool Signed(string name) { return name.StartsWith("int", StringComparison.Ordinal); }

        private JToken Value(byte[] b, ref int p, JToken t)
        {
            switch ((string)t["kind"])
            {
                case "struct":
                    return Struct(b, ref p, (string)t["name"]);
                case "enum":
                case "flags":
                    string wire = (string)t["wire"];
                    return Number(Integer(b, ref p, Sizes[wire], Signed(wire)), Sizes[wire] == 8);
                case "optional":
                    return b[p++] == 0 ? JValue.CreateNull() : Value(b, ref p, t["element"]);
                case "array":
                    var a = new JArray();
                    for (int i = 0; i < (int)t["length"]; i++)
                        a.Add(Value(b, ref p, t["element"]));
                    return a;
                case "vector":
                case "list":
                case "set":
                    var v = new JArray();
                    for (long n = (long)Integer(b, ref p, 4, false); n > 0; n--)
                        v.Add(Value(b, ref p, t["element"]));
                    return v;
                case "map":
                case "hash":
                    var m = new JArray();
                    for (long n = (long)Integer(b, ref p, 4, false); n > 0; n--)
                    {
                        JToken k = Value(b, ref p, t["key"]);
                        m.Add(new JArray(k, Value(b, ref p, t["value"])));
                    }
                    return m;
            }
            string name = (string)t["name"];
            switch (name)
            {
                case "bool": return new JValue(b[p++] != 0);
                case "float":
                    float f = BitConverter.ToSingle(b, p);
                    p += 4;
                    return new JValue(double.Parse(Shortest(f), CultureInfo.InvariantCulture));
                case "double":
                    double d = BitConverter.ToDouble(b, p);
                    p += 8;
                    return new JValue(d);
                case "decimal":
                    decimal x = Decimals.Read(b, p, "");
                    p += 16;
                    return new JValue(x.ToString(CultureInfo.InvariantCulture));
                case "string":
                case "bytes":
                    int n = (int)Integer(b, ref p, 4, false);
                    string text = name == "string" ? Encoding.UTF8.GetString(b, p, n) : BitConverter.ToString(b, p, n).Replace("-", "").ToLowerInvariant();
                    if (name == "string")
                        text = Utf8.Decode(b, p, n);
                    p += n;
                    return new JValue(text);
                case "uuid":
                    Guid g = Uuid.Read(b, p);
                    p += 16;
                    return new JValue(g.ToString("D"));
                default:
                    return Number(Integer(b, ref p, Sizes[name], Signed(name)), Sizes[name] == 8);
            }
        }

        /// <summary>The shortest text of a float that reads back to it, the closest of that length: the float's exact
        /// value (a double) rounded to 1, 2... significant digits until it reads back.</summary>
        private static string Shortest(float f)
        {
            if (float.IsNaN(f) || float.IsInfinity(f))
                return f.ToString(CultureInfo.InvariantCulture);
            for (int digits = 1; digits < 10; digits++)
            {
                string s = ((double)f).ToString("E" + (digits - 1), CultureInfo.InvariantCulture);
                if ((float)double.Parse(s, CultureInfo.InvariantCulture) == f)
                    return s;
            }
            return ((double)f).ToString("R", CultureInfo.InvariantCulture);
        }
    }
}
