// The project's own schemas: schemas/tests/everything.fbe (every construct
// of the language) compiles clean and round-trips through both models;
// schemas/cpp-tests/recursive.fbe checks the nesting limit.

#include "everything_final_models.h"
#include "everything_models.h"
#include "recursive_final_models.h"
#include "recursive_models.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

template <template <class> class Model, typename T>
void round_trip(const T& value) {
    Model<FBE::WriteBuffer> writer;
    const std::size_t size = writer.serialize(value);
    ASSERT_TRUE(writer.verify()) << writer.error();
    Model<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer());
    T back;
    ASSERT_EQ(reader.deserialize(back), size) << reader.error();
    EXPECT_EQ(back.string(), value.string());
    Model<FBE::WriteBuffer> again;
    ASSERT_EQ(again.serialize(back), size);
    EXPECT_EQ(0, std::memcmp(again.buffer().data(), writer.buffer().data(), size));
}

everything::Everything filled() {
    everything::Everything e;
    e.f24 = FBE::buffer_t{1, 2, 3};
    e.f31 = -1;
    e.f33 = "optional";
    e.f35 = everything::Counted(7);
    e.f36 = {{1, 2, 3}};
    e.f37 = {{std::nullopt, std::string("x")}};
    e.f38 = {1.5, -2.5};
    e.f39 = {std::nullopt, everything::Counted(3)};
    e.f40 = {"a", "b"};
    e.f41 = {3, 1, 2};
    e.f42 = {market::Instrument("EURUSD", 5), market::Instrument("AUDJPY", 3)};
    e.f43 = {{2, "two"}, {1, "one"}};
    e.f44 = {{"k", std::nullopt}, {"l", everything::Counted(9)}};
    e.f45 = {{FBE::uuid_t("123e4567-e89b-12d3-a456-426655440000"), FBE::buffer_t{9}}};
    e.f46 = {{market::Instrument("X", 1), everything::Counted(1)}};
    e.f47 = 11;
    e.f47Reset = true;
    return e;
}

recursive::Node chain(int depth) {
    recursive::Node node(depth, "leaf", {});
    for (int i = depth - 1; i >= 0; --i)
        node = recursive::Node(i, "node", {node});
    return node;
}

//! The versioned and final roots of `value` as a writer without the depth
//! check writes them (serialize() refuses a value nested too deep): what the
//! readers must refuse. The steps of Model/FinalModel::serialize.
std::vector<uint8_t> unchecked_versioned(const recursive::Node& value) {
    using Body = FBE::VBody<recursive::Node>;
    const std::size_t total = 8 + Body::body_size + Body::extra(value);
    std::vector<uint8_t> root(total);
    FBE::Encoder e{root.data(), 8 + Body::body_size};
    FBE::store_u32(root.data(), static_cast<uint32_t>(total));
    FBE::store_u32(root.data() + 4, 8);
    FBE::store_u32(root.data() + 8, Body::body_size);
    FBE::store_u32(root.data() + 12, Body::type_id);
    Body::write(e, 8, value);
    return root;
}
std::vector<uint8_t> unchecked_final(const recursive::Node& value) {
    using Body = FBE::FBody<recursive::Node>;
    const std::size_t total = 8 + Body::size(value);
    std::vector<uint8_t> root(total + FBE::kWriteSlack); // a writer may store that far past its end
    FBE::store_u32(root.data(), static_cast<uint32_t>(total));
    FBE::store_u32(root.data() + 4, Body::type_id);
    Body::write(root.data() + 8, value);
    root.resize(total);
    return root;
}

} // namespace

TEST(Everything, DefaultsRoundTrip) {
    round_trip<FBE::everything::EverythingModel>(everything::Everything());
    round_trip<FBE::everything::EverythingFinalModel>(everything::Everything());
}

TEST(Everything, ValuesRoundTrip) {
    round_trip<FBE::everything::EverythingModel>(filled());
    round_trip<FBE::everything::EverythingFinalModel>(filled());
}

