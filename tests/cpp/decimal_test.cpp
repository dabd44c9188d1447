// decimal_t: the double -> decimal conversion of docs/format.md 2.4 (bytes must
// match the original's), exact text conversions, comparisons.

#include <fbe/scalar.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>

using FBE::decimal_t;

namespace {

// The 96-bit magnitude as text, for readable expectations.
std::string magnitude(const decimal_t& d) {
    return decimal_t::from_parts(d.lo(), d.hi(), 0, false).to_string();
}

void expect_parts(double value, const char* mag, unsigned scale, bool negative) {
    const decimal_t d(value);
    SCOPED_TRACE(value);
    EXPECT_EQ(magnitude(d), mag);
    EXPECT_EQ(d.scale(), scale);
    EXPECT_EQ(d.negative(), negative);
}

} // namespace

TEST(Decimal, FromDoubleExamplesOfTheSpec) {
    expect_parts(0.1, "1", 1, false);
    expect_parts(1.5, "15", 1, false);
    expect_parts(-123.456, "123456", 3, true);
    expect_parts(123456.123456, "123456123456", 6, false);
    expect_parts(1e20, "100000000000000000000", 0, false);
    expect_parts(1.0 / 3.0, "333333333333333", 15, false);
    expect_parts(1.5e-28, "2", 28, false); // half-even rounding at the scale limit
    expect_parts(1e-29, "0", 0, false);
}

TEST(Decimal, FromDoubleWireBytes) {
    uint8_t bytes[16];
    FBE::Scalar<decimal_t>::put(bytes, decimal_t(0.1));
    const uint8_t expected[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};
    EXPECT_EQ(0, std::memcmp(bytes, expected, 16));
    FBE::Scalar<decimal_t>::put(bytes, decimal_t(-123.456));
    EXPECT_EQ(bytes[14], 3);
    EXPECT_EQ(bytes[15], 0x80);
}

TEST(Decimal, OutOfRangeDoublesBecomeZero) {
    for (double v : {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min(), 1e29, -8e28}) {
        const decimal_t d(v);
        EXPECT_TRUE(d.is_zero()) << v;
        EXPECT_EQ(d.flags(), 0u) << v; // never a negative zero
    }
}

TEST(Decimal, LargeValuesKeepFifteenDigits) {
    expect_parts(123456789012345678.0, "123456789012346000", 0, false);
    expect_parts(7.9e28, "79000000000000000000000000000", 0, false);
}

TEST(Decimal, ToDoubleIsTheOriginalFormula) {
    EXPECT_EQ(decimal_t("123456.123456").to_double(), 123456.123456);
    EXPECT_EQ(decimal_t("-123.456").to_double(), -123.456);
    EXPECT_EQ(decimal_t("0.1").to_double(), 0.1);
    EXPECT_EQ(decimal_t(1e20).to_double(), 1e20);
}

TEST(Decimal, TextRoundTripIsExact) {
    for (const char* text : {"0", "1", "-1", "0.1", "-123.456", "79228162514264337593543950335",
                             "-7.9228162514264337593543950335", "0.0000000000000000000000000001", "123456.123456"}) {
        EXPECT_EQ(decimal_t(text).to_string(), text);
    }
}

TEST(Decimal, ParsingNormalisesAndRounds) {
    EXPECT_EQ(decimal_t("1.50").to_string(), "1.5");
    EXPECT_EQ(decimal_t("+2.000").to_string(), "2");
    EXPECT_EQ(decimal_t("-0.0").flags(), 0u);
    EXPECT_EQ(decimal_t("1e3").to_string(), "1000");
    EXPECT_EQ(decimal_t("12.5e-1").to_string(), "1.25");
    // 29 fraction digits: rounded half-even to 28.
    EXPECT_EQ(decimal_t("0.00000000000000000000000000015").to_string(), "0.0000000000000000000000000002");
    EXPECT_EQ(decimal_t("0.00000000000000000000000000025").to_string(), "0.0000000000000000000000000002");
    EXPECT_THROW(decimal_t("abc"), std::invalid_argument);
    EXPECT_THROW(decimal_t("1.2.3"), std::invalid_argument);
    EXPECT_THROW(decimal_t("1e"), std::invalid_argument);
    EXPECT_THROW(decimal_t("79228162514264337593543950336"), std::overflow_error);
}

