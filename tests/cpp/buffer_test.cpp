// Buffers, little-endian codecs and printing helpers of the runtime.

#include <fbe/fbe.h>

#include <gtest/gtest.h>

#include <sstream>

TEST(Endian, LittleEndianUnaligned) {
    uint8_t bytes[11] = {};
    FBE::store<uint32_t>(bytes + 1, 0x11223344u);
    EXPECT_EQ(bytes[1], 0x44);
    EXPECT_EQ(bytes[4], 0x11);
    FBE::store<double>(bytes + 3, 1000.0);
    EXPECT_EQ(FBE::load<double>(bytes + 3), 1000.0);
    EXPECT_EQ(bytes[9], 0x8f);
    EXPECT_EQ(bytes[10], 0x40);
}

TEST(WriteBuffer, GrowsAndIsReused) {
    FBE::WriteBuffer buffer;
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.allocate(10), 0u);
    EXPECT_EQ(buffer.allocate(5), 10u);
    EXPECT_EQ(buffer.size(), 15u);
    const std::size_t capacity = buffer.capacity();
    buffer.reset();
    EXPECT_EQ(buffer.size(), 0u);
    EXPECT_EQ(buffer.capacity(), capacity); // memory kept
    buffer.resize(4);
    EXPECT_EQ(buffer.data()[3], 0);
    const uint8_t bytes[] = {1, 2, 3, 4, 5};
    buffer.attach(bytes, sizeof(bytes));
    buffer.remove(1, 2);
    EXPECT_EQ(buffer.size(), 3u);
    EXPECT_EQ(buffer.data()[1], 4);
    FBE::WriteBuffer copy = buffer;
    EXPECT_EQ(copy.size(), 3u);
    EXPECT_NE(copy.data(), buffer.data());
}

TEST(ReadBuffer, ViewsCallerMemory) {
    const std::vector<uint8_t> bytes = {1, 2, 3, 4};
    FBE::ReadBuffer view;
    view.attach(bytes, 1);
    EXPECT_EQ(view.data(), bytes.data() + 1);
    EXPECT_EQ(view.size(), 3u);
    view.attach(bytes.data(), bytes.size(), 10); // offset beyond the end: empty view
    EXPECT_EQ(view.size(), 0u);
}

TEST(Text, PrimitivesPrintLikeTheOriginal) {
    auto text = [](const auto& value) {
        std::ostringstream s;
        FBE::print(s, value);
        return s.str();
    };
    EXPECT_EQ(text(true), "true");
    EXPECT_EQ(text(uint8_t(200)), "200");
    EXPECT_EQ(text(int8_t(-5)), "-5");
    EXPECT_EQ(text('A'), "'A'");
    EXPECT_EQ(text(wchar_t(0x0444)), "'D'");
    EXPECT_EQ(text(1e10), "1e+10");
    EXPECT_EQ(text(1.0 / 3.0), "0.333333");
    EXPECT_EQ(text(-0.0), "-0");
    EXPECT_EQ(text(123.456f), "123.456");
    EXPECT_EQ(text(std::string("a\"b")), "\"a\"b\"");
    EXPECT_EQ(text(FBE::buffer_t{1, 2, 3}), "bytes[3]");
    EXPECT_EQ(text(std::optional<int32_t>()), "null");
    EXPECT_EQ(text(std::vector<int32_t>{1, 2}), "[2][1,2]");
    EXPECT_EQ(text(std::list<int32_t>{1, 2}), "[2]<1,2>");
    EXPECT_EQ(text(std::set<int32_t>{2, 1}), "[2]{1,2}");
    EXPECT_EQ(text(std::map<int32_t, std::string>{{1, "a"}}), "[1]<{1->\"a\"}>");
    EXPECT_EQ(text(std::unordered_map<int32_t, bool>{{1, true}}), "[1][{1->true}]");
    EXPECT_EQ(text(std::array<uint8_t, 2>{{1, 2}}), "[2][1,2]");
}
