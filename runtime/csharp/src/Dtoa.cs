namespace Fbe
{
    /// <summary>
    /// The JSON text of a double (docs/format.md 8.4), as the original writes it with RapidJSON master's
    /// Writer::Double: the digits of the Grisu2 algorithm (F. Loitsch, PLDI 2010) with RapidJSON master's rounding of
    /// the last digit, in RapidJSON's layout. Not always the shortest text: 1e23 is 9.999999999999999e22. A port of the
    /// Java runtime's Dtoa.java (itself the Go runtime's dtoa.go and the C++ runtime's fbe/dtoa.h).
    /// </summary>
    public static class Dtoa
    {
        // 10^(8i - 348) for i = 0..86 as f * 2^e, f the 64-bit significand rounded to nearest (RapidJSON's table)
        private static readonly ulong[] PowerF =
        {
            0xFA8FD5A0081C0288, 0xBAAEE17FA23EBF76, 0x8B16FB203055AC76, 0xCF42894A5DCE35EA, 0x9A6BB0AA55653B2D,
            0xE61ACF033D1A45DF, 0xAB70FE17C79AC6CA, 0xFF77B1FCBEBCDC4F, 0xBE5691EF416BD60C, 0x8DD01FAD907FFC3C,
            0xD3515C2831559A83, 0x9D71AC8FADA6C9B5, 0xEA9C227723EE8BCB, 0xAECC49914078536D, 0x823C12795DB6CE57,
            0xC21094364DFB5637, 0x9096EA6F3848984F, 0xD77485CB25823AC7, 0xA086CFCD97BF97F4, 0xEF340A98172AACE5,
            0xB23867FB2A35B28E, 0x84C8D4DFD2C63F3B, 0xC5DD44271AD3CDBA, 0x936B9FCEBB25C996, 0xDBAC6C247D62A584,
            0xA3AB66580D5FDAF6, 0xF3E2F893DEC3F126, 0xB5B5ADA8AAFF80B8, 0x87625F056C7C4A8B, 0xC9BCFF6034C13053,
            0x964E858C91BA2655, 0xDFF9772470297EBD, 0xA6DFBD9FB8E5B88F, 0xF8A95FCF88747D94, 0xB94470938FA89BCF,
            0x8A08F0F8BF0F156B, 0xCDB02555653131B6, 0x993FE2C6D07B7FAC, 0xE45C10C42A2B3B06, 0xAA242499697392D3,
            0xFD87B5F28300CA0E, 0xBCE5086492111AEB, 0x8CBCCC096F5088CC, 0xD1B71758E219652C, 0x9C40000000000000,
            0xE8D4A51000000000, 0xAD78EBC5AC620000, 0x813F3978F8940984, 0xC097CE7BC90715B3, 0x8F7E32CE7BEA5C70,
            0xD5D238A4ABE98068, 0x9F4F2726179A2245, 0xED63A231D4C4FB27, 0xB0DE65388CC8ADA8, 0x83C7088E1AAB65DB,
            0xC45D1DF942711D9A, 0x924D692CA61BE758, 0xDA01EE641A708DEA, 0xA26DA3999AEF774A, 0xF209787BB47D6B85,
            0xB454E4A179DD1877, 0x865B86925B9BC5C2, 0xC83553C5C8965D3D, 0x952AB45CFA97A0B3, 0xDE469FBD99A05FE3,
            0xA59BC234DB398C25, 0xF6C69A72A3989F5C, 0xB7DCBF5354E9BECE, 0x88FCF317F22241E2, 0xCC20CE9BD35C78A5,
            0x98165AF37B2153DF, 0xE2A0B5DC971F303A, 0xA8D9D1535CE3B396, 0xFB9B7CD9A4A7443C, 0xBB764C4CA7A44410,
            0x8BAB8EEFB6409C1A, 0xD01FEF10A657842C, 0x9B10A4E5E9913129, 0xE7109BFBA19C0C9D, 0xAC2820D9623BF429,
            0x80444B5E7AA7CF85, 0xBF21E44003ACDD2D, 0x8E679C2F5E44FF8F, 0xD433179D9C8CB841, 0x9E19DB92B4E31BA9,
            0xEB96BF6EBADF77D9, 0xAF87023B9BF0EE6B,
        };

        private static readonly short[] PowerE =
        {
            -1220, -1193, -1166, -1140, -1113, -1087, -1060, -1034, -1007, -980, -954, -927, -901, -874, -847, -821,
            -794, -768, -741, -715, -688, -661, -635, -608, -582, -555, -529, -502, -475, -449, -422, -396, -369, -343,
            -316, -289, -263, -236, -210, -183, -157, -130, -103, -77, -50, -24, 3, 30, 56, 83, 109, 136, 162, 189, 216,
            242, 269, 295, 322, 348, 375, 402, 428, 455, 481, 508, 534, 561, 588, 614, 641, 667, 694, 720, 747, 774,
            800, 827, 853, 880, 907, 933, 960, 986, 1013, 1039, 1066,
        };

        private static readonly ulong[] Pow10 =
        {
            1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000, 100000000000,
            1000000000000, 10000000000000, 100000000000000, 1000000000000000, 10000000000000000,
            100000000000000000, 1000000000000000000, 10000000000000000000,
        };

        /// <summary>The most bytes <see cref="Write"/> writes: "-0.00000" and 17 digits.</summary>
        public const int MaxLength = 25;

        /// <summary>The JSON text of a double (NaN, Infinity, -Infinity unquoted for those).</summary>
        public static string ToJson(double value)
        {
            var text = new byte[MaxLength];
            int n = Write(value, text, 0);
            return System.Text.Encoding.ASCII.GetString(text, 0, n);
        }

        /// <summary>Writes the JSON text of a double (as <see cref="ToJson"/>) as ASCII into <paramref name="buf"/> at
        /// <paramref name="pos"/>, which has room for <see cref="MaxLength"/> bytes; returns the position after it.</summary>
        public static int Write(double value, byte[] buf, int pos)
        {
            if (double.IsNaN(value))
                return Ascii("NaN", buf, pos);
            if (double.IsInfinity(value))
                return Ascii(value < 0 ? "-Infinity" : "Infinity", buf, pos);
            ulong b = (ulong)System.BitConverter.DoubleToInt64Bits(value);
            if ((long)b < 0)
            {
                buf[pos++] = (byte)'-';
                b &= long.MaxValue;
            }
            if (b == 0)
                return Ascii("0.0", buf, pos);
            double magnitude = System.BitConverter.Int64BitsToDouble((long)b);
            if (magnitude < 9007199254740992.0)
            {
                // an integer below 2^53 is exact: Grisu2's digits are its decimal digits
                long integer = (long)magnitude;
                if (integer == magnitude)
                    return Ascii(".0", buf, Digits((ulong)integer, buf, pos));
            }
            int k;
            int n = Grisu2(b, buf, pos, out k);
            int kk = n + k;     // 10^(kk-1) <= value < 10^kk
            if (k >= 0 && kk <= 21)
            {
                pos += n;
                for (int i = 0; i < k; i++)
                    buf[pos++] = (byte)'0';
                return Ascii(".0", buf, pos);
            }
            if (kk > 0 && kk <= 21)
            {
                System.Array.Copy(buf, pos + kk, buf, pos + kk + 1, n - kk);
                buf[pos + kk] = (byte)'.';
                return pos + n + 1;
            }
            if (kk > -6 && kk <= 0)
            {
                int lead = 2 - kk;     // "0." and -kk zeros
                System.Array.Copy(buf, pos, buf, pos + lead, n);
                buf[pos] = (byte)'0';
                buf[pos + 1] = (byte)'.';
                for (int i = 2; i < lead; i++)
                    buf[pos + i] = (byte)'0';
                return pos + lead + n;
            }
            if (n > 1)
            {
                System.Array.Copy(buf, pos + 1, buf, pos + 2, n - 1);
                buf[pos + 1] = (byte)'.';
                pos++;
            }
            pos += n;
            buf[pos++] = (byte)'e';
            int exponent = kk - 1;
            if (exponent < 0)
            {
                buf[pos++] = (byte)'-';
                exponent = -exponent;
            }
            return Digits((ulong)exponent, buf, pos);
        }

        /// <summary>Writes the decimal digits of <paramref name="v"/> at <paramref name="pos"/>; returns the position after them.</summary>
        public static int Digits(ulong v, byte[] buf, int pos)
        {
            int n = 1;
            for (ulong rest = v / 10; rest != 0; rest /= 10)
                n++;
            int end = pos + n;
            do
            {
                buf[--end] = (byte)('0' + (int)(v % 10));
                v /= 10;
            }
            while (v != 0);
            return pos + n;
        }

        private static int Ascii(string s, byte[] buf, int pos)
        {
            foreach (char c in s)
                buf[pos++] = (byte)c;
            return pos;
        }

        /// <summary>The upper 64 bits of the 128-bit product, rounded half up (RapidJSON's DiyFp::operator*).</summary>
        private static ulong MultiplyHigh(ulong a, ulong b)
        {
            ulong a0 = a & 0xFFFFFFFF, a1 = a >> 32, b0 = b & 0xFFFFFFFF, b1 = b >> 32;
            ulong p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
            ulong mid = (p00 >> 32) + (p01 & 0xFFFFFFFF) + (p10 & 0xFFFFFFFF) + (1UL << 31);
            return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
        }

        private static int LeadingZeros(ulong x)
        {
            int n = 0;
            while ((x & 0x8000000000000000) == 0)
            {
                x <<= 1;
                n++;
            }
            return n;
        }

        private static int IntegerDigits(ulong x)
        {
            int n = 1;
            while (n < 9 && x >= Pow10[n])
                n++;
            return n;
        }

        /// <summary>Lowers the last digit while the result stays inside the interval and gets closer to the value.</summary>
        private static void RoundTowardsValue(byte[] digits, int n, ulong delta, ulong rest, ulong unit, ulong distance)
        {
            while (rest < distance && delta - rest >= unit && (rest + unit < distance || rest + unit - distance < distance - rest))
            {
                digits[n - 1]--;
                rest += unit;
            }
        }

        /// <summary>Grisu2's digits of the positive double of bits <paramref name="b"/> as ASCII at
        /// <paramref name="digits"/>[<paramref name="at"/>..]: their count; the value is digits * 10^k.</summary>
        private static int Grisu2(ulong b, byte[] digits, int at, out int k)
        {
            int biased = (int)(b >> 52);
            ulong f = b & ((1UL << 52) - 1);
            int e = -1074;
            if (biased != 0)
            {
                f += 1UL << 52;
                e = biased - 1075;
            }
            ulong upperF = (f << 1) + 1;
            int shiftUpper = LeadingZeros(upperF);
            upperF <<= shiftUpper;
            int upperE = e - 1 - shiftUpper;
            ulong lowerF;
            int lowerE;
            if (f == 1UL << 52)
            {
                lowerF = (f << 2) - 1;
                lowerE = e - 2;
            }
            else
            {
                lowerF = (f << 1) - 1;
                lowerE = e - 1;
            }
            lowerF <<= lowerE - upperE;

            double dk = (-61 - upperE) * 0.30102999566398114 + 347;
            int ik = (int)dk;
            if (dk - ik > 0.0)
                ik++;
            int index = (ik >> 3) + 1;
            k = 348 - 8 * index;
            ulong cF = PowerF[index];
            int cE = PowerE[index];

            int shiftW = LeadingZeros(f);
            ulong wF = MultiplyHigh(f << shiftW, cF);
            ulong topF = MultiplyHigh(upperF, cF);
            int topE = upperE + cE + 64;
            ulong bottom = MultiplyHigh(lowerF, cF) + 1;
            topF--;
            ulong delta = topF - bottom;

            int shift = -topE;
            ulong one = 1UL << shift;
            ulong distance = topF - wF;
            ulong integral = topF >> shift;
            ulong fraction = topF & (one - 1);
            int n = 0;
            for (int kappa = IntegerDigits(integral); kappa > 0;)
            {
                kappa--;
                ulong unit = Pow10[kappa];
                ulong d = integral / unit;
                integral %= unit;
                if (d != 0 || n != 0)
                    digits[at + n++] = (byte)('0' + d);
                ulong rest = (integral << shift) + fraction;
                if (delta >= rest)
                {
                    k += kappa;
                    RoundTowardsValue(digits, at + n, delta, rest, Pow10[kappa] << shift, distance);
                    return n;
                }
            }
            for (int places = 1; ; places++)
            {
                fraction *= 10;
                delta *= 10;
                int d = (int)(fraction >> shift);
                if (d != 0 || n != 0)
                    digits[at + n++] = (byte)('0' + d);
                fraction &= one - 1;
                if (fraction < delta)
                {
                    k -= places;
                    ulong scaled = places < 20 ? distance * Pow10[places] : 0;
                    RoundTowardsValue(digits, at + n, delta, fraction, one, scaled);
                    return n;
                }
            }
        }
    }
}
