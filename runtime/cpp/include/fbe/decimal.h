// Fast Binary Encoding C++ runtime: decimal_t, an exact 96-bit decimal.
//
// The wire layout is the one of .NET System.Decimal (docs/format.md 2.4): a 96-bit
// unsigned magnitude, a scale 0..28 and a sign. decimal_t keeps exactly
// those parts, so every value on the wire round-trips and all 28 digits are
// kept (the original held decimals as double). Conversions:
//
// * from double: the original writer's algorithm step by step (docs/format.md
//   2.4), so a decimal made from a double gives the original's bytes;
// * from text: exact or refused (docs/format.md 2.4): at most 64 characters,
//   a value some decimal holds (at most 28 fraction digits once trailing
//   zeros are dropped, a magnitude below 2^96), never rounded; trailing
//   fraction zeros removed;
// * from parts: a scale above 28 or reserved flag bits are refused, so a
//   decimal_t always holds a wire value (readers refuse such bytes);
// * on the wire (Scalar<decimal_t>::put): normalized(), no trailing fraction
//   zeros, whatever scale the value holds: one value, one encoding;
// * to double: the original reader's formula;
// * to text: to_string() is exact; printing (operator<<) uses the `%f`
//   layout of the original (6 fraction digits), computed from the exact value.

#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace FBE {

class decimal_t {
public:
    static constexpr unsigned kMaxScale = 28;

    constexpr decimal_t() noexcept = default;

    //! Converts a double exactly as the original writer did (docs/format.md 2.4).
    decimal_t(double value) noexcept { from_double(value); } // NOLINT: implicit like the original

    decimal_t(float value) noexcept { from_double(value); } // NOLINT

    template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    decimal_t(T value) noexcept { // NOLINT: exact for every integer type
        if constexpr (std::is_signed_v<T>) {
            if (value < 0) {
                _lo = static_cast<uint64_t>(0) - static_cast<uint64_t>(value);
                _flags = kSignBit;
                return;
            }
        }
        _lo = static_cast<uint64_t>(value);
    }

    //! Parses decimal text (parse()); throws std::invalid_argument with
    //! parse()'s reason when the text is refused.
    explicit decimal_t(std::string_view text) { throw_unless_parsed(text); }
    explicit decimal_t(const char* text) { throw_unless_parsed(text); }
    explicit decimal_t(const std::string& text) { throw_unless_parsed(text); }

    //! The longest decimal text parse() reads (docs/limits.md 7).
    static constexpr std::size_t kMaxText = 64;

    //! Reads decimal text `[+|-]digits[.digits][(e|E)[+|-]digits]` exactly, as
    //! every runtime reads it (docs/format.md 2.4): at most kMaxText
    //! characters, and a value some decimal holds (at most 28 fraction digits
    //! once trailing zeros are dropped, a magnitude below 2^96), never
    //! rounded; the value has no trailing fraction zeros. Returns "" and sets
    //! `value`, or returns why the text is refused (quoting at most its first
    //! 32 characters) and leaves `value` alone. Time linear in the text.
    static std::string parse(std::string_view text, decimal_t& value);

    //! Why wire flags are refused (a scale above 28, reserved bits set:
    //! "decimal scale 29 above 28"), or nullptr for a scale 0..28 and a sign.
    static const char* flags_error(uint32_t flags, char (&buffer)[48]) noexcept {
        const unsigned scale = (flags >> 16) & 0xFF;
        if (scale > kMaxScale)
            std::snprintf(buffer, sizeof(buffer), "decimal scale %u above 28", scale);
        else if ((flags & kReservedBits) != 0)
            std::snprintf(buffer, sizeof(buffer), "decimal flags 0x%08X: reserved bits set", unsigned(flags));
        else
            return nullptr;
        return buffer;
    }
    //! A scale 0..28 and the sign, nothing else (docs/format.md 2.4).
    static constexpr bool valid_flags(uint32_t flags) noexcept {
        return (flags & kReservedBits) == 0 && ((flags >> 16) & 0xFF) <= kMaxScale;
    }

