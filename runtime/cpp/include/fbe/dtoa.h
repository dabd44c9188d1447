// Fast Binary Encoding C++ runtime: the JSON text of a double (docs/format.md 8.2).
//
// The original writes float and double values with RapidJSON's
// Writer::Double, whose digits come from Grisu2 (F. Loitsch, "Printing
// floating-point numbers quickly and accurately with integers", PLDI 2010)
// as RapidJSON master implements it. Its output reads back to the same value
// but is not always the shortest such text (1e23 is 9.999999999999999e22).
// RapidJSON 1.1.0 (Debian's
// rapidjson-dev) rounds the last digit with a wrong weight when the digits
// reach more than 8 places below the integer part of the scaled value
// (0.30000000000000004 comes out as 0.30000000000000007); master does not.
// This writer reproduces master's digits whatever RapidJSON is installed, so
// our JSON is byte-identical to the original's. runtime/python/fbe/jsonfmt.py
// implements the same rule; tests compare the two on random bit patterns.
//
// Text form (RapidJSON's Prettify, no decimal-place limit): digits d1..dn
// times 10^k, kk = n + k:
//   k >= 0 and kk <= 21     integer digits and ".0"      100.0, 9007199254740992.0
//   0 < kk <= 21            a fraction                   12.5, 123456789.12345679
//   -6 < kk <= 0            "0." and leading zeros       0.1, 0.001234
//   otherwise               exponent form, no "+"        5e-324, 1.7976931348623157e308
// Zero is "0.0" or "-0.0". NaN and infinities have no JSON text: callers
// handle them before (json.h writes the strings "NaN", "Infinity").

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace FBE {
namespace dtoa {

//! Room for the longest text write() produces: 25 characters (sign, "0.",
//! five zeros and 17 digits: "-0.0000012345678901234567"), as RapidJSON's Writer.
constexpr std::size_t kBufferSize = 32;

namespace detail {

//! A number f * 2^e with a 64-bit significand ("do it yourself floating point").
struct Fp {
    uint64_t f;
    int e;
};

inline int leading_zeros(uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x & (uint64_t(1) << 63))) {
        x <<= 1;
        ++n;
    }
    return n;
#endif
}

inline Fp normalized(uint64_t f, int e) noexcept {
    const int s = leading_zeros(f);
    return {f << s, e - s};
}

//! The upper 64 bits of the 128-bit product, rounded half up.
inline Fp multiply(Fp a, Fp b) noexcept {
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    const u128 p = static_cast<u128>(a.f) * b.f;
    const uint64_t high = static_cast<uint64_t>(p >> 64) + (static_cast<uint64_t>(p) >> 63);
#else
    const uint64_t a1 = a.f >> 32, a0 = a.f & 0xFFFFFFFFu, b1 = b.f >> 32, b0 = b.f & 0xFFFFFFFFu;
    const uint64_t cross0 = a1 * b0, cross1 = a0 * b1;
    // bits 32..95 of the product's low half, plus 2^31 for the rounding of bit 63
    const uint64_t middle = ((a0 * b0) >> 32) + (cross0 & 0xFFFFFFFFu) + (cross1 & 0xFFFFFFFFu) + (uint64_t(1) << 31);
    const uint64_t high = a1 * b1 + (cross0 >> 32) + (cross1 >> 32) + (middle >> 32);
#endif
    return {high, a.e + b.e + 64};
}

struct CachedPower {
    uint64_t f;
    int16_t e;
};

//! 10^(8i - 348) for i = 0..86 as f * 2^e, f the 64-bit significand rounded to
//! nearest (computed exactly: fbe.jsonfmt._cached_power; a test compares).
inline constexpr CachedPower kCachedPowers[87] = {
    {0xFA8FD5A0081C0288u, -1220}, {0xBAAEE17FA23EBF76u, -1193}, {0x8B16FB203055AC76u, -1166},
    {0xCF42894A5DCE35EAu, -1140}, {0x9A6BB0AA55653B2Du, -1113}, {0xE61ACF033D1A45DFu, -1087},
    {0xAB70FE17C79AC6CAu, -1060}, {0xFF77B1FCBEBCDC4Fu, -1034}, {0xBE5691EF416BD60Cu, -1007},
    {0x8DD01FAD907FFC3Cu, -980}, {0xD3515C2831559A83u, -954}, {0x9D71AC8FADA6C9B5u, -927},
    {0xEA9C227723EE8BCBu, -901}, {0xAECC49914078536Du, -874}, {0x823C12795DB6CE57u, -847},
    {0xC21094364DFB5637u, -821}, {0x9096EA6F3848984Fu, -794}, {0xD77485CB25823AC7u, -768},
    {0xA086CFCD97BF97F4u, -741}, {0xEF340A98172AACE5u, -715}, {0xB23867FB2A35B28Eu, -688},
    {0x84C8D4DFD2C63F3Bu, -661}, {0xC5DD44271AD3CDBAu, -635}, {0x936B9FCEBB25C996u, -608},
    {0xDBAC6C247D62A584u, -582}, {0xA3AB66580D5FDAF6u, -555}, {0xF3E2F893DEC3F126u, -529},
    {0xB5B5ADA8AAFF80B8u, -502}, {0x87625F056C7C4A8Bu, -475}, {0xC9BCFF6034C13053u, -449},
    {0x964E858C91BA2655u, -422}, {0xDFF9772470297EBDu, -396}, {0xA6DFBD9FB8E5B88Fu, -369},
    {0xF8A95FCF88747D94u, -343}, {0xB94470938FA89BCFu, -316}, {0x8A08F0F8BF0F156Bu, -289},
    {0xCDB02555653131B6u, -263}, {0x993FE2C6D07B7FACu, -236}, {0xE45C10C42A2B3B06u, -210},
    {0xAA242499697392D3u, -183}, {0xFD87B5F28300CA0Eu, -157}, {0xBCE5086492111AEBu, -130},
    {0x8CBCCC096F5088CCu, -103}, {0xD1B71758E219652Cu, -77}, {0x9C40000000000000u, -50},
    {0xE8D4A51000000000u, -24}, {0xAD78EBC5AC620000u, 3}, {0x813F3978F8940984u, 30},
    {0xC097CE7BC90715B3u, 56}, {0x8F7E32CE7BEA5C70u, 83}, {0xD5D238A4ABE98068u, 109},
    {0x9F4F2726179A2245u, 136}, {0xED63A231D4C4FB27u, 162}, {0xB0DE65388CC8ADA8u, 189},
    {0x83C7088E1AAB65DBu, 216}, {0xC45D1DF942711D9Au, 242}, {0x924D692CA61BE758u, 269},
    {0xDA01EE641A708DEAu, 295}, {0xA26DA3999AEF774Au, 322}, {0xF209787BB47D6B85u, 348},
    {0xB454E4A179DD1877u, 375}, {0x865B86925B9BC5C2u, 402}, {0xC83553C5C8965D3Du, 428},
    {0x952AB45CFA97A0B3u, 455}, {0xDE469FBD99A05FE3u, 481}, {0xA59BC234DB398C25u, 508},
    {0xF6C69A72A3989F5Cu, 534}, {0xB7DCBF5354E9BECEu, 561}, {0x88FCF317F22241E2u, 588},
    {0xCC20CE9BD35C78A5u, 614}, {0x98165AF37B2153DFu, 641}, {0xE2A0B5DC971F303Au, 667},
    {0xA8D9D1535CE3B396u, 694}, {0xFB9B7CD9A4A7443Cu, 720}, {0xBB764C4CA7A44410u, 747},
    {0x8BAB8EEFB6409C1Au, 774}, {0xD01FEF10A657842Cu, 800}, {0x9B10A4E5E9913129u, 827},
    {0xE7109BFBA19C0C9Du, 853}, {0xAC2820D9623BF429u, 880}, {0x80444B5E7AA7CF85u, 907},
    {0xBF21E44003ACDD2Du, 933}, {0x8E679C2F5E44FF8Fu, 960}, {0xD433179D9C8CB841u, 986},
    {0x9E19DB92B4E31BA9u, 1013}, {0xEB96BF6EBADF77D9u, 1039}, {0xAF87023B9BF0EE6Bu, 1066}
};

//! 10^0 .. 10^19.
inline constexpr uint64_t kPow10[20] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u,
    10000000000u, 100000000000u, 1000000000000u, 10000000000000u, 100000000000000u, 1000000000000000u,
    10000000000000000u, 100000000000000000u, 1000000000000000000u, 10000000000000000000u};