// A short string is written as one 16-byte copy (final.h, FBlob::write): a root that ends with
// one writes up to FBE::kWriteSlack bytes past its end, into room serialize() leaves (under ASan a
// missing slack is a heap overflow), and the bytes are those of the string.
TEST(Everything, FinalRootEndingWithAShortString) {
    everything::Rejected rejected;
    rejected.reason = "nope";
    FBE::everything::RejectedFinalModel<FBE::WriteBuffer> writer;
    const std::size_t size = writer.serialize(rejected);
    ASSERT_EQ(size, 8u + 16u + 4u + 4u);
    EXPECT_GE(writer.buffer().capacity(), writer.buffer().size() + FBE::kWriteSlack);
    EXPECT_EQ(0, std::memcmp(writer.buffer().data() + size - 8, "\x04\x00\x00\x00nope", 8));
    round_trip<FBE::everything::RejectedFinalModel>(rejected);
}

TEST(Everything, ApiOfTheOriginal) {
    const everything::Derived d(everything::Fixed(1), 2);
    EXPECT_EQ(d.a, 1);
    EXPECT_EQ(d.b, 2);
    EXPECT_EQ(everything::Derived::fbe_type(), 7u);
    EXPECT_EQ(d.string(), "Derived(Fixed(a=1),b=2)");
    everything::Quiet quiet;
    quiet.password = "secret";
    EXPECT_EQ(quiet.string(), "Quiet(password=***,legacy=0)");
    everything::Everything a, b;
    b.id = 43;
    EXPECT_LT(a, b); // [key] id only
    b.f17 = "other";
    b.id = 42;
    EXPECT_EQ(a, b);
    EXPECT_EQ(std::hash<everything::Everything>()(a), std::hash<everything::Everything>()(b));
    swap(a.f17, b.f17);
    a.swap(b);
    EXPECT_EQ(a.f17, "text");
    const everything::FByte both = everything::FByte::one | everything::FByte::two;
    EXPECT_EQ(both, everything::FByte::both);
    EXPECT_EQ((both & ~everything::FByte::one), everything::FByte::two);
    FBE::everything::EverythingModel model; // no template argument: FBE::WriteBuffer
    EXPECT_GT(model.serialize(a), 0u);
}

// The text form of enums and flags (docs/format.md 9), through the runtime's print_enum and print_flags: an
// enum's first declared name of a value (EInt32.c = a prints a), <unknown> for a value without a name; a flags'
// non-zero names whose bits are all set, joined by |.
TEST(Everything, EnumAndFlagsText) {
    const auto text = [](const auto& value) {
        std::ostringstream stream;
        stream << value;
        return stream.str();
    };
    EXPECT_EQ(text(everything::EByte::b), "b");
    EXPECT_EQ(text(everything::EByte::c), "c");
    EXPECT_EQ(text(everything::EInt32::a), "a");
    EXPECT_EQ(text(everything::EInt32::c), "a");
    EXPECT_EQ(text(everything::EInt32::b), "b");
    EXPECT_EQ(text(static_cast<everything::EByte>(2)), "<unknown>");
    EXPECT_EQ(text(static_cast<everything::EInt8>(0)), "<unknown>");
    EXPECT_EQ(text(everything::EInt8::lo), "lo");
    EXPECT_EQ(text(everything::FByte::one | everything::FByte::two), "one|two|both");
    EXPECT_EQ(text(everything::FByte::none), "");
    EXPECT_EQ(text(everything::FUInt64::all), "top|low|all");
}

