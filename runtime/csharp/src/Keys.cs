using System;
using System.Collections.Generic;

namespace Fbe
{
    /// <summary>
    /// The order of set elements and map keys, and their sameness, where .NET's default is not the format's
    /// (docs/format.md 3.4, docs/limits.md 4 and 7): a char orders as C++'s signed char, floats by value with -0.0
    /// and 0.0 one key, uuids by their bytes, strings by ordinal code units, bytes by their bytes.
    /// </summary>
    public static class Keys
    {
        /// <summary>A char (held as its byte) as the original's C++ char: 0x80..0xFF before 0x00..0x7F.</summary>
        public static readonly IComparer<byte> Char = Comparer<byte>.Create((a, b) => ((sbyte)a).CompareTo((sbyte)b));

        public static readonly FloatKeys Single = new FloatKeys();
        public static readonly DoubleKeys Double = new DoubleKeys();
        public static readonly IComparer<Guid> Guid = Comparer<Guid>.Create(Uuid.Compare);
        public static readonly IComparer<string> String = StringComparer.Ordinal;
        public static readonly BytesKeys Bytes = new BytesKeys();

        /// <summary>Floats by value, -0.0 and 0.0 the same key, NaNs after every number.</summary>
        public sealed class FloatKeys : IComparer<float>, IEqualityComparer<float>
        {
            public int Compare(float a, float b) { return DoubleKeys.Order(a, b); }
            public bool Equals(float a, float b) { return Compare(a, b) == 0; }
            public int GetHashCode(float v) { return v == 0 ? 0 : v.GetHashCode(); }
        }

        /// <summary>Doubles by value, -0.0 and 0.0 the same key, NaNs after every number.</summary>
        public sealed class DoubleKeys : IComparer<double>, IEqualityComparer<double>
        {
            internal static int Order(double a, double b)
            {
                bool na = double.IsNaN(a), nb = double.IsNaN(b);
                if (na || nb)
                    return na && nb ? BitConverter.DoubleToInt64Bits(a).CompareTo(BitConverter.DoubleToInt64Bits(b)) : na ? 1 : -1;
                return a < b ? -1 : a > b ? 1 : 0;
            }

            public int Compare(double a, double b) { return Order(a, b); }
            public bool Equals(double a, double b) { return Order(a, b) == 0; }
            public int GetHashCode(double v) { return v == 0 ? 0 : v.GetHashCode(); }
        }

        /// <summary>Bytes by their bytes, a shorter prefix first.</summary>
        public sealed class BytesKeys : IComparer<byte[]>, IEqualityComparer<byte[]>
        {
            public int Compare(byte[] a, byte[] b)
            {
                int n = Math.Min(a.Length, b.Length);
                for (int i = 0; i < n; i++)
                    if (a[i] != b[i])
                        return a[i].CompareTo(b[i]);
                return a.Length.CompareTo(b.Length);
            }

            public bool Equals(byte[] a, byte[] b) { return Compare(a, b) == 0; }

            public int GetHashCode(byte[] v)
            {
                int h = 17;
                foreach (byte b in v)
                    h = h * 31 + b;
                return h;
            }
        }
    }
}
