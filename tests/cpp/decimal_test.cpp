// decimal_t: the double -> decimal conversion of docs/format.md 2.4 (bytes must
// match the original's), exact text conversions, comparisons.

#include <fbe/scalar.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <utility>
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

TEST(Decimal, ParsingNormalises) {
    EXPECT_EQ(decimal_t("1.50").to_string(), "1.5");
    EXPECT_EQ(decimal_t("+2.000").to_string(), "2");
    EXPECT_EQ(decimal_t("-0.0").flags(), 0u);
    EXPECT_EQ(decimal_t("1e3").to_string(), "1000");
    EXPECT_EQ(decimal_t("12.5e-1").to_string(), "1.25");
    EXPECT_EQ(decimal_t("0.10000000000000000000000000000000").to_string(), "0.1"); // the extra digits are zeros
    EXPECT_EQ(decimal_t("7.9228162514264337593543950335e28").to_string(), "79228162514264337593543950335");
    EXPECT_EQ(decimal_t("0e99999999999999999999").to_string(), "0");
    EXPECT_EQ(decimal_t(std::string(63, '0') + "1").to_string(), "1"); // 64 characters
}

// docs/format.md 2.4: text no decimal holds exactly is refused, never rounded; docs/limits.md 7:
// longer than 64 characters is refused, and the error quotes 32 characters at most.
TEST(Decimal, ParsingRefusesWhatNoDecimalHolds) {
    const std::pair<std::string, std::string> cases[] = {
        {"abc", "invalid decimal \"abc\""},
        {"1.2.3", "invalid decimal \"1.2.3\""},
        {"1e", "invalid decimal \"1e\""},
        {"", "invalid decimal \"\""},
        {"0.00000000000000000000000000015", "decimal \"0.00000000000000000000000000015\" has more than 28 fraction digits"},
        {"1e-29", "decimal \"1e-29\" has more than 28 fraction digits"},
        {"79228162514264337593543950336", "decimal \"79228162514264337593543950336\" out of range: more than 96 bits"},
        {"1e99999999999999999999", "decimal \"1e99999999999999999999\" out of range: more than 96 bits"},
        {std::string(1 << 20, '1'), "decimal text longer than 64 characters: \"11111111111111111111111111111111\"..."},
    };
    for (const auto& [text, error] : cases) {
        decimal_t value(7);
        EXPECT_EQ(decimal_t::parse(text, value), error);
        EXPECT_EQ(value, decimal_t(7)); // untouched
        EXPECT_THROW(decimal_t{text}, std::invalid_argument);
    }
}

// docs/format.md 2.4: the flags hold a scale 0..28 and the sign, nothing else.
TEST(Decimal, FromPartsRefusesOtherFlags) {
    EXPECT_THROW(decimal_t::from_parts(1, 0, 29, false), std::invalid_argument);
    EXPECT_THROW(decimal_t::from_parts(1, 0, 29u << 16), std::invalid_argument);
    EXPECT_THROW(decimal_t::from_parts(1, 0, (1u << 16) | 1u), std::invalid_argument);
    EXPECT_NO_THROW(decimal_t::from_parts(1, 0, 28, true));
    char buffer[48];
    EXPECT_STREQ(decimal_t::flags_error(255u << 16, buffer), "decimal scale 255 above 28");
    EXPECT_STREQ(decimal_t::flags_error((2u << 16) | 0x01000000u, buffer), "decimal flags 0x01020000: reserved bits set");
    EXPECT_EQ(decimal_t::flags_error(0x801C0000u, buffer), nullptr);
}

// docs/format.md 2.4: writers store the value without trailing fraction zeros, whatever scale it holds.
TEST(Decimal, WritersStoreTheNormalizedForm) {
    uint8_t bytes[16];
    FBE::Scalar<decimal_t>::put(bytes, decimal_t::from_parts(150, 0, 2, false));
    const uint8_t one_and_a_half[16] = {15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};
    EXPECT_EQ(0, std::memcmp(bytes, one_and_a_half, 16));
    FBE::Scalar<decimal_t>::put(bytes, decimal_t::from_parts(0, 0, 3, true));
    EXPECT_EQ(0, std::memcmp(bytes, std::array<uint8_t, 16>{}.data(), 16));
    // the original's conversion leaves 0.9999999999999999 as 10 at scale 1: written as 1
    const decimal_t almost_one(0.9999999999999999);
    EXPECT_EQ(almost_one.scale(), 1u);
    FBE::Scalar<decimal_t>::put(bytes, almost_one);
    const uint8_t one[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(0, std::memcmp(bytes, one, 16));
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
    // keys compare by value (docs/limits.md 4): 1 x 10^-1 and 10^27 x 10^-28 are one key
    const decimal_t a = decimal_t::from_parts(1, 0, 1, false);
    const decimal_t b = decimal_t::from_parts(0x9FD0803CE8000000ULL /* 10^27 */, 0x33B2E3C, 28, false);
    EXPECT_EQ(a.to_string(), "0.1");
    EXPECT_EQ(b.to_string(), "0.1000000000000000000000000000");
    EXPECT_EQ(a, b);
    EXPECT_EQ(std::hash<decimal_t>()(a), std::hash<decimal_t>()(b));
    EXPECT_LT(decimal_t::from_parts(UINT64_MAX, 0xFFFFFFFFu, 28, false), decimal_t::from_parts(8, 0, 0, false));
    EXPECT_GT(decimal_t::from_parts(UINT64_MAX, 0xFFFFFFFFu, 28, true), decimal_t::from_parts(8, 0, 0, true));
    EXPECT_LT(decimal_t(), decimal_t::from_parts(1, 0, 28, false));
    EXPECT_GT(decimal_t(), decimal_t::from_parts(1, 0, 28, true));
    EXPECT_EQ(decimal_t::from_parts(0, 0, 28, false), decimal_t::from_parts(0, 0, 3, true));
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
