using System;
using System.Globalization;
using System.Collections.Generic;
using System.Numerics;
using System.Reflection;
using System.Text;

namespace Fbe
{
    /// <summary>
    /// The text form (docs/format.md 9): what the original's <c>operator&lt;&lt;</c> prints, as bytes (strings and chars
    /// print their raw bytes). Generated code writes a struct through its Model (<c>Model.Instance.Text(t, v)</c>);
    /// a class's ToString() is this text, its bytes read as Utf8.Decode reads a string.
    /// </summary>
    public sealed class TextBuilder
    {
        private byte[] _buf = new byte[128];
        private int _size;

        /// <summary>The bytes written so far.</summary>
        public byte[] ToArray()
        {
            var b = new byte[_size];
            Buffer.BlockCopy(_buf, 0, b, 0, _size);
            return b;
        }

        /// <summary>The text as a string (bytes that are not UTF-8 as U+DC80..U+DCFF).</summary>
        public override string ToString() { return Utf8.Decode(_buf, 0, _size); }

        private void Reserve(int n)
        {
            if (_size + n > _buf.Length)
                Array.Resize(ref _buf, Math.Max(_size + n, _buf.Length * 2));
        }

        /// <summary>One byte as it is.</summary>
        public void Byte(byte b)
        {
            Reserve(1);
            _buf[_size++] = b;
        }

        /// <summary>Text as its UTF-8 bytes.</summary>
        public void Raw(string s)
        {
            int n = Utf8.Length(s);
            Reserve(n);
            Utf8.Encode(s, _buf, _size);
            _size += n;
        }

        public void Bool(bool v) { Raw(v ? "true" : "false"); }
        public void Integer(long v) { Raw(v.ToString(CultureInfo.InvariantCulture)); }
        public void Unsigned(ulong v) { Raw(v.ToString(CultureInfo.InvariantCulture)); }

        /// <summary>A float or double as C's %g.</summary>
        public void Float(double v) { Raw(Numbers.G(v)); }

        /// <summary>A decimal as C's %f of its double (the original keeps decimals in doubles).</summary>
        public void Decimal(decimal v) { Raw(Numbers.Fixed(Numbers.ToDouble(v), 6)); }

        /// <summary>A char: the raw byte between single quotes.</summary>
        public void Char(byte v)
        {
            Byte((byte)'\'');
            Byte(v);
            Byte((byte)'\'');
        }

        /// <summary>A string between double quotes, its bytes as they are (no escaping).</summary>
        public void String(string v)
        {
            Byte((byte)'"');
            Raw(v);
            Byte((byte)'"');
        }

        /// <summary>A uuid's canonical text between double quotes.</summary>
        public void Guid(Guid v) { Raw("\"" + v.ToString("D") + "\""); }

        /// <summary>bytes[N]: the original prints the size of a bytes value, not its content.</summary>
        public void Bytes(int length) { Raw("bytes[" + length + "]"); }

        /// <summary>A collection's count and its opening bracket: [3][ (array, vector), [3]&lt; (list), [3]{ (set).</summary>
        public void Count(int n, string open) { Raw("[" + n + "]" + open); }
    }

    /// <summary>Numbers as C's printf prints them, computed exactly (no double rounding).</summary>
    public static class Numbers
    {
        private static readonly double[] Pow10 =
        {
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
            1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28,
        };

        /// <summary>
        /// The double nearest the decimal number <paramref name="text"/> (JSON's grammar, without its sign), ties to even:
        /// an infinity above the largest double, 0 below half the smallest. Mono's double.Parse is not correctly
        /// rounded (1.06099789553e-313 read one ulp low: the C# fuzzer found it), so numbers are read here: 15 digits or
        /// fewer scaled by a power of ten up to 10^22 in one correctly rounded operation, any other exactly with
        /// BigInteger (digits beyond the 800th only as a sticky digit, exponents bounded).
        /// </summary>
        public static double ParseDouble(string text)
        {
            // the common case without a StringBuilder nor long.Parse: the significant digits gathered into a long
            long m = 0;
            int significant = 0, exponent = 0, i = 0, n = text.Length;
            bool fraction = false;
            for (; i < n; i++)
            {
                char c = text[i];
                if (c == '.')
                    fraction = true;
                else if (c < '0' || c > '9' || significant == 15)
                    break;
                else if (significant > 0 || c != '0')
                {
                    m = m * 10 + (c - '0');
                    significant++;
                    exponent -= fraction ? 1 : 0;
                }
                else
                    exponent -= fraction ? 1 : 0;   // a leading zero
            }
            if (i < n && (text[i] == 'e' || text[i] == 'E') && i + 1 < n)
            {
                int sign = 1, e = 0, k = i + 1;
                if (text[k] == '+' || text[k] == '-')
                    sign = text[k++] == '-' ? -1 : 1;
                for (; k < n && text[k] >= '0' && text[k] <= '9'; k++)
                    e = Math.Min(e * 10 + (text[k] - '0'), 100000);
                if (k == n)
                {
                    i = n;
                    exponent += sign * e;
                }
            }
            if (i == n)
            {
                if (m == 0)
                    return 0.0;
                if (exponent >= -22 && exponent <= 22)
                    return exponent >= 0 ? m * Pow10[exponent] : m / Pow10[-exponent];
            }
            return ParseExactly(text);
        }