    //! Builds a value from its wire parts, exactly (1.50 stays 1.50); flags
    //! beyond a scale 0..28 and the sign throw std::invalid_argument.
    static constexpr decimal_t from_parts(uint64_t lo, uint32_t hi, uint32_t flags) {
        if (!valid_flags(flags))
            throw std::invalid_argument(invalid_flags(flags));
        return wire(lo, hi, flags);
    }
    static constexpr decimal_t from_parts(uint64_t lo, uint32_t hi, unsigned scale, bool negative) {
        if (scale > kMaxScale)
            throw std::invalid_argument(invalid_flags(scale << 16));
        return wire(lo, hi, (scale << 16) | (negative ? kSignBit : 0));
    }
    //! from_parts() of flags valid_flags() accepted (the binary readers).
    static constexpr decimal_t wire(uint64_t lo, uint32_t hi, uint32_t flags) noexcept {
        decimal_t result;
        result._lo = lo;
        result._hi = hi;
        result._flags = flags;
        return result;
    }

    constexpr uint64_t lo() const noexcept { return _lo; }
    constexpr uint32_t hi() const noexcept { return _hi; }
    constexpr uint32_t flags() const noexcept { return _flags; }
    constexpr unsigned scale() const noexcept { return (_flags >> 16) & 0xFF; }
    constexpr bool negative() const noexcept { return (_flags & kSignBit) != 0; }
    constexpr bool is_zero() const noexcept { return _lo == 0 && _hi == 0; }

    //! The original reader's conversion (docs/format.md 2.4).
    double to_double() const noexcept {
        double result = (static_cast<double>(_lo) + static_cast<double>(_hi) * 1.8446744073709552e19) / pow10(scale());
        return negative() ? -result : result;
    }
    //! Implicit, as the original's (its decimal_t held a double): `double d = value;`.
    operator double() const noexcept { return to_double(); } // NOLINT

    //! Exact text with `scale()` fraction digits ("-123.456", "0.10").
    std::string to_string() const {
        std::string digits = magnitude_digits();
        const unsigned s = scale();
        if (digits.size() <= s)
            digits.insert(0, s + 1 - digits.size(), '0');
        if (s > 0)
            digits.insert(digits.size() - s, 1, '.');
        if (negative() && !is_zero())
            digits.insert(0, 1, '-');
        return digits;
    }

    //! The text of the original's printing: C `%f` layout, 6 fraction digits
    //! rounded half-even from the exact value.
    std::string to_fixed6() const {
        Magnitude m = magnitude();
        unsigned s = scale();
        // Bring the value to exactly 6 fraction digits.
        for (; s < 6; ++s)
            m = m.mul10();
        bool round_up = false;
        if (s > 6) {
            // Drop s - 6 digits; `last` ends as the most significant dropped digit,
            // `rest` tells whether any less significant dropped digit was non-zero.
            unsigned last = 0;
            bool rest = false;
            for (unsigned i = 6; i < s; ++i) {
                rest = rest || last != 0;
                m = m.div10(last);
            }
            round_up = last > 5 || (last == 5 && (rest || m.low_digit_odd()));
        }
        if (round_up)
            m = m.add1();
        std::string digits = m.to_string();
        if (digits.size() < 7)
            digits.insert(0, 7 - digits.size(), '0');
        digits.insert(digits.size() - 6, 1, '.');
        if (negative() && !is_zero())
            digits.insert(0, 1, '-');
        return digits;
    }

    //! Removes trailing fraction zeros: the one form of the value, which
    //! writers store (docs/format.md 2.4).
    decimal_t& normalize() noexcept {
        if (scale() == 0 && (_flags == 0 || !is_zero()))
            return *this;
        Magnitude m = magnitude();
        unsigned s = scale();
        while (s > 0) {
            unsigned digit = 0;
            Magnitude q = m.div10(digit);
            if (digit != 0)
                break;
            m = q;
            --s;
        }
        set(m, s, negative());
        return *this;
    }
    //! The value without trailing fraction zeros (what writers store).
    decimal_t normalized() const noexcept {
        decimal_t result = *this;
        return result.normalize();
    }

