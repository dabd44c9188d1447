using System;
using System.Globalization;

namespace Fbe
{
    /// <summary>
    /// Compact JSON in the original's exact bytes (docs/format.md 8): RapidJSON's string escapes, RapidJSON master's
    /// number digits (Dtoa), decimals as their exact text padded to 6 fraction digits, bytes as Base64, uuids as
    /// their text; a byte of a string that is not part of valid UTF-8 as the escape \udcXY (docs/limits.md 7), so the
    /// output is valid UTF-8. Generated code writes a struct through its Model (<c>Model.Instance.Json(j, v)</c>).
    /// </summary>
    public sealed class JsonBuilder
    {
        private const string HexUpper = "0123456789ABCDEF";
        private const string HexLower = "0123456789abcdef";
        private byte[] _buf = new byte[256];
        private char[] _chars = new char[0];
        private readonly byte[] _scratch = new byte[32];    // a decimal's digits, a uuid's bytes
        private int _size;
        private int _depth;

        public JsonBuilder() : this(Limits.DefaultMaxDepth) { }

        /// <summary>A builder refusing structs nested deeper than <paramref name="maxDepth"/> (docs/limits.md 1).</summary>
        public JsonBuilder(int maxDepth) { MaxDepth = maxDepth; }

        public int MaxDepth { get; }

        /// <summary>The UTF-8 text written so far.</summary>
        public byte[] ToArray()
        {
            var b = new byte[_size];
            Buffer.BlockCopy(_buf, 0, b, 0, _size);
            return b;
        }

        /// <summary>The text as a string (it is valid UTF-8).</summary>
        public override string ToString() { return Utf8.Decode(_buf, 0, _size); }

        /// <summary>Empties the builder, keeping its buffer.</summary>
        public void Reset()
        {
            _size = 0;
            _depth = 0;
        }

        /// <summary>One struct level deeper; refused beyond MaxDepth.</summary>
        public void Enter(string typeName)
        {
            if (_depth >= MaxDepth)
                throw new EncodeException(ErrorKind.Depth, "structs nested deeper than " + MaxDepth + " (" + typeName + ")", "");
            _depth++;
        }

        public void Leave() { _depth--; }

        private void Reserve(int n)
        {
            if (_size + n > _buf.Length)
                Array.Resize(ref _buf, Math.Max(_size + n, _buf.Length * 2));
        }

        /// <summary>ASCII text as it is.</summary>
        public void Raw(string ascii)
        {
            Reserve(ascii.Length);
            foreach (char c in ascii)
                _buf[_size++] = (byte)c;
        }

        public void Raw(char c)
        {
            Reserve(1);
            _buf[_size++] = (byte)c;
        }

        public void Null() { Raw("null"); }
        public void Bool(bool v) { Raw(v ? "true" : "false"); }
        /// <summary>An integer's decimal digits, written straight into the buffer.</summary>
        public void Integer(long v)
        {
            Reserve(20);
            if (v < 0)
                _buf[_size++] = (byte)'-';
            _size = Dtoa.Digits(v < 0 ? (ulong)-(v + 1) + 1 : (ulong)v, _buf, _size);
        }

        public void Unsigned(ulong v)
        {
            Reserve(20);
            _size = Dtoa.Digits(v, _buf, _size);
        }

        /// <summary>A double in RapidJSON master's digits; NaN and infinities as the strings "NaN", "Infinity", "-Infinity".</summary>
        public void Double(double v)
        {
            bool quoted = double.IsNaN(v) || double.IsInfinity(v);
            if (quoted)
                Raw('"');
            Reserve(Dtoa.MaxLength);
            _size = Dtoa.Write(v, _buf, _size);
            if (quoted)
                Raw('"');
        }

        /// <summary>A decimal as a string of its exact value, padded to at least 6 fraction digits ("123.456000"): the
        /// wire's value (no trailing fraction zeros) in digits written straight into the buffer.</summary>
        public void Decimal(decimal v)
        {
            uint lo, mid, hi;
            int scale;
            bool negative;
            Decimals.Trimmed(v, out lo, out mid, out hi, out scale, out negative);
            int n = 0;    // the (at most 29) digits, last first
            do
                _scratch[n++] = (byte)('0' + Decimals.DivRem10(ref lo, ref mid, ref hi));
            while ((lo | mid | hi) != 0);
            Reserve(n + scale + 12);
            _buf[_size++] = (byte)'"';
            if (negative)
                _buf[_size++] = (byte)'-';
            if (n <= scale)
            {
                _buf[_size++] = (byte)'0';
                _buf[_size++] = (byte)'.';
                for (int zeros = scale - n; zeros > 0; zeros--)
                    _buf[_size++] = (byte)'0';
            }
            for (int k = n - 1; k >= 0; k--)
            {
                if (k == scale - 1 && n > scale)
                    _buf[_size++] = (byte)'.';
                _buf[_size++] = _scratch[k];
            }
            if (scale == 0)
                _buf[_size++] = (byte)'.';
            for (int fraction = scale; fraction < 6; fraction++)
                _buf[_size++] = (byte)'0';
            _buf[_size++] = (byte)'"';
        }