        /// <summary>ParseDouble of any digits: kept as text, then scaled exactly.</summary>
        private static double ParseExactly(string text)
        {
            var digits = new StringBuilder(Math.Min(text.Length, 801));
            int exponent = 0, i = 0;
            bool fraction = false, sticky = false;
            for (; i < text.Length && text[i] != 'e' && text[i] != 'E'; i++)
            {
                char c = text[i];
                if (c == '.')
                    fraction = true;
                else if (digits.Length == 0 && c == '0')
                    exponent -= fraction ? 1 : 0;   // a leading zero
                else if (digits.Length < 800)
                {
                    digits.Append(c);
                    exponent -= fraction ? 1 : 0;
                }
                else
                {
                    sticky |= c != '0';
                    exponent += fraction ? 0 : 1;
                }
            }
            if (sticky)
            {
                digits.Append('1');     // the value lies above the digits kept, below the next
                exponent--;
            }
            if (i < text.Length)
            {
                int sign = 1, e = 0;
                i++;
                if (text[i] == '+' || text[i] == '-')
                    sign = text[i++] == '-' ? -1 : 1;
                for (; i < text.Length; i++)
                    e = Math.Min(e * 10 + (text[i] - '0'), 100000);
                exponent += sign * e;
            }
            int n = digits.Length;
            while (n > 0 && digits[n - 1] == '0')
            {
                n--;
                exponent++;
            }
            if (n == 0)
                return 0.0;
            if (n + exponent > 310)
                return double.PositiveInfinity;
            if (n + exponent < -330)
                return 0.0;
            string d = digits.ToString(0, n);
            if (n <= 15 && exponent >= -22 && exponent <= 22)
            {
                double m = long.Parse(d, NumberStyles.None, CultureInfo.InvariantCulture);
                return exponent >= 0 ? m * Pow10[exponent] : m / Pow10[-exponent];
            }
            BigInteger value = BigInteger.Parse(d, NumberStyles.None, CultureInfo.InvariantCulture);
            if (exponent >= 0)
                return Nearest(value * BigInteger.Pow(10, exponent), 0, false);
            BigInteger divisor = BigInteger.Pow(10, -exponent);
            int k = Math.Max(0, 55 + BitLength(divisor) - BitLength(value));
            BigInteger remainder;
            BigInteger q = BigInteger.DivRem(value << k, divisor, out remainder);
            return Nearest(q, -k, !remainder.IsZero);
        }

        private static int BitLength(BigInteger v)
        {
            byte[] b = v.ToByteArray();
            int top = b.Length - 1;
            while (top > 0 && b[top] == 0)
                top--;
            int bits = top * 8;
            for (int x = b[top]; x != 0; x >>= 1)
                bits++;
            return bits;
        }

        /// <summary>The double nearest q x 2^binary (plus less than one unit of q when <paramref name="sticky"/>), ties
        /// to even.</summary>
        private static double Nearest(BigInteger q, int binary, bool sticky)
        {
            int lead = BitLength(q) - 1 + binary;
            if (lead > 1023)
                return double.PositiveInfinity;
            int lsb = Math.Max(lead - 52, -1074), shift = lsb - binary;
            BigInteger m;
            if (shift <= 0)
                m = q << -shift;
            else
            {
                m = q >> shift;
                int c = (q - (m << shift)).CompareTo(BigInteger.One << (shift - 1));
                if (c > 0 || (c == 0 && (sticky || !m.IsEven)))
                    m += 1;
            }
            long bits = (long)m;
            if (bits == 1L << 53)
            {
                bits >>= 1;
                lsb++;
            }
            if (lsb + 52 > 1023)
                return double.PositiveInfinity;
            if (bits < 1L << 52)
                return BitConverter.Int64BitsToDouble(bits);     // subnormal: lsb is -1074
            return BitConverter.Int64BitsToDouble((long)(lsb + 52 + 1023) << 52 | (bits & ((1L << 52) - 1)));
        }

        /// <summary>A decimal's double as the original converts it: (low64 + high32 x 2^64) / 10^scale.</summary>
        public static double ToDouble(decimal v)
        {
            uint lo, mid, hi;
            int scale;
            bool negative;
            Decimals.Parts(v, out lo, out mid, out hi, out scale, out negative);
            double f = ((lo | (ulong)mid << 32) + hi * 18446744073709551616.0) / Pow10[scale];
            return negative ? -f : f;
        }

        private static void Split(double v, out BigInteger mantissa, out int exponent)
        {
            long bits = BitConverter.DoubleToInt64Bits(v);
            int e = (int)((bits >> 52) & 0x7FF);
            long m = bits & 0xFFFFFFFFFFFFFL;
            if (e == 0)
                e = 1;
            else
                m |= 1L << 52;
            mantissa = m;
            exponent = e - 1075;
        }