    //! Compares values (1.5 == 1.50).
    friend int compare(const decimal_t& a, const decimal_t& b) noexcept {
        const bool az = a.is_zero(), bz = b.is_zero();
        if (az && bz)
            return 0;
        const bool an = a.negative() && !az, bn = b.negative() && !bz;
        if (an != bn)
            return an ? -1 : 1;
        const int c = compare_magnitudes(a, b);
        return an ? -c : c;
    }
    friend bool operator==(const decimal_t& a, const decimal_t& b) noexcept { return compare(a, b) == 0; }
    friend bool operator!=(const decimal_t& a, const decimal_t& b) noexcept { return compare(a, b) != 0; }
    friend bool operator<(const decimal_t& a, const decimal_t& b) noexcept { return compare(a, b) < 0; }
    friend bool operator<=(const decimal_t& a, const decimal_t& b) noexcept { return compare(a, b) <= 0; }
    friend bool operator>(const decimal_t& a, const decimal_t& b) noexcept { return compare(a, b) > 0; }
    friend bool operator>=(const decimal_t& a, const decimal_t& b) noexcept { return compare(a, b) >= 0; }
    template <typename T>
    static constexpr bool is_number = (std::is_integral_v<T> && !std::is_same_v<T, bool>) ||
                                      std::is_same_v<T, double> || std::is_same_v<T, float>;
    // A decimal and a number compare as decimals (the number converted as
    // decimal_t(T) does); these exact overloads keep `price == 1.5` from
    // being ambiguous between the decimal and the double comparison.
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator==(const decimal_t& a, T b) noexcept { return compare(a, decimal_t(b)) == 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator==(T a, const decimal_t& b) noexcept { return compare(decimal_t(a), b) == 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator!=(const decimal_t& a, T b) noexcept { return compare(a, decimal_t(b)) != 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator!=(T a, const decimal_t& b) noexcept { return compare(decimal_t(a), b) != 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator<(const decimal_t& a, T b) noexcept { return compare(a, decimal_t(b)) < 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator<(T a, const decimal_t& b) noexcept { return compare(decimal_t(a), b) < 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator>(const decimal_t& a, T b) noexcept { return compare(a, decimal_t(b)) > 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator>(T a, const decimal_t& b) noexcept { return compare(decimal_t(a), b) > 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator<=(const decimal_t& a, T b) noexcept { return compare(a, decimal_t(b)) <= 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator<=(T a, const decimal_t& b) noexcept { return compare(decimal_t(a), b) <= 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator>=(const decimal_t& a, T b) noexcept { return compare(a, decimal_t(b)) >= 0; }
    template <typename T, std::enable_if_t<is_number<T>, int> = 0>
    friend bool operator>=(T a, const decimal_t& b) noexcept { return compare(decimal_t(a), b) >= 0; }

    friend std::ostream& operator<<(std::ostream& os, const decimal_t& value) { return os << value.to_fixed6(); }

    std::size_t hash() const noexcept {
        decimal_t n = *this;
        n.normalize();
        if (n.is_zero())
            return 0;
        std::size_t h = std::hash<uint64_t>()(n._lo);
        h ^= std::hash<uint64_t>()((static_cast<uint64_t>(n._hi) << 32) | n._flags) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        return h;
    }

    void swap(decimal_t& other) noexcept {
        std::swap(_lo, other._lo);
        std::swap(_hi, other._hi);
        std::swap(_flags, other._flags);
    }
    friend void swap(decimal_t& a, decimal_t& b) noexcept { a.swap(b); }

private:
    static constexpr uint32_t kSignBit = 0x80000000u;
    static constexpr uint32_t kReservedBits = 0x7F00FFFFu;

    static std::string invalid_flags(uint32_t flags) {
        char buffer[48];
        const char* problem = flags_error(flags, buffer);
        return problem != nullptr ? problem : "";
    }
    void throw_unless_parsed(std::string_view text) {
        const std::string problem = parse(text, *this);
        if (!problem.empty())
            throw std::invalid_argument(problem);
    }

    uint64_t _lo = 0;
    uint32_t _hi = 0;
    uint32_t _flags = 0;

    static double pow10(unsigned n) noexcept {
        static constexpr double table[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                           1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
                                           1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28};
        return n <= kMaxScale ? table[n] : std::pow(10.0, static_cast<double>(n));
    }

    // A 128-bit unsigned magnitude as four 32-bit limbs, least significant first.
    struct Magnitude {
        std::array<uint32_t, 4> limb{};

        static Magnitude of(uint64_t lo, uint32_t hi) noexcept {
            Magnitude m;
            m.limb = {static_cast<uint32_t>(lo), static_cast<uint32_t>(lo >> 32), hi, 0};
            return m;
        }
        bool is_zero() const noexcept { return (limb[0] | limb[1] | limb[2] | limb[3]) == 0; }
        bool fits96() const noexcept { return limb[3] == 0; }
        bool low_digit_odd() const noexcept { return (limb[0] & 1) != 0; }
        Magnitude mul_add(uint32_t factor, uint32_t addend) const noexcept {
            Magnitude r;
            uint64_t carry = addend;
            for (std::size_t i = 0; i < 4; ++i) {
                const uint64_t v = static_cast<uint64_t>(limb[i]) * factor + carry;
                r.limb[i] = static_cast<uint32_t>(v);
                carry = v >> 32;
            }
            return r;
        }
        Magnitude mul10() const noexcept { return mul_add(10, 0); }
        Magnitude add1() const noexcept {
            Magnitude r = *this;
            for (std::size_t i = 0; i < 4; ++i)
                if (++r.limb[i] != 0)
                    break;
            return r;
        }
        Magnitude div10(unsigned& remainder) const noexcept {
            Magnitude r;
            uint64_t rem = 0;
            for (std::size_t i = 4; i-- > 0;) {
                const uint64_t v = (rem << 32) | limb[i];
                r.limb[i] = static_cast<uint32_t>(v / 10);
                rem = v % 10;
            }
            remainder = static_cast<unsigned>(rem);
            return r;
        }
        std::string to_string() const {
            if (is_zero())
                return "0";
            std::string s;
            Magnitude m = *this;
            while (!m.is_zero()) {
                unsigned digit = 0;
                m = m.div10(digit);
                s.insert(s.begin(), static_cast<char>('0' + digit));
            }
            return s;
        }
    };

    Magnitude magnitude() const noexcept { return Magnitude::of(_lo, _hi); }
    std::string magnitude_digits() const { return magnitude().to_string(); }

    void set(const Magnitude& m, unsigned scale, bool negative) noexcept {
        _lo = static_cast<uint64_t>(m.limb[0]) | (static_cast<uint64_t>(m.limb[1]) << 32);
        _hi = m.limb[2];
        _flags = is_zero() ? 0 : ((scale << 16) | (negative ? kSignBit : 0));
    }

    static int compare_magnitudes(const decimal_t& a, const decimal_t& b) noexcept {
        // Scale both to the larger scale in 192 bits (96-bit magnitude x 10^28 < 2^190).
        using Wide = std::array<uint32_t, 7>;
        auto widen = [](const decimal_t& d, unsigned extra) {
            Wide w{static_cast<uint32_t>(d._lo), static_cast<uint32_t>(d._lo >> 32), d._hi, 0, 0, 0, 0};
            for (unsigned k = 0; k < extra; ++k) {
                uint64_t carry = 0;
                for (auto& x : w) {
                    const uint64_t v = static_cast<uint64_t>(x) * 10 + carry;
                    x = static_cast<uint32_t>(v);
                    carry = v >> 32;
                }
            }
            return w;
        };
        const unsigned sa = a.scale(), sb = b.scale();
        if (sa > sb + 28 || sb > sa + 28) {
            // Scales 29 apart (a buffer's scale byte goes to 255): a nonzero magnitude times 10^29 is
            // above every 96-bit one, so the smaller scale holds the larger value (exact, as Python's).
            if (a.is_zero() || b.is_zero())
                return a.is_zero() ? (b.is_zero() ? 0 : -1) : 1;
            return sa < sb ? 1 : -1;
        }
        const unsigned target = std::max(sa, sb);
        const Wide x = widen(a, target - sa), y = widen(b, target - sb);
        for (std::size_t i = x.size(); i-- > 0;)
            if (x[i] != y[i])
                return x[i] < y[i] ? -1 : 1;
        return 0;
    }

    void from_double(double value) noexcept {
        _lo = 0;
        _hi = 0;
        _flags = 0;
        uint64_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        // 1. Exponent range.
        const int x = static_cast<int>((bits >> 52) & 0x7FF) - 1022;
        if (x < -94 || x > 96)
            return;
        // 2. Sign.
        const bool negative = (bits >> 63) != 0;
        double d = std::fabs(value);
        // 3. Decimal exponent estimate (floor division by 65536).
        const int product = x * 19728;
        const int floor_div = product >= 0 ? product / 65536 : -((-product + 65535) / 65536);
        int p = 14 - floor_div;
        // 4. Scale into 15-16 integer digits.
        if (p >= 0) {
            if (p > 28)
                p = 28;
            d *= pow10(static_cast<unsigned>(p));
        } else if (p != -1 || d >= 1e15) {
            d /= pow10(static_cast<unsigned>(-p));
        } else {
            p = 0;
        }
        // 5. One more digit when short.
        if (d < 1e14 && p < 28) {
            d *= 10;
            ++p;
        }
        // 6. Round half to even.
        uint64_t m = static_cast<uint64_t>(d);
        const double f = d - static_cast<double>(m);
        if (f > 0.5 || (f == 0.5 && (m & 1) != 0))
            ++m;
        // 7. Zero.
        if (m == 0)
            return;
        Magnitude mag = Magnitude::of(m, 0);
        unsigned scale = 0;
        if (p < 0) {
            // 8a. Large values: exact integer product, truncated to 96 bits.
            for (int k = 0; k < -p; ++k)
                mag = mag.mul10();
            mag.limb[3] = 0;
        } else {
            // 8b. Remove trailing zeros, at most min(p, 14), in steps of 8, 4, 2, 1.
            int budget = p < 14 ? p : 14;
            static constexpr uint64_t powers[] = {100000000ULL, 10000ULL, 100ULL, 10ULL};
            static constexpr int counts[] = {8, 4, 2, 1};
            for (int i = 0; i < 4; ++i) {
                if (budget >= counts[i] && m % powers[i] == 0) {
                    m /= powers[i];
                    p -= counts[i];
                    budget -= counts[i];
                }
            }
            mag = Magnitude::of(m, 0);
            scale = static_cast<unsigned>(p);
        }
        set(mag, scale, negative);
    }

    //! "\"<at most the first 32 characters>\"", then "..." when cut.
    static std::string quoted(std::string_view text) {
        return "\"" + std::string(text.substr(0, 32)) + "\"" + (text.size() > 32 ? "..." : "");
    }
};

inline std::string decimal_t::parse(std::string_view text, decimal_t& value) {
    if (text.size() > kMaxText)
        return "decimal text longer than " + std::to_string(kMaxText) + " characters: " + quoted(text);
    std::size_t i = 0;
    const bool negative = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        ++i;
    // The digits without leading zeros; `fraction` of them (zeros included) follow the point.
    char digits[kMaxText];
    std::size_t count = 0, fraction = 0;
    bool any = false, point = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            any = true;
            if (count != 0 || c != '0')
                digits[count++] = c;
            if (point)
                ++fraction;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    long exponent = 0; // at most 62 digits of text: bounded here, what it means is decided below
    if (any && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool exp_negative = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        const std::size_t first = i;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            if (exponent < 1000000)
                exponent = exponent * 10 + (text[i] - '0');
        if (i == first)
            any = false;
        if (exp_negative)
            exponent = -exponent;
    }
    if (!any || i != text.size())
        return "invalid decimal " + quoted(text);
    // value = digits[0..count) * 10^(exponent - fraction), the trailing zeros moved to the exponent
    if (count == 0) {
        value = decimal_t();
        return {};
    }
    long power = exponent - long(fraction);
    while (digits[count - 1] == '0') {
        --count;
        ++power;
    }
    if (power < -long(kMaxScale))
        return "decimal " + quoted(text) + " has more than 28 fraction digits";
    if (long(count) + std::max(power, 0L) > 29)
        return "decimal " + quoted(text) + " out of range: more than 96 bits";
    Magnitude m;
    for (std::size_t k = 0; k < count; ++k)
        m = m.mul_add(10, uint32_t(digits[k] - '0'));
    for (long k = 0; k < power; ++k)
        m = m.mul10();
    if (!m.fits96())
        return "decimal " + quoted(text) + " out of range: more than 96 bits";
    value.set(m, unsigned(std::max(-power, 0L)), negative);
    return {};
}

} // namespace FBE

template <>
struct std::hash<FBE::decimal_t> {
    std::size_t operator()(const FBE::decimal_t& value) const noexcept { return value.hash(); }
};