//! Decimal digits of x, at most 9 (the integer part of the scaled value
//! stays below 10^9 for the exponents the cached power brings it to).
inline int integer_digits(uint32_t x) noexcept {
    int n = 1;
    while (n < 9 && x >= kPow10[n])
        ++n;
    return n;
}

//! Lowers the last digit while the result stays inside the interval
//! (rest + unit <= delta) and gets closer to the scaled value, which lies
//! `distance` below the interval's top.
inline void round_towards_value(char* digits, int length, uint64_t delta, uint64_t rest, uint64_t unit,
                                uint64_t distance) noexcept {
    while (rest < distance && delta - rest >= unit &&
           (rest + unit < distance || distance - rest > rest + unit - distance)) {
        --digits[length - 1];
        rest += unit;
    }
}

//! Grisu2 of a finite value > 0: the digits (returned count) and the
//! decimal exponent k, value ~ digits * 10^k.
inline int grisu2(uint64_t bits, char* digits, int& k) noexcept {
    const int biased = static_cast<int>(bits >> 52);
    uint64_t f = bits & 0xFFFFFFFFFFFFFu;
    int e = -1074;
    if (biased != 0) {
        f += uint64_t(1) << 52;
        e = biased - 1075;
    }
    // The rounding interval: its ends are half an ulp away (a quarter below a
    // power of two), scaled to the upper end's exponent.
    const Fp upper = normalized((f << 1) + 1, e - 1);
    Fp lower = f == uint64_t(1) << 52 ? Fp{(f << 2) - 1, e - 2} : Fp{(f << 1) - 1, e - 1};
    lower.f <<= lower.e - upper.e;
    lower.e = upper.e;

    // A cached power c = 10^-k brings the upper end's exponent into [-60, -32];
    // k is chosen as RapidJSON chooses it (the digits depend on that choice).
    const double dk = (-61 - upper.e) * 0.30102999566398114 + 347;
    int ik = static_cast<int>(dk);
    if (dk - ik > 0.0)
        ++ik;
    const int index = (ik >> 3) + 1;
    k = 348 - 8 * index;
    const Fp c{kCachedPowers[index].f, kCachedPowers[index].e};

    const Fp w = multiply(normalized(f, e), c);
    Fp top = multiply(upper, c);
    const uint64_t bottom = multiply(lower, c).f + 1;
    top.f -= 1;
    uint64_t delta = top.f - bottom;

    // Digits of the top end until the rest fits in the interval.
    const int shift = -top.e;
    const uint64_t one = uint64_t(1) << shift;
    const uint64_t distance = top.f - w.f;
    uint32_t integral = static_cast<uint32_t>(top.f >> shift);
    uint64_t fraction = top.f & (one - 1);
    int length = 0;
    for (int kappa = integer_digits(integral); kappa > 0;) {
        --kappa;
        const uint32_t unit = static_cast<uint32_t>(kPow10[kappa]);
        const uint32_t d = integral / unit;
        integral %= unit;
        if (d != 0 || length != 0)
            digits[length++] = static_cast<char>('0' + d);
        const uint64_t rest = (static_cast<uint64_t>(integral) << shift) + fraction;
        if (rest <= delta) {
            k += kappa;
            round_towards_value(digits, length, delta, rest, kPow10[kappa] << shift, distance);
            return length;
        }
    }
    for (int places = 1;; ++places) {
        fraction *= 10;
        delta *= 10;
        const char d = static_cast<char>(fraction >> shift);
        if (d != 0 || length != 0)
            digits[length++] = static_cast<char>('0' + d);
        fraction &= one - 1;
        if (fraction < delta) {
            k -= places;
            // distance is scaled by 10^places like delta and rest (1.1.0 scaled it
            // only up to 10^8 and used 0 beyond: the wrong last digit)
            round_towards_value(digits, length, delta, fraction, one, places < 20 ? distance * kPow10[places] : 0);
            return length;
        }
    }
}

