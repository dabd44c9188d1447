// The original's API beside the models (issue 24): flags operators that test
// as a bool and assign back to the enum (FBE_ENUM_FLAGS, fbe/flags.h), and a
// decimal_t that converts to double implicitly. Code written for the
// original did not compile against ours before (`if (state & State::good)`).

#include "everything.h"

#include <gtest/gtest.h>

namespace {

using everything::FByte;
using everything::FUInt64;

TEST(OriginalApi, FlagsTestAsABool) {
    const FByte value = FByte::one;
    if (value & FByte::two)
        FAIL() << "two is not set";
    EXPECT_TRUE(value & FByte::one);
    EXPECT_TRUE((value | FByte::two));
    EXPECT_FALSE(FByte::one & FByte::two);
    EXPECT_TRUE(!(FByte::one & FByte::two));
    EXPECT_TRUE((FByte::both ^ FByte::one) & FByte::two);
    // The top bit of a 64-bit flag is a bit like any other.
    EXPECT_TRUE(FUInt64::all & FUInt64::top);
    EXPECT_FALSE(FUInt64::low & FUInt64::top);
}

TEST(OriginalApi, FlagsAssignBackToTheEnum) {
    FByte value = FByte::one | FByte::two;
    EXPECT_EQ(value, FByte::both);
    value &= ~FByte::one;
    EXPECT_EQ(value, FByte::two);
    value |= FByte::one;
    EXPECT_EQ(value, FByte::both);
    value ^= FByte::both;
    EXPECT_EQ(value, FByte::none);
    EXPECT_EQ((FByte::one | FByte::two).bits(), 3);
    constexpr FUInt64 all = FUInt64::top | FUInt64::low; // still constexpr
    static_assert(all == FUInt64::all);
    EXPECT_EQ((FByte::one | FByte::two) == FByte::both, true);
}

TEST(OriginalApi, FlagsPrintThroughTheEnum) {
    std::ostringstream os;
    os << (FByte::one | FByte::two);
    EXPECT_EQ(os.str(), "one|two|both");
}

TEST(OriginalApi, DecimalConvertsToDouble) {
    const FBE::decimal_t price(1.5);
    const double value = price; // implicit, as the original's
    EXPECT_EQ(value, 1.5);
    EXPECT_EQ(price * 2, 3.0);
    EXPECT_TRUE(price == 1.5);
    EXPECT_TRUE(1.5 == price);
    EXPECT_TRUE(price != 2);
    EXPECT_TRUE(price < 2);
    EXPECT_TRUE(price >= 1.5f);
    // Compared as decimals, not as doubles: all 28 digits count.
    const FBE::decimal_t exact("0.1000000000000000000000000001");
    EXPECT_FALSE(exact == 0.1);
    EXPECT_TRUE(exact != 0.1);
}

} // namespace
