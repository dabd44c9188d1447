// The original's API beside the models (issue 24): flags operators that test
// as a bool and assign back to the enum (FBE_ENUM_FLAGS, fbe/flags.h), and a
// decimal_t that converts to double implicitly. Code written for the
// original did not compile against ours before (`if (state & State::good)`).

#include "everything_final_models.h"
#include "everything_models.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

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

// The original's test_decimal.cpp spells field models with the value's type
// alone, on an FBEBuffer made from the caller's bytes: FieldModel<T> is the
// versioned model's view of a value, FinalModel<T> (T not a struct) the
// final model's, which returns the bytes it reads and writes.
FBE::decimal_t one_arg_round_trip(uint32_t low, uint32_t mid, uint32_t high, bool negative, uint8_t scale) {
    uint8_t data[16];
    const uint32_t words[4] = {low, mid, high, (negative ? 0x80000000u : 0u) | (uint32_t(scale) << 16)};
    std::memcpy(data, words, 16);
    FBE::FBEBuffer buffer(data, 16);

    FBE::FieldModel<FBE::decimal_t> model(buffer, 0);
    FBE::decimal_t value1;
    FBE::decimal_t value2;
    EXPECT_TRUE(model.get(value1));
    model.set(value1);
    EXPECT_TRUE(model.get(value2));
    EXPECT_EQ(value1, value2);

    FBE::FinalModel<FBE::decimal_t> final_model(buffer, 0);
    FBE::decimal_t value3;
    FBE::decimal_t value4;
    EXPECT_EQ(final_model.get(value3), 16u);
    EXPECT_EQ(final_model.set(value3), 16u);
    EXPECT_EQ(final_model.get(value4), 16u);
    EXPECT_EQ(value3, value4);
    EXPECT_EQ(value1, value3);
    return value1;
}

TEST(OriginalApi, OneArgumentFieldModelsOnAnFBEBuffer) {
    EXPECT_EQ(double(one_arg_round_trip(0, 0, 0, false, 0)), 0.0);
    EXPECT_EQ(double(one_arg_round_trip(1, 0, 0, false, 0)), 1.0);
    EXPECT_EQ(double(one_arg_round_trip(0x075BCD15, 0, 0, false, 9)), 0.123456789);
    EXPECT_EQ(one_arg_round_trip(0xFFFFFFFF, 0xFFFFFFFF, 0, false, 0), FBE::decimal_t("18446744073709551615"));
    EXPECT_EQ(one_arg_round_trip(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, true, 28),
              FBE::decimal_t("-7.9228162514264337593543950335"));
}

TEST(OriginalApi, OneArgumentModelsReadAtTheBuffersOrigin) {
    // Two bytes before the origin; an int32 then a string at it.
    const uint8_t data[] = {9, 9, 0x2A, 0, 0, 0, 3, 0, 0, 0, 'a', 'b', 'c'};
    FBE::FBEBuffer buffer(data, sizeof(data), 2);
    int32_t number = 0;
    EXPECT_TRUE(FBE::FieldModel<int32_t>(buffer, 0).get(number));
    EXPECT_EQ(number, 42);
    FBE::FinalModel<int32_t> final_number(buffer, 0);
    EXPECT_EQ(final_number.get(number), 4u);
    FBE::FinalModel<std::string> text(buffer, 4);
    std::string value;
    EXPECT_EQ(text.verify(), 7u);
    EXPECT_EQ(text.get(value), 7u);
    EXPECT_EQ(value, "abc");
    EXPECT_EQ(text.fbe_allocation_size("xyz"), 7u);
    EXPECT_EQ(text.set("xyz"), 7u); // in place, over the bytes the buffer holds
    EXPECT_EQ(text.get(value), 7u);
    EXPECT_EQ(value, "xyz");
    EXPECT_EQ(text.set("longer"), 0u); // does not fit: nothing written
    EXPECT_EQ(text.get(value), 7u);
    EXPECT_EQ(value, "xyz");
    EXPECT_EQ(data[10], 'a'); // the buffer holds a copy of the caller's bytes
}

TEST(OriginalApi, OneArgumentModelsReadNothingOutside) {
    // A string whose length goes beyond the buffer; a decimal whose scale is 29.
    const uint8_t cut[] = {5, 0, 0, 0, 'a', 'b'};
    FBE::FBEBuffer buffer(cut, sizeof(cut));
    std::string value = "before";
    FBE::FinalModel<std::string> text(buffer, 0);
    EXPECT_EQ(text.verify(), SIZE_MAX);
    EXPECT_EQ(text.get(value), 0u);
    EXPECT_EQ(value, "");
    EXPECT_EQ(FBE::FinalModel<std::string>(buffer, 7).get(value), 0u);
    EXPECT_FALSE(FBE::FieldModel<std::string>(buffer, 0).get(value));

    uint8_t data[16] = {1};
    data[14] = 29;
    FBE::FBEBuffer decimals(data, 16);
    FBE::decimal_t decimal;
    EXPECT_FALSE(FBE::FieldModel<FBE::decimal_t>(decimals, 0).get(decimal));
    EXPECT_EQ(FBE::FinalModel<FBE::decimal_t>(decimals, 0).get(decimal), 0u);
    EXPECT_EQ(FBE::FinalModel<FBE::decimal_t>(decimals, 1).get(decimal), 0u); // 15 bytes left
}

} // namespace
