using System;
using System.Globalization;
using System.Numerics;
using System.Runtime.InteropServices;
using System.Text;

namespace Fbe
{
    /// <summary>The bits of a float (BitConverter has no such method on .NET Framework).</summary>
    public static class Bits
    {
        [StructLayout(LayoutKind.Explicit)]
        private struct Union
        {
            [FieldOffset(0)] public float F;
            [FieldOffset(0)] public uint U;
        }

        public static uint SingleToUInt32(float v) { var u = new Union { F = v }; return u.U; }
        public static float UInt32ToSingle(uint v) { var u = new Union { U = v }; return u.F; }
    }

    /// <summary>
    /// A timestamp: nanoseconds since 1970-01-01 00:00:00 UTC as the format holds them (docs/format.md 2.2),
    /// convertible to and from DateTime (whose ticks are 100 ns: ToDateTime drops the last two digits).
    /// </summary>
    public struct Timestamp : IEquatable<Timestamp>, IComparable<Timestamp>
    {
        private static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        public Timestamp(ulong nanoseconds) { Nanoseconds = nanoseconds; }

        /// <summary>Nanoseconds since the epoch.</summary>
        public ulong Nanoseconds { get; }

        /// <summary>The time now (the schema's <c>utc</c>).</summary>
        public static Timestamp Utc() { return FromDateTime(DateTime.UtcNow); }

        public static Timestamp FromDateTime(DateTime t)
        {
            long ticks = t.ToUniversalTime().Ticks - Epoch.Ticks;
            return new Timestamp((ulong)ticks * 100);
        }

        public DateTime ToDateTime() { return Epoch.AddTicks((long)(Nanoseconds / 100)); }

        public bool Equals(Timestamp other) { return Nanoseconds == other.Nanoseconds; }
        public override bool Equals(object obj) { return obj is Timestamp && Equals((Timestamp)obj); }
        public override int GetHashCode() { return Nanoseconds.GetHashCode(); }
        public int CompareTo(Timestamp other) { return Nanoseconds.CompareTo(other.Nanoseconds); }
        public override string ToString() { return Nanoseconds.ToString(System.Globalization.CultureInfo.InvariantCulture); }
        public static bool operator ==(Timestamp a, Timestamp b) { return a.Nanoseconds == b.Nanoseconds; }
        public static bool operator !=(Timestamp a, Timestamp b) { return a.Nanoseconds != b.Nanoseconds; }
    }

    /// <summary>A uuid on the wire: 16 bytes in the order of its text (docs/format.md 2.3). System.Guid keeps its
    /// first three fields little-endian in ToByteArray; these convert.</summary>
    public static class Uuid
    {
        private static readonly int[] Order = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

        /// <summary>System.Guid's fields (int, short, short, then 8 bytes: .NET Framework's, .NET's and Mono's layout),
        /// read without ToByteArray's array.</summary>
        [StructLayout(LayoutKind.Explicit)]
        private struct View
        {
            [FieldOffset(0)] public Guid Value;
            [FieldOffset(0)] public uint A;
            [FieldOffset(4)] public ushort B;
            [FieldOffset(6)] public ushort C;
            [FieldOffset(8)] public ulong Tail;  // the last 8 bytes, the first of them lowest (little-endian)
        }

        /// <summary>Whether View reads this runtime's Guid as ToByteArray does (checked once; else ToByteArray is used).</summary>
        private static readonly bool Viewed = ViewIsExact();

        private static bool ViewIsExact()
        {
            var g = new Guid("00112233-4455-6677-8899-aabbccddeeff");
            var b = new byte[16];
            WriteViewed(g, b, 0);
            byte[] slow = g.ToByteArray();
            for (int i = 0; i < 16; i++)
                if (b[i] != slow[Order[i]])
                    return false;
            return true;
        }