TEST(Decimal, PrintsLikePercentF) {
    auto printed = [](const decimal_t& d) {
        std::ostringstream s;
        s << d;
        return s.str();
    };
    EXPECT_EQ(printed(decimal_t("123456.123456")), "123456.123456");
    EXPECT_EQ(printed(decimal_t("-123.456")), "-123.456000");
    EXPECT_EQ(printed(decimal_t()), "0.000000");
    EXPECT_EQ(printed(decimal_t("0.1")), "0.100000");
    EXPECT_EQ(printed(decimal_t(1.0 / 3.0)), "0.333333");
    EXPECT_EQ(printed(decimal_t("0.0000005")), "0.000000"); // half to even
    EXPECT_EQ(printed(decimal_t("0.0000015")), "0.000002");
    EXPECT_EQ(printed(decimal_t("2.0000005000001")), "2.000001");
    EXPECT_EQ(printed(decimal_t("79228162514264337593543950335")), "79228162514264337593543950335.000000");
}

TEST(Decimal, ComparesValues) {
    EXPECT_EQ(decimal_t("1.5"), decimal_t::from_parts(150, 0, 2, false));
    EXPECT_EQ(std::hash<decimal_t>()(decimal_t("1.5")), std::hash<decimal_t>()(decimal_t::from_parts(150, 0, 2, false)));
    EXPECT_LT(decimal_t("-2"), decimal_t("-1.5"));
    EXPECT_LT(decimal_t("1.4999"), decimal_t("1.5"));
    EXPECT_GT(decimal_t("79228162514264337593543950335"), decimal_t("7.9228162514264337593543950335"));
    EXPECT_EQ(decimal_t(), decimal_t::from_parts(0, 0, 5, true));
}

TEST(Decimal, ComparesExactlyAtEveryScale) {
    // A buffer's scale byte goes to 255; keys compare by value there too, as Python and Go compare
    // them (docs/limits.md 4): 1 x 10^-61 and 10 x 10^-62 are one key, 1 x 10^-70 is below 1 x 10^-61.
    const decimal_t a = decimal_t::from_parts(1, 0, 61, false), b = decimal_t::from_parts(10, 0, 62, false);
    EXPECT_EQ(a, b);
    EXPECT_EQ(std::hash<decimal_t>()(a), std::hash<decimal_t>()(b));
    EXPECT_LT(decimal_t::from_parts(1, 0, 70, false), a);
    EXPECT_LT(decimal_t::from_parts(UINT64_MAX, 0xFFFFFFFFu, 255, false), decimal_t::from_parts(1, 0, 226, false));
    EXPECT_GT(decimal_t::from_parts(UINT64_MAX, 0xFFFFFFFFu, 255, true), decimal_t::from_parts(1, 0, 226, true));
    EXPECT_LT(decimal_t(), decimal_t::from_parts(1, 0, 255, false));
    EXPECT_GT(decimal_t(), decimal_t::from_parts(1, 0, 255, true));
    EXPECT_EQ(decimal_t::from_parts(0, 0, 200, false), decimal_t::from_parts(0, 0, 3, true));
    // 29 apart: 1 x 10^-1 against the largest magnitude at scale 30 (7.9e28 x 10^-30 = 0.079...)
    EXPECT_GT(decimal_t::from_parts(1, 0, 1, false), decimal_t::from_parts(UINT64_MAX, 0xFFFFFFFFu, 30, false));
}

TEST(Decimal, FromIntegers) {
    EXPECT_EQ(decimal_t(int64_t(-5)).to_string(), "-5");
    EXPECT_EQ(decimal_t(std::numeric_limits<int64_t>::min()).to_string(), "-9223372036854775808");
    EXPECT_EQ(decimal_t(std::numeric_limits<uint64_t>::max()).to_string(), "18446744073709551615");
}

// Properties of the double conversion over many random doubles: at most 15
// significant digits survive, no trailing fraction zeros are written (unless
// the scale limit forces them) and the value reads back within 15 digits.
TEST(Decimal, FromDoubleProperties) {
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> exponent(-12.0, 27.0), mantissa(1.0, 10.0);
    for (int i = 0; i < 100000; ++i) {
        const double d = (i % 2 ? -1.0 : 1.0) * mantissa(random) * std::pow(10.0, std::floor(exponent(random)));
        const decimal_t value(d);
        SCOPED_TRACE(d);
        ASSERT_FALSE(value.is_zero());
        ASSERT_EQ(value.negative(), d < 0);
        const std::string digits = magnitude(value);
        const std::size_t significant = digits.find_last_not_of('0') + 1;
        ASSERT_LE(significant, 16u);
        if (value.scale() > 0 && value.scale() < 28) {
            ASSERT_NE(digits.back(), '0');
        }
        ASSERT_NEAR(value.to_double(), d, std::fabs(d) * 1e-14);
    }
}