// everything.Route: [key] venue, weight (no key), [key] leg. ==, < and std::hash take venue, then leg,
// never weight (docs/format.md 3.4), and sets and maps of Route are written in that order.
TEST(Everything, TwoKeyFieldsCompareInDeclarationOrder) {
    using everything::Route;
    EXPECT_EQ(Route("a", 1.0, 2), Route("a", 9.0, 2));
    EXPECT_EQ(std::hash<Route>()(Route("a", 1.0, 2)), std::hash<Route>()(Route("a", 9.0, 2)));
    EXPECT_NE(Route("a", 0.0, 2), Route("a", 0.0, 3));
    EXPECT_NE(Route("a", 0.0, 2), Route("b", 0.0, 2));
    EXPECT_LT(Route("a", 0.0, 2), Route("b", 0.0, 1));
    EXPECT_LT(Route("b", 0.0, -1), Route("b", 0.0, 1));
    EXPECT_FALSE(Route("a", 1.0, 2) < Route("a", 9.0, 2));
    EXPECT_FALSE(Route("a", 9.0, 2) < Route("a", 1.0, 2));
    everything::Routes routes;
    routes.routes = {Route("b", 0.0, 1), Route("a", 0.0, 2), Route("a", 5.0, 2), Route("a", 0.0, -1)};
    routes.ranks = {{Route("b", 0.0, 1), 10}, {Route("a", 0.0, 2), 20}};
    routes.names = {{Route("b", 0.0, 1), "x"}, {Route("b", 7.0, 1), "y"}};
    ASSERT_EQ(routes.routes.size(), 3u);
    EXPECT_EQ(routes.names.size(), 1u);
    std::vector<std::pair<std::string, int32_t>> order;
    for (const Route& r : routes.routes)
        order.emplace_back(r.venue, r.leg);
    EXPECT_EQ(order, (std::vector<std::pair<std::string, int32_t>>{{"a", -1}, {"a", 2}, {"b", 1}}));
    round_trip<FBE::everything::RoutesModel>(routes);
    round_trip<FBE::everything::RoutesFinalModel>(routes);
}

TEST(Recursive, NestingWithinTheLimitRoundTrips) {
    round_trip<FBE::recursive::NodeModel>(chain(100));
    round_trip<FBE::recursive::NodeFinalModel>(chain(100));
}

TEST(Recursive, NestingBeyondTheLimitIsRejected) {
    const recursive::Node deep = chain(static_cast<int>(FBE::kMaxDepth) + 10);
    FBE::recursive::NodeModel<> writer;
    EXPECT_EQ(writer.serialize(deep), 0u); // refused (tests/cpp_proto/nesting_test.cpp)
    writer.attach(unchecked_versioned(deep));
    EXPECT_FALSE(writer.verify());
    EXPECT_NE(writer.error().find("nesting deeper than 128"), std::string::npos) << writer.error();
    recursive::Node back;
    EXPECT_EQ(writer.deserialize(back), 0u);
    EXPECT_NE(writer.error().find("recursive.Node.children"), std::string::npos) << writer.error();

    FBE::recursive::NodeFinalModel<> final_writer;
    EXPECT_EQ(final_writer.serialize(deep), 0u);
    final_writer.attach(unchecked_final(deep));
    EXPECT_FALSE(final_writer.verify());
    EXPECT_NE(final_writer.error().find("nesting deeper than 128"), std::string::npos) << final_writer.error();
}

// ---------------------------------------------------------------- duplicate keys (docs/limits.md 4)
// A set, map or hash whose buffer holds the same key twice is refused by
// verify() and deserialize() of both models: no reader keeps "the first"
// (std::set, std::map) or "the last" (a Python dict). The same buffers in
// Python: tests/python/test_duplicate_keys.py; across languages: the
// conformance suite's "malformed: duplicate keys".

namespace {

constexpr int32_t kA = 0x5A5A5A5A;
constexpr int32_t kB = 0x5B5B5B5B;

//! `data` with the one occurrence of `from` replaced by `to`.
std::vector<uint8_t> replaced(std::vector<uint8_t> data, const std::string& from, const std::string& to) {
    const std::string text(data.begin(), data.end());
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos);
    EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "more than one occurrence";
    if (at != std::string::npos)
        std::memcpy(data.data() + at, to.data(), to.size());
    return data;
}

std::string bytes_of(int32_t v) {
    std::string out(4, '\0');
    std::memcpy(out.data(), &v, 4);
    return out;
}

