// uuid_t: canonical byte order, the lenient parser of docs/format.md 2.3, generators.

#include <fbe/scalar.h>

#include <gtest/gtest.h>

#include <set>

using FBE::uuid_t;

TEST(Uuid, CanonicalByteOrder) {
    const uuid_t id("123e4567-e89b-12d3-a456-426655440000");
    uint8_t bytes[16];
    FBE::Scalar<uuid_t>::put(bytes, id);
    const uint8_t expected[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                                  0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0x00, 0x00};
    EXPECT_EQ(0, std::memcmp(bytes, expected, 16));
    EXPECT_EQ(FBE::Scalar<uuid_t>::get(bytes), id);
    EXPECT_EQ(id.string(), "123e4567-e89b-12d3-a456-426655440000");
}

TEST(Uuid, LenientParser) {
    const uuid_t id("123e4567-e89b-12d3-a456-426655440000");
    EXPECT_EQ(uuid_t("{123E4567E89B12D3A456426655440000}"), id);
    EXPECT_EQ(uuid_t("12-3e-45-67e89b12d3a4564266554400-00"), id);
    EXPECT_EQ(uuid_t("123e4567-e89b-12d3-a456-426655440000-ffff"), id); // stops after 16 bytes
    EXPECT_EQ(uuid_t("ff").string(), "ff000000-0000-0000-0000-000000000000"); // zero-filled
    EXPECT_THROW(uuid_t("12zz"), std::invalid_argument);
}

TEST(Uuid, NilAndGenerators) {
    EXPECT_TRUE(uuid_t::nil().is_nil());
    EXPECT_EQ(uuid_t().string(), "00000000-0000-0000-0000-000000000000");
    std::set<uuid_t> seen;
    for (int i = 0; i < 1000; ++i) {
        const uuid_t a = uuid_t::sequential(), b = uuid_t::random();
        EXPECT_EQ(a.data()[6] >> 4, 1); // version 1
        EXPECT_EQ(b.data()[6] >> 4, 4); // version 4
        EXPECT_EQ(a.data()[8] & 0xC0, 0x80);
        EXPECT_EQ(b.data()[8] & 0xC0, 0x80);
        EXPECT_TRUE(seen.insert(a).second);
        EXPECT_TRUE(seen.insert(b).second);
    }
}

TEST(Timestamp, UtcIsNanosecondsSinceEpoch) {
    const uint64_t now = FBE::utc();
    EXPECT_GT(now, UINT64_C(1577836800000000000)); // after 2020-01-01
    EXPECT_LE(now, FBE::utc());
}