        /// <summary>round(|v| x 10^shift) half to even, exactly.</summary>
        private static BigInteger Scaled(double v, int shift)
        {
            BigInteger m;
            int e;
            Split(Math.Abs(v), out m, out e);
            BigInteger num = m, den = BigInteger.One;
            if (e >= 0)
                num <<= e;
            else
                den <<= -e;
            if (shift >= 0)
                num *= BigInteger.Pow(10, shift);
            else
                den *= BigInteger.Pow(10, -shift);
            BigInteger r;
            BigInteger q = BigInteger.DivRem(num, den, out r);
            int c = (r * 2).CompareTo(den);
            if (c > 0 || c == 0 && !q.IsEven)
                q += 1;
            return q;
        }

        private static string Sign(double v) { return v < 0 || v == 0 && 1 / v < 0 ? "-" : ""; }

        /// <summary>C's %.Nf of <paramref name="v"/>.</summary>
        public static string Fixed(double v, int decimals)
        {
            if (double.IsNaN(v))
                return "nan";
            if (double.IsInfinity(v))
                return v < 0 ? "-inf" : "inf";
            string digits = Scaled(v, decimals).ToString(CultureInfo.InvariantCulture).PadLeft(decimals + 1, '0');
            string text = decimals == 0 ? digits : digits.Substring(0, digits.Length - decimals) + "." + digits.Substring(digits.Length - decimals);
            return Sign(v) + text;
        }

        /// <summary>C's %g (6 significant digits) of <paramref name="v"/>.</summary>
        public static string G(double v)
        {
            if (double.IsNaN(v))
                return "nan";
            if (double.IsInfinity(v))
                return v < 0 ? "-inf" : "inf";
            if (v == 0)
                return Sign(v) + "0";
            // the exponent of v rounded to 6 significant digits decides the style
            int x = (int)Math.Floor(Math.Log10(Math.Abs(v)));
            BigInteger d = Scaled(v, 5 - x);
            while (d >= 1000000)
            {
                x++;
                d = Scaled(v, 5 - x);
            }
            while (d < 100000)
            {
                x--;
                d = Scaled(v, 5 - x);
            }
            if (x >= -4 && x < 6)
                return Trim(Fixed(v, 5 - x));
            string s = d.ToString(CultureInfo.InvariantCulture);
            string mantissa = Trim(s.Substring(0, 1) + "." + s.Substring(1));
            return Sign(v) + mantissa + "e" + (x < 0 ? "-" : "+") + Math.Abs(x).ToString("00", CultureInfo.InvariantCulture);
        }

        private static string Trim(string text)
        {
            return text.IndexOf('.') < 0 ? text : text.TrimEnd('0').TrimEnd('.');
        }
    }
}

namespace Fbe
{
    /// <summary>The text of an enum's or flags' values, from its declaration (the fields of a C# enum, in
    /// declaration order): an enum prints the first name declared with its value or &lt;unknown&gt;, flags every
    /// declared name whose bits are all set, in declaration order, joined by | (names worth 0 never print).</summary>
    internal sealed class EnumText
    {
        private readonly List<KeyValuePair<long, string>> _values = new List<KeyValuePair<long, string>>();

        public static EnumText Of<TEnum>()
        {
            var e = new EnumText();
            foreach (FieldInfo f in typeof(TEnum).GetFields(BindingFlags.Public | BindingFlags.Static))
                e._values.Add(new KeyValuePair<long, string>(Value(f.GetRawConstantValue()), SchemaName(f)));
            return e;
        }

        /// <summary>The schema's name of an enum member: its [SchemaName] when fbec renamed it.</summary>
        private static string SchemaName(FieldInfo f)
        {
            var named = (SchemaNameAttribute)Attribute.GetCustomAttribute(f, typeof(SchemaNameAttribute));
            return named != null ? named.Name : f.Name;
        }

        /// <summary>The bits of an enum value or of its underlying integer (a uint64's as they are).</summary>
        private static long Value(object v)
        {
            if (v is Enum)
                v = Convert.ChangeType(v, Enum.GetUnderlyingType(v.GetType()), CultureInfo.InvariantCulture);
            return v is ulong ? unchecked((long)(ulong)v) : Convert.ToInt64(v, CultureInfo.InvariantCulture);
        }

        public string Name<TEnum>(TEnum v)
        {
            long x = Value(v);
            foreach (var kv in _values)
                if (kv.Key == x)
                    return kv.Value;
            return "<unknown>";
        }

        public string Flags<TEnum>(TEnum v)
        {
            long x = Value(v);
            var names = new List<string>();
            foreach (var kv in _values)
                if (kv.Key != 0 && (x & kv.Key) == kv.Key)
                    names.Add(kv.Value);
            return string.Join("|", names);
        }
    }

    /// <summary>The schema's name of an enum member whose C# name differs (fbec gives members PascalCase names;
    /// the text form prints the schema's).</summary>
    [AttributeUsage(AttributeTargets.Field)]
    public sealed class SchemaNameAttribute : Attribute
    {
        public SchemaNameAttribute(string name) { Name = name; }

        public string Name { get; }
    }
}