template <template <class> class Model>
void refused_twice(const everything::Everything& value, const std::string& from, const std::string& to) {
    Model<FBE::WriteBuffer> writer;
    ASSERT_GT(writer.serialize(value), 0u);
    ASSERT_TRUE(writer.verify()) << writer.error();
    const std::vector<uint8_t> good(writer.buffer().data(), writer.buffer().data() + writer.buffer().size());
    Model<FBE::ReadBuffer> reader;
    const std::vector<uint8_t> bad = replaced(good, from, to);
    reader.attach(bad);
    EXPECT_FALSE(reader.verify());
    EXPECT_NE(reader.error().find("duplicate key"), std::string::npos) << reader.error();
    everything::Everything back;
    reader.deserialize(back);
    EXPECT_NE(reader.error().find("duplicate key"), std::string::npos) << reader.error();
}

template <template <class> class Model>
void duplicate_keys_refused() {
    everything::Everything e;
    e.f41 = {int64_t(kA) << 8, int64_t(kB) << 8};
    refused_twice<Model>(e, bytes_of(kB), bytes_of(kA));
    e = everything::Everything();
    e.f43 = {{kA, "a"}, {kB, "b"}};
    refused_twice<Model>(e, bytes_of(kB), bytes_of(kA));
    e = everything::Everything();
    e.f42 = {market::Instrument("SYMA", 1), market::Instrument("SYMB", 2)}; // the same key: symbol
    refused_twice<Model>(e, "SYMB", "SYMA");
    e = everything::Everything();
    e.f45 = {{FBE::uuid_t("5a5a5a5a-0000-0000-0000-000000000000"), FBE::buffer_t{1}},
             {FBE::uuid_t("5b5b5b5b-0000-0000-0000-000000000000"), FBE::buffer_t{2}}};
    refused_twice<Model>(e, bytes_of(kB), bytes_of(kA));
    e = everything::Everything();
    e.f46 = {{market::Instrument("SYMA", 1), everything::Counted(1)},
             {market::Instrument("SYMB", 1), everything::Counted(2)}};
    refused_twice<Model>(e, "SYMB", "SYMA");
}

//! Keys out of order (our writers write them sorted; others need not): read
//! when distinct, refused when two are the same even far apart.
template <template <class> class Model>
void keys_out_of_order() {
    constexpr int32_t kC = 0x5C5C5C5C;
    constexpr int32_t kLow = 0x59595959;
    everything::Everything e;
    e.f43 = {{kA, "a"}, {kB, "b"}, {kC, "c"}};
    Model<FBE::WriteBuffer> writer;
    ASSERT_GT(writer.serialize(e), 0u);
    const std::vector<uint8_t> good(writer.buffer().data(), writer.buffer().data() + writer.buffer().size());
    const std::vector<uint8_t> unordered = replaced(good, bytes_of(kB), bytes_of(kLow)); // A, Low, C
    Model<FBE::ReadBuffer> reader;
    reader.attach(unordered);
    EXPECT_TRUE(reader.verify()) << reader.error();
    everything::Everything back;
    EXPECT_GT(reader.deserialize(back), 0u) << reader.error();
    EXPECT_EQ(back.f43.size(), 3u);
    EXPECT_EQ(back.f43.begin()->first, kLow);
    const std::vector<uint8_t> apart = replaced(good, bytes_of(kC), bytes_of(kA)); // A, B, A
    reader.attach(apart);
    EXPECT_FALSE(reader.verify());
    EXPECT_NE(reader.error().find("duplicate key"), std::string::npos) << reader.error();
    reader.deserialize(back);
    EXPECT_NE(reader.error().find("duplicate key"), std::string::npos) << reader.error();
}

} // namespace

TEST(DuplicateKeys, KeysOutOfOrder) {
    keys_out_of_order<FBE::everything::EverythingModel>();
    keys_out_of_order<FBE::everything::EverythingFinalModel>();
}

TEST(DuplicateKeys, RefusedByTheVersionedModel) {
    duplicate_keys_refused<FBE::everything::EverythingModel>();
}

TEST(DuplicateKeys, RefusedByTheFinalModel) {
    duplicate_keys_refused<FBE::everything::EverythingFinalModel>();
}