        private static void WriteViewed(Guid v, byte[] b, int p)
        {
            var u = new View { Value = v };
            b[p] = (byte)(u.A >> 24);
            b[p + 1] = (byte)(u.A >> 16);
            b[p + 2] = (byte)(u.A >> 8);
            b[p + 3] = (byte)u.A;
            b[p + 4] = (byte)(u.B >> 8);
            b[p + 5] = (byte)u.B;
            b[p + 6] = (byte)(u.C >> 8);
            b[p + 7] = (byte)u.C;
            ulong tail = u.Tail;
            for (int i = 8; i < 16; i++, tail >>= 8)
                b[p + i] = (byte)tail;
        }

        /// <summary>Stores the 16 bytes of <paramref name="v"/> in the order of its text; allocates nothing.</summary>
        public static void Write(Guid v, byte[] b, int p)
        {
            if (Viewed)
            {
                WriteViewed(v, b, p);
                return;
            }
            byte[] g = v.ToByteArray();
            for (int i = 0; i < 16; i++)
                b[p + i] = g[Order[i]];
        }

        /// <summary>The uuid of the 16 bytes at <paramref name="p"/> (the order of its text); allocates nothing.</summary>
        public static Guid Read(byte[] b, int p)
        {
            return new Guid(b[p] << 24 | b[p + 1] << 16 | b[p + 2] << 8 | b[p + 3], (short)(b[p + 4] << 8 | b[p + 5]),
                (short)(b[p + 6] << 8 | b[p + 7]), b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15]);
        }

        /// <summary>A time-based uuid (version 1) with a random node, as the schema's <c>uuid1</c>.</summary>
        public static Guid Uuid1()
        {
            var rnd = Guid.NewGuid().ToByteArray();
            long t = (DateTime.UtcNow.Ticks - new DateTime(1582, 10, 15, 0, 0, 0, DateTimeKind.Utc).Ticks);
            var b = new byte[16];
            uint low = (uint)t;
            ushort mid = (ushort)(t >> 32);
            ushort high = (ushort)(((t >> 48) & 0x0FFF) | 0x1000);
            b[0] = (byte)(low >> 24); b[1] = (byte)(low >> 16); b[2] = (byte)(low >> 8); b[3] = (byte)low;
            b[4] = (byte)(mid >> 8); b[5] = (byte)mid; b[6] = (byte)(high >> 8); b[7] = (byte)high;
            b[8] = (byte)((rnd[8] & 0x3F) | 0x80);
            for (int i = 9; i < 16; i++)
                b[i] = rnd[i];
            return Read(b, 0);
        }

        /// <summary>A random uuid (version 4), as the schema's <c>uuid4</c>.</summary>
        public static Guid Uuid4() { return Guid.NewGuid(); }

