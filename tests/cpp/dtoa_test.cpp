// fbe/dtoa.h: the JSON text of doubles and floats is the original's (RapidJSON
// master's Writer::Double) and the Python runtime's, and reads back exactly.

#include <fbe/dtoa.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

namespace {

struct DtoaCase {
    uint64_t bits;
    const char* text;
};

struct PythonCachedPower {
    uint64_t f;
    int e;
};

#include "dtoa_cases.inc"

std::string text_of(double value) {
    char text[FBE::dtoa::kBufferSize];
    char* end = FBE::dtoa::write(value, text);
    EXPECT_LE(static_cast<std::size_t>(end - text), 25u); // RapidJSON's Writer reserves 25
    return std::string(text, end);
}

uint64_t bits_of(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
}

double value_of(uint64_t bits) {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
}

TEST(Dtoa, TheOriginalsTextOfGoldenCases) {
    // proto_account_doubles_1 and _2 of ../shared/vectors, written by the
    // original (RapidJSON master); in comments RapidJSON 1.1.0's text where it differs.
    const char* const texts[] = {
        "3.6480313701718416e125",  // 1.1.0: ...419e125
        "1.3382106728004534e71",   // 1.1.0: ...535e71
        "-3.4167076371479583e264", // 1.1.0: ...585e264
        "-1.6064586481891585e150", // 1.1.0: ...586e150
        "0.30000000000000004",     // 1.1.0: 0.30000000000000007
        "1.2345678901234567",      // 1.1.0: ...568
        "3.3341303851700567e-21",  // a float; 1.1.0: ...568e-21
        "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "123456789.12345679", "0.1",
        "9007199254740992.0", "4.9406564584124654e-300", "9.999999999999999e22", "6.02214076e23",
    };
    for (const char* text : texts) {
        const double value = std::strtod(text, nullptr);
        EXPECT_EQ(text_of(value), text);
        EXPECT_EQ(text_of(-value), text[0] == '-' ? std::string(text + 1) : "-" + std::string(text));
    }
    EXPECT_EQ(text_of(static_cast<double>(3.3341303851700567e-21f)), "3.3341303851700567e-21");
}

TEST(Dtoa, TextForms) {
    EXPECT_EQ(text_of(0.0), "0.0");
    EXPECT_EQ(text_of(-0.0), "-0.0");
    EXPECT_EQ(text_of(100.0), "100.0");
    EXPECT_EQ(text_of(-1000.0), "-1000.0");
    EXPECT_EQ(text_of(9007199254740991.0), "9007199254740991.0"); // 2^53 - 1, the integer shortcut's last
    EXPECT_EQ(text_of(9007199254740992.0), "9007199254740992.0"); // 2^53, through Grisu2
    EXPECT_EQ(text_of(1e20), "100000000000000000000.0");
    EXPECT_EQ(text_of(1e21), "1e21");
    EXPECT_EQ(text_of(12.5), "12.5");
    EXPECT_EQ(text_of(0.000001234), "0.000001234");
    EXPECT_EQ(text_of(1e-7), "1e-7");
    EXPECT_EQ(text_of(-2.5e-10), "-2.5e-10");
    // Grisu2 is not always the shortest text, nor the closest of its length.
    EXPECT_EQ(text_of(4.04925338542625e16), "40492533854262496.0");
    EXPECT_EQ(text_of(3.6282152733170465e-75), "3.6282152733170464e-75");
}

TEST(Dtoa, CachedPowersAreExact) {
    // The header's table against Python's, computed with exact integers.
    ASSERT_EQ(std::size(kPythonCachedPowers), std::size(FBE::dtoa::detail::kCachedPowers));
    for (std::size_t i = 0; i < std::size(kPythonCachedPowers); ++i) {
        EXPECT_EQ(FBE::dtoa::detail::kCachedPowers[i].f, kPythonCachedPowers[i].f) << i;
        EXPECT_EQ(FBE::dtoa::detail::kCachedPowers[i].e, kPythonCachedPowers[i].e) << i;
    }
}

TEST(Dtoa, SameTextAsPythonAndReadsBack) {
    // Thousands of doubles and floats (gen_dtoa_cases.py): C++ writes what
    // fbe.jsonfmt writes, and strtod reads the text back to the same bits.
    std::size_t checked = 0;
    for (const DtoaCase& c : kDtoaCases) {
        const double value = value_of(c.bits);
        const std::string text = text_of(value);
        ASSERT_EQ(text, c.text) << std::hex << c.bits;
        ASSERT_EQ(bits_of(std::strtod(text.c_str(), nullptr)), c.bits) << text;
        ++checked;
    }
    EXPECT_GT(checked, 10000u);
}

} // namespace