//! An integer and ".0".
inline char* write_integer(uint64_t integer, char* out) noexcept {
    char reversed[20];
    int n = 0;
    do {
        reversed[n++] = static_cast<char>('0' + integer % 10);
        integer /= 10;
    } while (integer != 0);
    while (n > 0)
        *out++ = reversed[--n];
    std::memcpy(out, ".0", 2);
    return out + 2;
}

inline char* write_exponent(int exponent, char* out) noexcept {
    if (exponent < 0) {
        *out++ = '-';
        exponent = -exponent;
    }
    if (exponent >= 100)
        *out++ = static_cast<char>('0' + exponent / 100);
    if (exponent >= 10)
        *out++ = static_cast<char>('0' + exponent / 10 % 10);
    *out++ = static_cast<char>('0' + exponent % 10);
    return out;
}

} // namespace detail

//! Writes the JSON text of a finite `value` (RapidJSON master's
//! Writer::Double) at `out`, which has room for kBufferSize characters; no
//! terminating NUL. Returns the end of the text.
inline char* write(double value, char* out) noexcept {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    if (bits >> 63) {
        *out++ = '-';
        bits &= ~(uint64_t(1) << 63);
    }
    if (bits == 0) {
        std::memcpy(out, "0.0", 3);
        return out + 3;
    }
    double magnitude;
    std::memcpy(&magnitude, &bits, sizeof(magnitude));
    if (magnitude < 9007199254740992.0) {
        // An integer below 2^53 is exact and its ulp is at most 1: no other
        // number of as few digits lies in its rounding interval, so Grisu2's
        // digits are its decimal digits (the common case, written directly).
        const auto integer = static_cast<uint64_t>(magnitude);
        if (static_cast<double>(integer) == magnitude)
            return detail::write_integer(integer, out);
    }
    char digits[24];
    int k = 0;
    const int n = detail::grisu2(bits, digits, k);
    const int kk = n + k; // 10^(kk-1) <= value < 10^kk
    if (k >= 0 && kk <= 21) {
        std::memcpy(out, digits, static_cast<std::size_t>(n));
        std::memset(out + n, '0', static_cast<std::size_t>(k));
        out += kk;
        std::memcpy(out, ".0", 2);
        return out + 2;
    }
    if (kk > 0 && kk <= 21) {
        std::memcpy(out, digits, static_cast<std::size_t>(kk));
        out[kk] = '.';
        std::memcpy(out + kk + 1, digits + kk, static_cast<std::size_t>(n - kk));
        return out + n + 1;
    }
    if (kk > -6 && kk <= 0) {
        out[0] = '0';
        out[1] = '.';
        std::memset(out + 2, '0', static_cast<std::size_t>(-kk));
        std::memcpy(out + 2 - kk, digits, static_cast<std::size_t>(n));
        return out + 2 - kk + n;
    }
    *out++ = digits[0];
    if (n > 1) {
        *out++ = '.';
        std::memcpy(out, digits + 1, static_cast<std::size_t>(n - 1));
        out += n - 1;
    }
    *out++ = 'e';
    return detail::write_exponent(kk - 1, out);
}

} // namespace dtoa
} // namespace FBE