        /// <summary>Compares two uuids in the order of their bytes (the order of their text); allocates nothing.</summary>
        public static int Compare(Guid a, Guid b)
        {
            if (!Viewed)
            {
                byte[] x = a.ToByteArray(), y = b.ToByteArray();
                for (int i = 0; i < 16; i++)
                {
                    int c = x[Order[i]].CompareTo(y[Order[i]]);
                    if (c != 0)
                        return c;
                }
                return 0;
            }
            View u = new View { Value = a }, w = new View { Value = b };
            if (u.A != w.A)
                return u.A < w.A ? -1 : 1;
            if (u.B != w.B)
                return u.B < w.B ? -1 : 1;
            if (u.C != w.C)
                return u.C < w.C ? -1 : 1;
            for (ulong s = u.Tail, t = w.Tail; s != t; s >>= 8, t >>= 8)
            {
                int c = ((byte)s).CompareTo((byte)t);
                if (c != 0)
                    return c;
            }
            return 0;
        }
    }

    /// <summary>The format's decimal is .NET's System.Decimal (docs/format.md 2.4): these read and write its 16 bytes.</summary>
    public static class Decimals
    {
        /// <summary>Writes <paramref name="v"/> without trailing fraction zeros; zero as 16 zero bytes.</summary>
        public static void Write(decimal v, byte[] b, int p)
        {
            uint lo, mid, hi;
            int scale;
            bool negative;
            Trimmed(v, out lo, out mid, out hi, out scale, out negative);
            uint flags = (uint)scale << 16 | (negative ? 0x80000000u : 0u);
            PutU32(b, p, lo);
            PutU32(b, p + 4, mid);
            PutU32(b, p + 8, hi);
            PutU32(b, p + 12, flags);
        }

        /// <summary>System.Decimal's fields (flags, hi, lo, mid: .NET Framework's, .NET's and Mono's layout), read
        /// without decimal.GetBits's array.</summary>
        [StructLayout(LayoutKind.Explicit)]
        private struct View
        {
            [FieldOffset(0)] public decimal Value;
            [FieldOffset(0)] public int Flags;
            [FieldOffset(4)] public uint Hi;
            [FieldOffset(8)] public uint Lo;
            [FieldOffset(12)] public uint Mid;
        }

        /// <summary>Whether View reads this runtime's decimal as GetBits does (checked once; else GetBits is used).</summary>
        private static readonly bool Viewed = ViewIsExact();

        private static bool ViewIsExact()
        {
            var u = new View { Value = new decimal(0x01020304, 0x05060708, 0x090A0B0C, true, 7) };
            int[] bits = decimal.GetBits(u.Value);
            return u.Lo == (uint)bits[0] && u.Mid == (uint)bits[1] && u.Hi == (uint)bits[2] && u.Flags == bits[3];
        }

        /// <summary>The 96-bit magnitude, scale and sign of <paramref name="v"/>; allocates nothing.</summary>
        internal static void Parts(decimal v, out uint lo, out uint mid, out uint hi, out int scale, out bool negative)
        {
            int flags;
            if (Viewed)
            {
                var u = new View { Value = v };
                lo = u.Lo;
                mid = u.Mid;
                hi = u.Hi;
                flags = u.Flags;
            }
            else
            {
                int[] bits = decimal.GetBits(v);
                lo = (uint)bits[0];
                mid = (uint)bits[1];
                hi = (uint)bits[2];
                flags = bits[3];
            }
            scale = (flags >> 16) & 0xFF;
            negative = flags < 0;
        }

        /// <summary>The parts of <paramref name="v"/> as the wire holds them (docs/format.md 2.4): without trailing
        /// fraction zeros, zero as positive 0 of scale 0.</summary>
        internal static void Trimmed(decimal v, out uint lo, out uint mid, out uint hi, out int scale, out bool negative)
        {
            Parts(v, out lo, out mid, out hi, out scale, out negative);
            while (scale > 0)
            {
                // divide the 96-bit magnitude by 10 while it divides exactly
                uint l = lo, m = mid, h = hi;
                if (DivRem10(ref l, ref m, ref h) != 0)
                    break;
                lo = l;
                mid = m;
                hi = h;
                scale--;
            }
            if ((lo | mid | hi) == 0)
            {
                scale = 0;
                negative = false;
            }
        }

        /// <summary>Divides the 96-bit magnitude by 10 in place and returns the remainder.</summary>
        internal static int DivRem10(ref uint lo, ref uint mid, ref uint hi)
        {
            ulong r = hi;
            hi = (uint)(r / 10);
            r = ((r % 10) << 32) | mid;
            mid = (uint)(r / 10);
            r = ((r % 10) << 32) | lo;
            lo = (uint)(r / 10);
            return (int)(r % 10);
        }

        /// <summary>Reads a decimal at <paramref name="p"/>; flags beyond a scale 0..28 and the sign are refused.</summary>
        public static decimal Read(byte[] b, int p, string field)
        {
            uint flags = GetU32(b, p + 12);
            if ((flags & 0x7F00FFFFu) != 0)
                throw new DecodeException("decimal flags 0x" + flags.ToString("X8") + ": reserved bits set", field, p);
            int scale = (int)(flags >> 16) & 0xFF;
            if (scale > 28)
                throw new DecodeException("decimal scale " + scale + " above 28", field, p);
            return new decimal((int)GetU32(b, p), (int)GetU32(b, p + 4), (int)GetU32(b, p + 8), (flags & 0x80000000u) != 0, (byte)scale);
        }

        /// <summary>The longest decimal text read (docs/limits.md 7).</summary>
        public const int MaxText = 64;

        private static string Quoted(string s) { return "\"" + (s.Length <= 32 ? s + "\"" : s.Substring(0, 32) + "\"..."); }

        /// <summary>Reads exact decimal text <c>[+|-]digits[.digits][(e|E)[+|-]digits]</c> (docs/format.md 2.4): at
        /// most 64 characters, a value some decimal holds exactly (never rounded), without trailing fraction zeros.
        /// The digits are gathered into the 96-bit magnitude as they are read (no Regex, no BigInteger).</summary>
        public static bool TryParse(string s, out decimal value, out string error)
        {
            value = 0m;
            error = null;
            if (s.Length > MaxText)
            {
                error = "decimal text longer than " + MaxText + " characters: " + Quoted(s);
                return false;
            }
            int i = 0, n = s.Length;
            bool negative = i < n && s[i] == '-';
            if (i < n && (s[i] == '+' || s[i] == '-'))
                i++;
            int whole = i;
            while (i < n && IsDigit(s[i]))
                i++;
            int wholeEnd = i, fraction = i, fractionEnd = i;
            if (i < n && s[i] == '.')
            {
                fraction = ++i;
                while (i < n && IsDigit(s[i]))
                    i++;
                fractionEnd = i;
            }
            long exponent = 0;
            bool exponentOk = true;
            if (i < n && (s[i] == 'e' || s[i] == 'E'))
            {
                bool below = ++i < n && s[i] == '-';
                if (i < n && (s[i] == '+' || s[i] == '-'))
                    i++;
                int digits = i;
                for (; i < n && IsDigit(s[i]); i++)
                    exponent = Math.Min(exponent * 10 + (s[i] - '0'), 1000000);
                exponentOk = i > digits;
                exponent = Math.Min(exponent, 100000) * (below ? -1 : 1);
            }
            int wholeLength = wholeEnd - whole, total = wholeLength + fractionEnd - fraction;
            if (i != n || !exponentOk || total == 0)
            {
                error = "invalid decimal " + Quoted(s);
                return false;
            }
            // the digits of whole and fraction as one run: its leading zeros skipped, its trailing ones taken off the scale
            int first = 0, last = total;
            while (first < total && Digit(s, first, whole, wholeLength, fraction) == 0)
                first++;
            if (first == total)
                return true;
            while (Digit(s, last - 1, whole, wholeLength, fraction) == 0)
                last--;
            long scale = fractionEnd - fraction - exponent - (total - last);
            if (scale > 28)
            {
                error = "decimal " + Quoted(s) + " has more than 28 fraction digits";
                return false;
            }
            uint lo = 0, mid = 0, hi = 0;
            bool fits = last - first - scale <= 29;
            for (int k = first; fits && k < last; k++)
                fits = MulAdd(ref lo, ref mid, ref hi, Digit(s, k, whole, wholeLength, fraction));
            for (; fits && scale < 0; scale++)
                fits = MulAdd(ref lo, ref mid, ref hi, 0);
            if (!fits)
            {
                error = "decimal " + Quoted(s) + " out of range: more than 96 bits";
                return false;
            }
            value = new decimal((int)lo, (int)mid, (int)hi, negative, (byte)scale);
            return true;
        }

        private static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

        /// <summary>The <paramref name="k"/>th digit of the whole digits (from <paramref name="whole"/>) followed by the
        /// fraction's (from <paramref name="fraction"/>).</summary>
        private static int Digit(string s, int k, int whole, int wholeLength, int fraction)
        {
            return s[k < wholeLength ? whole + k : fraction + k - wholeLength] - '0';
        }

        /// <summary>The 96-bit magnitude times 10 plus <paramref name="d"/>; false when it no longer fits.</summary>
        private static bool MulAdd(ref uint lo, ref uint mid, ref uint hi, int d)
        {
            ulong t = (ulong)lo * 10 + (uint)d;
            lo = (uint)t;
            t = (ulong)mid * 10 + (t >> 32);
            mid = (uint)t;
            t = (ulong)hi * 10 + (t >> 32);
            hi = (uint)t;
            return t >> 32 == 0;
        }

        private static readonly double[] Pow10 =
        {
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
            1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37,
            1e38, 1e39, 1e40, 1e41, 1e42, 1e43, 1e44,
        };

        /// <summary>A decimal made from a double as the original makes one (docs/format.md 2.4): 15 significant digits.</summary>
        public static decimal FromDouble(double v)
        {
            long bits = BitConverter.DoubleToInt64Bits(v);
            int x = (int)((bits >> 52) & 0x7FF) - 1022;
            if (x < -94 || x > 96)
                return 0m;
            bool negative = bits < 0;
            double d = Math.Abs(v);
            int p = 14 - ((x * 19728) >> 16);
            if (p >= 0)
            {
                p = Math.Min(p, 28);
                d *= Pow10[p];
            }
            else if (p != -1 || d >= 1e15)
                d /= Pow10[-p];
            else
                p = 0;
            if (d < 1e14 && p < 28)
            {
                d *= 10.0;
                p++;
            }
            ulong m = (ulong)d;
            double f = d - m;
            if (f > 0.5 || f == 0.5 && (m & 1) != 0)
                m++;
            if (m == 0)
                return 0m;
            if (p < 0)
            {
                BigInteger magnitude = m * BigInteger.Pow(10, -p);
                return new decimal((int)(uint)(magnitude & uint.MaxValue), (int)(uint)((magnitude >> 32) & uint.MaxValue),
                    (int)(uint)(magnitude >> 64), negative, 0);
            }
            int allowed = Math.Min(p, 14);
            foreach (var step in new[] { new[] { 8, 100000000 }, new[] { 4, 10000 }, new[] { 2, 100 }, new[] { 1, 10 } })
            {
                if (step[0] <= allowed && m % (ulong)step[1] == 0)
                {
                    m /= (ulong)step[1];
                    p -= step[0];
                    allowed -= step[0];
                }
            }
            return new decimal((int)(uint)m, (int)(uint)(m >> 32), 0, negative, (byte)p);
        }

        private static void PutU32(byte[] b, int p, uint v)
        {
            b[p] = (byte)v; b[p + 1] = (byte)(v >> 8); b[p + 2] = (byte)(v >> 16); b[p + 3] = (byte)(v >> 24);
        }

        private static uint GetU32(byte[] b, int p)
        {
            return (uint)(b[p] | b[p + 1] << 8 | b[p + 2] << 16 | b[p + 3] << 24);
        }
    }

    /// <summary>
    /// FBE strings are bytes (docs/format.md 2.5) and may hold sequences that are not UTF-8. A string holds each byte
    /// that is not part of a valid UTF-8 sequence (0x80..0xFF) as the lone low surrogate U+DC80..U+DCFF, as Python's
    /// surrogateescape and the JSON rule of docs/limits.md 7, so every string reads and writes back to the same bytes.
    /// Any other lone surrogate stands for no byte and cannot be written (EncodeException).
    /// </summary>
    public static class Utf8
    {
        private static readonly UTF8Encoding Strict = new UTF8Encoding(false, true);

        /// <summary>The bytes <paramref name="n"/> bytes from <paramref name="from"/> as a string.</summary>
        public static string Decode(byte[] data, int from, int n)
        {
            int end = from + n, i = from;
            while (i < end && data[i] < 0x80)
                i++;
            if (i == end)
                return Encoding.ASCII.GetString(data, from, n);
            if (Valid(data, i, end))
                return Strict.GetString(data, from, n);
            var sb = new StringBuilder(n);
            for (int k = from; k < end;)
            {
                int b = data[k];
                if (b < 0x80)
                {
                    sb.Append((char)b);
                    k++;
                    continue;
                }
                int len = Sequence(data, k, end);
                if (len == 0)
                {
                    sb.Append((char)(0xDC00 | b));
                    k++;
                }
                else
                {
                    sb.Append(Strict.GetString(data, k, len));
                    k += len;
                }
            }
            return sb.ToString();
        }

        private static bool Valid(byte[] data, int i, int end)
        {
            while (i < end)
            {
                if (data[i] < 0x80)
                {
                    i++;
                    continue;
                }
                int len = Sequence(data, i, end);
                if (len == 0)
                    return false;
                i += len;
            }
            return true;
        }

        /// <summary>The length of the valid UTF-8 sequence at <paramref name="i"/> (no overlong forms, no surrogates,
        /// nothing above U+10FFFF), or 0.</summary>
        public static int Sequence(byte[] d, int i, int end)
        {
            int b0 = d[i];
            if (b0 >= 0xC2 && b0 <= 0xDF)
                return i + 1 < end && In(d[i + 1], 0x80, 0xBF) ? 2 : 0;
            if (b0 >= 0xE0 && b0 <= 0xEF)
            {
                int lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
                return i + 2 < end && In(d[i + 1], lo, hi) && In(d[i + 2], 0x80, 0xBF) ? 3 : 0;
            }
            if (b0 >= 0xF0 && b0 <= 0xF4)
            {
                int lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
                return i + 3 < end && In(d[i + 1], lo, hi) && In(d[i + 2], 0x80, 0xBF) && In(d[i + 3], 0x80, 0xBF) ? 4 : 0;
            }
            return 0;
        }

        private static bool In(byte b, int lo, int hi) { return b >= lo && b <= hi; }

        /// <summary>The number of bytes <paramref name="s"/> takes; refuses a lone surrogate that stands for no byte.</summary>
        public static int Length(string s)
        {
            int n = 0;
            for (int i = 0; i < s.Length; i++)
            {
                char c = s[i];
                if (c < 0x80)
                    n++;
                else if (c < 0x800)
                    n += 2;
                else if (char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]))
                {
                    n += 4;
                    i++;
                }
                else if (c >= 0xDC80 && c <= 0xDCFF)
                    n++;
                else if (char.IsSurrogate(c))
                    throw Lone(c);
                else
                    n += 3;
            }
            return n;
        }

        private static EncodeException Lone(char c)
        {
            return new EncodeException(ErrorKind.Invalid, "lone surrogate U+" + ((int)c).ToString("X4") + " stands for no byte", "");
        }

        /// <summary>Writes the bytes of <paramref name="s"/> at <paramref name="p"/> (Length(s) checked it).</summary>
        public static void Encode(string s, byte[] b, int p)
        {
            for (int i = 0; i < s.Length; i++)
                p = Put(s, ref i, b, p);
        }

        /// <summary>Writes the at most 4 bytes of the character <paramref name="s"/>[<paramref name="i"/>] at
        /// <paramref name="p"/>, a surrogate pair's as one (<paramref name="i"/> then at its low half), and returns the
        /// position after them; refuses a lone surrogate that stands for no byte, as Length does.</summary>
        public static int Put(string s, ref int i, byte[] b, int p)
        {
            int c = s[i];
            if (c < 0x80)
                b[p++] = (byte)c;
            else if (c < 0x800)
            {
                b[p++] = (byte)(0xC0 | c >> 6);
                b[p++] = (byte)(0x80 | c & 0x3F);
            }
            else if (char.IsHighSurrogate((char)c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]))
            {
                int cp = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
                b[p++] = (byte)(0xF0 | cp >> 18);
                b[p++] = (byte)(0x80 | (cp >> 12) & 0x3F);
                b[p++] = (byte)(0x80 | (cp >> 6) & 0x3F);
                b[p++] = (byte)(0x80 | cp & 0x3F);
            }
            else if (c >= 0xDC80 && c <= 0xDCFF)
                b[p++] = (byte)(c & 0xFF);
            else if (char.IsSurrogate((char)c))
                throw Lone((char)c);
            else
            {
                b[p++] = (byte)(0xE0 | c >> 12);
                b[p++] = (byte)(0x80 | (c >> 6) & 0x3F);
                b[p++] = (byte)(0x80 | c & 0x3F);
            }
            return p;
        }

        /// <summary>The bytes of <paramref name="s"/>.</summary>
        public static byte[] Bytes(string s)
        {
            var b = new byte[Length(s)];
            Encode(s, b, 0);
            return b;
        }
    }
}