        /// <summary>A uuid as its lowercase text in quotes ("00112233-4455-..."), through the wire's bytes.</summary>
        public void Guid(Guid v)
        {
            Uuid.Write(v, _scratch, 0);
            Reserve(38);
            _buf[_size++] = (byte)'"';
            for (int i = 0; i < 16; i++)
            {
                if (i == 4 || i == 6 || i == 8 || i == 10)
                    _buf[_size++] = (byte)'-';
                _buf[_size++] = (byte)HexLower[_scratch[i] >> 4];
                _buf[_size++] = (byte)HexLower[_scratch[i] & 15];
            }
            _buf[_size++] = (byte)'"';
        }

        /// <summary>Bytes as a Base64 string, through a scratch array the builder keeps.</summary>
        public void Bytes(byte[] v)
        {
            int n = (v.Length + 2) / 3 * 4;
            if (_chars.Length < n)
                _chars = new char[Math.Max(n, _chars.Length * 2)];
            Convert.ToBase64CharArray(v, 0, v.Length, _chars, 0);
            Raw('"');
            Reserve(n);
            for (int i = 0; i < n; i++)
                _buf[_size++] = (byte)_chars[i];
            Raw('"');
        }

        /// <summary>A string literal: ", \ and control characters escaped as RapidJSON escapes them, other characters
        /// as their UTF-8, a byte held as U+DC80..U+DCFF as \udcXY.</summary>
        public void String(string s)
        {
            Raw('"');
            for (int i = 0; i < s.Length; i++)
            {
                char c = s[i];
                if (c < 0x80)
                {
                    switch (c)
                    {
                        case '"': Raw("\\\""); break;
                        case '\\': Raw("\\\\"); break;
                        case '\b': Raw("\\b"); break;
                        case '\f': Raw("\\f"); break;
                        case '\n': Raw("\\n"); break;
                        case '\r': Raw("\\r"); break;
                        case '\t': Raw("\\t"); break;
                        default:
                            if (c < 0x20)
                                Raw("\\u00" + HexUpper[c >> 4] + HexUpper[c & 15]);
                            else
                                Raw(c);
                            break;
                    }
                }
                else if (c >= 0xDC80 && c <= 0xDCFF)
                    Raw("\\udc" + HexLower[(c >> 4) & 15] + HexLower[c & 15]);
                else
                {
                    Reserve(4);
                    _size = Utf8.Put(s, ref i, _buf, _size);
                }
            }
            Raw('"');
        }

        // ------------------------------------------------------------ map keys: a member name and its colon

        public void KeyString(string k) { String(k); Raw(':'); }
        public void KeyInteger(long k)
        {
            Raw('"');
            Integer(k);
            Raw("\":");
        }

        public void KeyUnsigned(ulong k)
        {
            Raw('"');
            Unsigned(k);
            Raw("\":");
        }
        public void KeyBool(bool k) { Raw(k ? "\"1\":" : "\"0\":"); }
        public void KeyDecimal(decimal k) { Decimal(k); Raw(':'); }
        public void KeyGuid(Guid k) { Guid(k); Raw(':'); }
        public void KeyBytes(byte[] k) { Bytes(k); Raw(':'); }

        /// <summary>A float or double key: C's %f when it reads back to the same value, else RapidJSON's digits.</summary>
        public void KeyDouble(double k, bool single)
        {
            string text = Dtoa.ToJson(k);
            if (!double.IsNaN(k) && !double.IsInfinity(k))
            {
                string f = Numbers.Fixed(k, 6);
                double back = double.Parse(f, CultureInfo.InvariantCulture);
                bool same = single ? (float)back == (float)k : back == k;
                if (same && (BitConverter.DoubleToInt64Bits(back) < 0) == (BitConverter.DoubleToInt64Bits(k) < 0))
                    text = f;
            }
            Raw("\"" + text + "\":");
        }
    }
}
