// Field models (fbe/field_model.h, <package>_field_models.h): the original's
// in-place API of the versioned model (issue 24). What they write must be
// serialize()'s bytes, what they read deserialize()'s values, and no view
// reads outside its buffer, whatever the buffer holds (the tests also run
// under ASan/UBSan: make test-cpp-asan). The same for the read-only views
// (fbe/view.h, FBE::View<S>).

#include "everything_models.h"
#include "recursive_models.h"
#include "proto_final_models.h"
#include "proto_models.h"
#include "vectors_models.h"
#include "vectors_new_models.h"
#include "vectors_old_models.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

template <typename T>
std::string text(const T& value) {
    std::ostringstream os;
    FBE::print(os, value);
    return os.str();
}

template <typename B>
std::vector<uint8_t> bytes_of(const B& buffer) {
    return std::vector<uint8_t>(buffer.data(), buffer.data() + buffer.size());
}

// The original's test_create.cpp, on this project's trade.fbe (its proto.fbe).
std::size_t create_account(FBE::proto::AccountModel<>& writer) {
    const std::size_t model_begin = writer.create_begin();
    const std::size_t account_begin = writer.model.set_begin();
    writer.model.id.set(1);
    writer.model.name.set(std::string("Test"));
    writer.model.state.set(proto::State::good);
    const std::size_t wallet_begin = writer.model.wallet.set_begin();
    writer.model.wallet.currency.set(std::string("USD"));
    writer.model.wallet.amount.set(1000.0);
    writer.model.wallet.set_end(wallet_begin);
    const std::size_t asset_begin = writer.model.asset.set_begin(true);
    const std::size_t asset_wallet_begin = writer.model.asset.value.set_begin();
    writer.model.asset.value.currency.set(std::string("EUR"));
    writer.model.asset.value.amount.set(100.0);
    writer.model.asset.value.set_end(asset_wallet_begin);
    writer.model.asset.set_end(asset_begin);
    auto order = writer.model.orders.resize(3);
    const int ids[] = {1, 2, 3};
    const proto::OrderSide sides[] = {proto::OrderSide::buy, proto::OrderSide::sell, proto::OrderSide::buy};
    const proto::OrderType types[] = {proto::OrderType::market, proto::OrderType::limit, proto::OrderType::stop};
    const double prices[] = {1.23456, 1.0, 1.5};
    const double volumes[] = {1000.0, 100.0, 10.0};
    for (int i = 0; i < 3; ++i) {
        const std::size_t order_begin = order.set_begin();
        order.id.set(ids[i]);
        order.symbol.set(std::string("EURUSD"));
        order.side.set(sides[i]);
        order.type.set(types[i]);
        order.price.set(prices[i]);
        order.volume.set(volumes[i]);
        order.set_end(order_begin);
        order.fbe_shift(order.fbe_size());
    }
    writer.model.set_end(account_begin);
    return writer.create_end(model_begin);
}

proto::Account the_account() {
    proto::Account account{1, "Test", proto::State::good, {"USD", 1000.0}, proto::Balance{"EUR", 100.0}, {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    return account;
}

TEST(FieldModel, CreateWritesSerializesBytes) {
    FBE::proto::AccountModel<> writer;
    EXPECT_EQ(writer.model.fbe_offset(), 4u);
    const std::size_t size = create_account(writer);
    EXPECT_EQ(size, writer.buffer().size());
    EXPECT_EQ(size, 252u); // the original's test_create.cpp
    EXPECT_TRUE(writer.verify()) << writer.error();

    FBE::proto::AccountModel<> serialized;
    ASSERT_EQ(serialized.serialize(the_account()), size);
    EXPECT_EQ(bytes_of(writer.buffer()), bytes_of(serialized.buffer()));
}

TEST(FieldModel, AccessReadsInPlace) {
    FBE::proto::AccountModel<> writer;
    writer.serialize(the_account());
    FBE::proto::AccountModel<FBE::ReadBuffer> reader;
    EXPECT_EQ(reader.model.fbe_offset(), 4u);
    reader.attach(writer.buffer());
    ASSERT_TRUE(reader.verify());

    int32_t id = 0;
    std::string name;
    proto::State state = proto::State::unknown;
    const std::size_t account_begin = reader.model.get_begin();
    ASSERT_NE(account_begin, 0u);
    reader.model.id.get(id);
    reader.model.name.get(name);
    reader.model.state.get(state);
    EXPECT_EQ(id, 1);
    EXPECT_EQ(name, "Test");
    EXPECT_TRUE((state | proto::State::good));

    std::string currency;
    double amount = 0;
    const std::size_t wallet_begin = reader.model.wallet.get_begin();
    reader.model.wallet.currency.get(currency);
    reader.model.wallet.amount.get(amount);
    reader.model.wallet.get_end(wallet_begin);
    EXPECT_EQ(currency, "USD");
    EXPECT_EQ(amount, 1000.0);

    ASSERT_TRUE(reader.model.asset.has_value());
    const std::size_t asset_begin = reader.model.asset.get_begin();
    const std::size_t asset_wallet_begin = reader.model.asset.value.get_begin();
    reader.model.asset.value.currency.get(currency);
    reader.model.asset.value.amount.get(amount);
    reader.model.asset.value.get_end(asset_wallet_begin);
    reader.model.asset.get_end(asset_begin);
    EXPECT_EQ(currency, "EUR");
    EXPECT_EQ(amount, 100.0);

    ASSERT_EQ(reader.model.orders.size(), 3u);
    const proto::Account account = the_account();
    for (std::size_t i = 0; i < 3; ++i) {
        auto order = reader.model.orders[i];
        const std::size_t order_begin = order.get_begin();
        ASSERT_NE(order_begin, 0u);
        int32_t order_id = 0;
        std::string symbol;
        proto::OrderSide side{};
        double price = 0;
        order.id.get(order_id);
        order.symbol.get(symbol);
        order.side.get(side);
        order.price.get(price);
        order.get_end(order_begin);
        EXPECT_EQ(order_id, account.orders[i].id);
        EXPECT_EQ(symbol, "EURUSD");
        EXPECT_EQ(side, account.orders[i].side);
        EXPECT_EQ(price, account.orders[i].price);
        proto::Order whole;
        EXPECT_TRUE(reader.model.orders[i].get(whole));
        EXPECT_EQ(text(whole), text(account.orders[i]));
    }
    reader.model.get_end(account_begin);
    EXPECT_EQ(reader.buffer().offset(), 0u); // every begin was ended

    // Beyond the items: a view that reads nothing.
    proto::Order none;
    EXPECT_FALSE(reader.model.orders[3].get(none));
    int32_t nothing = 7;
    EXPECT_FALSE(reader.model.orders[3].id.get(nothing));
    EXPECT_EQ(nothing, 0);
}

// The CppSerialization benchmark's way: the user's own classes write and
// read themselves through the field models.
struct MyOrder {
    int32_t id;
    std::string symbol;
    double price;
    template <class TBuffer>
    void serialize(FBE::FieldModel<TBuffer, proto::Order>& model) const {
        const std::size_t begin = model.set_begin();
        model.id.set(id);
        model.symbol.set(symbol);
        model.side.set(proto::OrderSide::buy);
        model.type.set(proto::OrderType::market);
        model.price.set(price);
        model.volume.set(0.0);
        model.set_end(begin);
    }
    template <class TBuffer>
    void deserialize(FBE::FieldModel<TBuffer, proto::Order>& model) {
        const std::size_t begin = model.get_begin();
        model.id.get(id);
        model.symbol.get(symbol);
        model.price.get(price);
        model.get_end(begin);
    }
};

TEST(FieldModel, DomainClassesSerializeThemselves) {
    const MyOrder mine{5, "GBPUSD", 1.25};
    FBE::proto::OrderModel<> writer;
    const std::size_t begin = writer.create_begin();
    mine.serialize(writer.model);
    const std::size_t size = writer.create_end(begin);

    FBE::proto::OrderModel<> serialized;
    ASSERT_EQ(serialized.serialize(proto::Order(5, "GBPUSD", proto::OrderSide::buy, proto::OrderType::market, 1.25, 0.0)),
              size);
    EXPECT_EQ(bytes_of(writer.buffer()), bytes_of(serialized.buffer()));

    FBE::proto::OrderModel<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer());
    MyOrder back{};
    back.deserialize(reader.model);
    EXPECT_EQ(back.id, 5);
    EXPECT_EQ(back.symbol, "GBPUSD");
    EXPECT_EQ(back.price, 1.25);
}

// The spellings the original's own tests (test_serialization.cpp,
// test_extending.cpp, test_clone.cpp, test_enums.cpp) use around the
// models, on this project's trade.fbe: a model declared without template
// arguments, the root's field model at offset 4 with its type, serialize()
// and deserialize() returning the root's size, a reader of the writer's
// own type attached to the writer's buffer, brace-initialised structs and
// optionals, flags tested as a bool. Only `next()` is missing (docs/cpp.md,
// "Migrating from the original").
TEST(OriginalShapes, ModelsAsTheOriginalsTestsSpellThem) {
    proto::Account account1 = {1, "Test", proto::State::good, {"USD", 1000.0},
                               std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account1.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account1.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account1.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);

    FBE::proto::AccountModel writer;
    EXPECT_EQ(writer.model.fbe_offset(), 4u);
    EXPECT_EQ(writer.model.fbe_type(), FBE::VBody<proto::Account>::type_id);
    const std::size_t serialized = writer.serialize(account1);
    EXPECT_EQ(serialized, writer.buffer().size());
    EXPECT_TRUE(writer.verify());
    EXPECT_EQ(writer.buffer().size(), 252u);

    proto::Account account2;
    FBE::proto::AccountModel reader;
    EXPECT_EQ(reader.model.fbe_offset(), 4u);
    reader.attach(writer.buffer());
    EXPECT_TRUE(reader.verify());
    const std::size_t deserialized = reader.deserialize(account2);
    EXPECT_EQ(deserialized, reader.buffer().size());
    EXPECT_TRUE((account2.state | proto::State::good));
    EXPECT_EQ(std::string(account2.wallet.currency), "USD");
    ASSERT_TRUE(account2.asset.has_value());
    EXPECT_EQ(account2.asset.value().amount, 100.0);
    ASSERT_EQ(account2.orders.size(), 3u);
    EXPECT_EQ(account2.orders[2].type, proto::OrderType::stop);

    // test_extending.cpp and test_clone.cpp: emplace into an optional, assign
    // a default struct, copy and clear.
    account1.asset.emplace(proto::Balance{"EUR", 200.0});
    EXPECT_EQ(account1.asset->amount, 200.0);
    account1.asset = proto::Balance();
    EXPECT_EQ(account1.asset->amount, 0.0);
    const proto::Account clone = account2;
    account2 = proto::Account();
    EXPECT_EQ(clone.name, "Test");
    EXPECT_TRUE(account2.orders.empty());
}

// The original's tests move the models on after each root with next() and
// check model.fbe_offset() after it (test_serialization.cpp,
// test_extending.cpp, test_enums.cpp, test_create.cpp); here next() also
// makes deserialize() and verify() read the root the model moved to.
TEST(OriginalShapes, NextMovesTheModelsToTheFollowingRoot) {
    proto::Account account1 = the_account();
    FBE::proto::AccountModel writer;
    EXPECT_EQ(writer.model.fbe_offset(), 4u);
    const std::size_t serialized = writer.serialize(account1);
    EXPECT_EQ(serialized, writer.buffer().size());
    EXPECT_TRUE(writer.verify());
    writer.next(serialized);
    EXPECT_EQ(writer.model.fbe_offset(), (4 + writer.buffer().size()));

    // A second root, self-relative, written after next() by serialize()
    // and a third by the field models.
    account1.name = "Second";
    const std::size_t second = writer.serialize(account1);
    writer.next(second);
    EXPECT_EQ(writer.model.fbe_offset(), (4 + writer.buffer().size()));
    const std::size_t third = create_account(writer);
    writer.next(third);
    EXPECT_EQ(writer.model.fbe_offset(), (4 + writer.buffer().size()));
    FBE::proto::AccountModel<> alone;
    alone.serialize(account1);
    EXPECT_EQ(0, std::memcmp(writer.buffer().data() + serialized, alone.buffer().data(), second));

    FBE::proto::AccountModel reader;
    EXPECT_EQ(reader.model.fbe_offset(), 4u);
    reader.attach(writer.buffer());
    proto::Account account2;
    EXPECT_TRUE(reader.verify());
    std::size_t deserialized = reader.deserialize(account2);
    EXPECT_EQ(deserialized, serialized);
    EXPECT_EQ(account2.name, "Test");
    reader.next(deserialized);
    EXPECT_EQ(reader.model.fbe_offset(), 4 + serialized);
    EXPECT_TRUE(reader.verify()) << reader.error();
    deserialized = reader.deserialize(account2);
    EXPECT_EQ(deserialized, second) << reader.error();
    EXPECT_EQ(account2.name, "Second");
    reader.next(deserialized);
    deserialized = reader.deserialize(account2);
    EXPECT_EQ(deserialized, third) << reader.error();
    EXPECT_EQ(text(account2), text(the_account()));
    reader.next(deserialized);
    EXPECT_EQ(reader.model.fbe_offset(), (4 + reader.buffer().size()));
    EXPECT_FALSE(reader.verify()); // no root left
    EXPECT_EQ(reader.deserialize(account2), 0u);
}

// The final model's next() as test_serialization_final.cpp spells it:
// deserialize() and verify() read the root the model stands at.
TEST(OriginalShapes, FinalModelsNextToTheFollowingRoot) {
    proto::Account account1 = the_account();
    FBE::proto::AccountFinalModel writer;
    const std::size_t serialized = writer.serialize(account1);
    EXPECT_EQ(serialized, writer.buffer().size());
    EXPECT_TRUE(writer.verify());
    writer.next(serialized);
    EXPECT_EQ(writer.buffer().size(), 152u); // the original's size

    // A second root appended after next(): verify() reads it.
    account1.name = "Second";
    const std::size_t second = writer.serialize(account1);
    EXPECT_EQ(writer.buffer().size(), serialized + second);
    EXPECT_TRUE(writer.verify()) << writer.error();
    writer.next(second);

    proto::Account account2;
    FBE::proto::AccountFinalModel reader;
    reader.attach(writer.buffer());
    EXPECT_TRUE(reader.verify());
    std::size_t deserialized = reader.deserialize(account2);
    EXPECT_EQ(deserialized, serialized);
    EXPECT_EQ(account2.name, "Test");
    reader.next(deserialized);
    EXPECT_TRUE(reader.verify()) << reader.error();
    deserialized = reader.deserialize(account2);
    EXPECT_EQ(deserialized, second) << reader.error();
    EXPECT_EQ(account2.name, "Second");
    ASSERT_EQ(account2.orders.size(), 3u);
    EXPECT_EQ(account2.orders[2].type, proto::OrderType::stop);
    reader.next(deserialized);
    EXPECT_FALSE(reader.verify()); // no root left
    EXPECT_EQ(reader.deserialize(account2), 0u);
    EXPECT_FALSE(reader.error().empty());

    // Past the buffer's end: an error, nothing read.
    FBE::proto::AccountFinalModel<FBE::ReadBuffer> beyond;
    beyond.attach(writer.buffer());
    beyond.next(serialized + second + 1);
    EXPECT_FALSE(beyond.verify());
    EXPECT_EQ(beyond.error(), "no root at " + std::to_string(serialized + second + 1) + ": the buffer has " +
                                  std::to_string(serialized + second) + " bytes");
}

TEST(OriginalShapes, FinalModelsNextKeepTheirLimits) {
    FBE::proto::AccountFinalModel writer;
    writer.serialize(the_account());
    const std::size_t first = writer.buffer().size();
    writer.serialize(the_account());
    FBE::proto::AccountFinalModel<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer());
    FBE::Limits limits;
    limits.budget_factor = 0;
    limits.budget_slack = 10; // far less than an Account costs
    reader.limits(limits);
    reader.next(first);
    EXPECT_FALSE(reader.verify());
    EXPECT_NE(reader.error().find("decode budget exceeded"), std::string::npos) << reader.error();
}

TEST(FieldModel, RootsAppendSelfRelative) {
    // create_begin() starts a root at the end of the buffer; each is the
    // bytes serialize() writes, readable on its own.
    FBE::proto::AccountModel<> writer;
    const std::size_t first = create_account(writer);
    const std::size_t second = create_account(writer);
    EXPECT_EQ(first, second);
    FBE::proto::AccountModel<> serialized;
    serialized.serialize(the_account());
    EXPECT_EQ(0, std::memcmp(writer.buffer().data() + first, serialized.buffer().data(), second));
    FBE::proto::AccountModel<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer().data() + first, second);
    proto::Account back;
    ASSERT_EQ(reader.deserialize(back), second) << reader.error();
    EXPECT_EQ(text(back), text(the_account()));
}

everything::Everything filled() {
    everything::Everything e;
    e.f10 = 77;
    e.f17 = "a longer text than sixteen bytes";
    e.f24 = FBE::buffer_t{1, 2, 3};
    e.f27 = everything::FByte::two;
    e.f29 = everything::Counted(7);
    e.f30 = market::Instrument("EURUSD", 4);
    e.f31 = -1;
    e.f33 = "optional";
    e.f35 = everything::Counted(3);
    e.f36 = {{1, 2, 3}};
    e.f37 = {{std::nullopt, std::string("x")}};
    e.f38 = {1.5, -2.5};
    e.f39 = {std::nullopt, everything::Counted(3)};
    e.f40 = {"a", "b"};
    e.f41 = {3, 1, 2};
    e.f42 = {market::Instrument("B", 1), market::Instrument("A", 2)};
    e.f43 = {{1, "k"}, {2, "l"}};
    e.f44 = {{"none", std::nullopt}, {"some", everything::Counted(9)}};
    e.f45 = {{FBE::uuid_t("123e4567-e89b-12d3-a456-426655440000"), FBE::buffer_t{9}}};
    e.f46 = {{market::Instrument("X", 0), everything::Counted(1)}};
    e.f47 = 5;
    e.f49 = {{FBE::buffer_t{1}, 1}, {FBE::buffer_t{}, 2}};
    e.f50 = {{FBE::buffer_t{4, 5}, "s"}};
    e.f51 = {FBE::decimal_t("1.5"), FBE::decimal_t("-0.001")};
    e.f52 = {{FBE::decimal_t("2.25"), 1}};
    return e;
}

// Every field of everything.Everything, in order.
#define EVERYTHING_FIELDS(X)                                                                                   \
    X(id) X(f1) X(f2) X(f3) X(f4) X(f5) X(f6) X(f7) X(f8) X(f9) X(f10) X(f11) X(f12) X(f13) X(f14) X(f15)     \
    X(f16) X(f17) X(f18) X(f19) X(f20) X(f21) X(f22) X(f23) X(f24) X(f25) X(f26) X(f27) X(f28) X(f29) X(f30)  \
    X(f31) X(f32) X(f33) X(f34) X(f35) X(f36) X(f37) X(f38) X(f39) X(f40) X(f41) X(f42) X(f43) X(f44) X(f45)  \
    X(f46) X(f47) X(f48) X(f49) X(f50) X(f51) X(f52)

void everything_field_by_field(const everything::Everything& value) {
    SCOPED_TRACE(text(value));
    FBE::everything::EverythingModel<> serialized;
    const std::size_t size = serialized.serialize(value);

    // Write: one set() per field, in order (every type of the schema).
    FBE::everything::EverythingModel<> writer;
    const std::size_t begin = writer.create_begin();
    const std::size_t body = writer.model.set_begin();
#define SET_FIELD(f) writer.model.f.set(value.f);
    EVERYTHING_FIELDS(SET_FIELD)
#undef SET_FIELD
    writer.model.set_end(body);
    EXPECT_EQ(writer.create_end(begin), size);
    EXPECT_EQ(bytes_of(writer.buffer()), bytes_of(serialized.buffer()));

    // Read: one get() per field, each the value deserialize() reads.
    FBE::everything::EverythingModel<FBE::ReadBuffer> reader;
    reader.attach(serialized.buffer());
    ASSERT_TRUE(reader.verify()) << reader.error();
    const std::size_t entered = reader.model.get_begin();
    ASSERT_NE(entered, 0u);
#define GET_FIELD(f)                                                                                           \
    {                                                                                                          \
        decltype(value.f) field{};                                                                             \
        EXPECT_TRUE(reader.model.f.get(field)) << #f;                                                          \
        EXPECT_EQ(text(field), text(value.f)) << #f;                                                           \
        EXPECT_TRUE(reader.model.f.verify()) << #f;                                                            \
    }
    EVERYTHING_FIELDS(GET_FIELD)
#undef GET_FIELD
    reader.model.get_end(entered);

    // The whole value through the root's model.
    everything::Everything whole;
    EXPECT_TRUE(reader.model.get(whole));
    EXPECT_EQ(text(whole), text(value));
    EXPECT_TRUE(reader.model.verify());
    FBE::everything::EverythingModel<> again;
    const std::size_t again_begin = again.create_begin();
    again.model.set(value);
    again.create_end(again_begin);
    EXPECT_EQ(bytes_of(again.buffer()), bytes_of(serialized.buffer()));
}

TEST(FieldModel, EveryTypeFieldByField) {
    everything_field_by_field(everything::Everything());
    everything_field_by_field(filled());
}

template <template <class> class Model, typename T>
void whole_value(const T& value) {
    SCOPED_TRACE(text(value));
    Model<FBE::WriteBuffer> serialized;
    const std::size_t size = serialized.serialize(value);
    Model<FBE::WriteBuffer> writer;
    const std::size_t begin = writer.create_begin();
    writer.model.set(value);
    EXPECT_EQ(writer.create_end(begin), size);
    EXPECT_EQ(bytes_of(writer.buffer()), bytes_of(serialized.buffer()));
    Model<FBE::ReadBuffer> reader;
    reader.attach(serialized.buffer());
    T back;
    EXPECT_TRUE(reader.model.verify());
    EXPECT_TRUE(reader.model.get(back));
    EXPECT_EQ(text(back), text(value));
    EXPECT_EQ(Model<FBE::ReadBuffer>().model.fbe_type(), reader.fbe_type());
}

TEST(FieldModel, EveryStructAsAWhole) {
    using namespace FBE::everything;
    whole_value<CountedModel>(everything::Counted(5));
    whole_value<ShiftedModel>(everything::Shifted(6));
    whole_value<AfterShiftModel>(everything::AfterShift(7));
    whole_value<FixedModel>(everything::Fixed(8));
    whole_value<DerivedModel>(everything::Derived(everything::Fixed(8), 9));
    whole_value<ImportedBaseModel>(everything::ImportedBase(market::Instrument("X", 3), 2.5));
    whole_value<NoteModel>(everything::Note("note"));
    whole_value<EmptyModel>(everything::Empty());
    whole_value<KeywordsModel>(everything::Keywords());
    whole_value<EverythingModel>(filled());
    recursive::Node tree(1, "root", {recursive::Node(2, "leaf", {})});
    whole_value<FBE::recursive::NodeModel>(tree);
}

TEST(FieldModel, InheritedFieldsThroughParent) {
    FBE::everything::DerivedModel<> writer;
    const std::size_t begin = writer.create_begin();
    const std::size_t body = writer.model.set_begin();
    writer.model.parent.a.set(8);
    writer.model.b.set(9);
    writer.model.set_end(body);
    writer.create_end(begin);
    FBE::everything::DerivedModel<> serialized;
    serialized.serialize(everything::Derived(everything::Fixed(8), 9));
    EXPECT_EQ(bytes_of(writer.buffer()), bytes_of(serialized.buffer()));
}

TEST(FieldModel, CollectionsItemByItem) {
    // resize() and operator[] of maps and arrays: the items' models.
    everything::Everything value;
    value.f36 = {{4, 5, 6}};
    value.f43 = {{1, "k"}};
    FBE::everything::EverythingModel<> serialized;
    serialized.serialize(value);
    FBE::everything::EverythingModel<FBE::ReadBuffer> reader;
    reader.attach(serialized.buffer());
    const std::size_t body = reader.model.get_begin();
    EXPECT_EQ(reader.model.f36.size(), 3u);
    int32_t item = 0;
    reader.model.f36[2].get(item);
    EXPECT_EQ(item, 6);
    EXPECT_FALSE(reader.model.f36[3].get(item));
    ASSERT_EQ(reader.model.f43.size(), 1u);
    int32_t key = 0;
    std::string mapped;
    auto pair = reader.model.f43[0];
    pair.first.get(key);
    pair.second.get(mapped);
    EXPECT_EQ(key, 1);
    EXPECT_EQ(mapped, "k");
    reader.model.get_end(body);

}

TEST(FieldModel, VectorsItemByItem) {
    // resize() gives the first item's model, fbe_shift() the next: in
    // serialize()'s order, the same bytes.
    vectors::Holder value;
    value.edges = {vectors::Edge(1, 2, 3), vectors::Edge(4, 5, 6)};
    value.ints = {7, 8};
    value.named = {vectors::Named("n", {9})};
    FBE::vectors::HolderModel<> serialized;
    serialized.serialize(value);

    FBE::vectors::HolderModel<> writer;
    const std::size_t begin = writer.create_begin();
    const std::size_t body = writer.model.set_begin();
    auto edge = writer.model.edges.resize(value.edges.size());
    for (const auto& e : value.edges) {
        const std::size_t edge_body = edge.set_begin();
        edge.source.set(e.source);
        edge.target.set(e.target);
        edge.weight.set(e.weight);
        edge.set_end(edge_body);
        edge.fbe_shift(edge.fbe_size());
    }
    writer.model.points.set(value.points);
    auto item = writer.model.ints.resize(value.ints.size());
    for (int32_t i : value.ints) {
        item.set(i);
        item.fbe_shift(item.fbe_size());
    }
    writer.model.switches.set(value.switches);
    writer.model.reals.set(value.reals);
    auto named = writer.model.named.resize(1);
    const std::size_t named_body = named.set_begin();
    named.name.set(value.named[0].name);
    named.values.resize(1).set(9);
    named.set_end(named_body);
    writer.model.set_end(body);
    writer.create_end(begin);
    EXPECT_EQ(bytes_of(writer.buffer()), bytes_of(serialized.buffer()));
}

TEST(FieldModel, OlderAndNewerWriters) {
    // An older writer's Edge has `source` only: the fields it lacks read as
    // their defaults through the views (never the bytes after its body).
    vectors_old::Holder old_value;
    old_value.edges = {vectors_old::Edge(11), vectors_old::Edge(12)};
    FBE::vectors_old::HolderModel<> old_writer;
    old_writer.serialize(old_value);
    FBE::vectors::HolderModel<FBE::ReadBuffer> reader;
    reader.attach(old_writer.buffer());
    ASSERT_TRUE(reader.verify()) << reader.error();
    std::size_t body = reader.model.get_begin();
    ASSERT_EQ(reader.model.edges.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        auto edge = reader.model.edges[i];
        const std::size_t edge_body = edge.get_begin();
        int32_t source = 0, target = -1;
        EXPECT_TRUE(edge.source.get(source));
        EXPECT_FALSE(edge.target.get(target)); // beyond the older body
        edge.get_end(edge_body);
        EXPECT_EQ(source, int32_t(11 + i));
        EXPECT_EQ(target, 0);
        vectors::Edge whole;
        EXPECT_TRUE(reader.model.edges[i].get(whole));
        EXPECT_EQ(text(whole), text(vectors::Edge(int32_t(11 + i), 0, 0)));
    }
    EXPECT_EQ(reader.model.ints.size(), 0u); // the older Holder has edges only
    reader.model.get_end(body);

    // A newer writer's Edge has one more field: the views read theirs.
    vectors_new::Holder new_value;
    new_value.edges = {vectors_new::Edge(1, 2, 3, "note")};
    FBE::vectors_new::HolderModel<> new_writer;
    new_writer.serialize(new_value);
    reader.attach(new_writer.buffer());
    ASSERT_TRUE(reader.verify()) << reader.error();
    body = reader.model.get_begin();
    auto edge = reader.model.edges[0];
    const std::size_t edge_body = edge.get_begin();
    int32_t weight = 0;
    edge.weight.get(weight);
    edge.get_end(edge_body);
    EXPECT_EQ(weight, 3);
    reader.model.get_end(body);
}

TEST(FieldModel, FieldsOfABodyNotEnteredAreAbsent) {
    // A struct's fields are checked against the end of the body that
    // set_begin()/get_begin() entered: before that, or when get_begin()
    // found no body, they read as absent and write nothing.
    FBE::proto::AccountModel<> writer;
    writer.serialize(the_account());
    const std::vector<uint8_t> written = bytes_of(writer.buffer());
    FBE::proto::AccountModel<FBE::ReadBuffer> reader;
    reader.attach(writer.buffer());
    int32_t id = -1;
    EXPECT_FALSE(reader.model.id.get(id)); // no get_begin() yet
    EXPECT_EQ(id, 0);
    const std::size_t body = reader.model.get_begin();
    ASSERT_NE(body, 0u);
    EXPECT_TRUE(reader.model.id.get(id));
    EXPECT_EQ(id, 1);
    // An item a collection lacks enters no body: its fields read nothing.
    auto missing = reader.model.orders[3];
    EXPECT_EQ(missing.get_begin(), 0u);
    EXPECT_FALSE(missing.id.get(id));
    EXPECT_EQ(id, 0);
    reader.model.get_end(body);

    writer.model.id.set(7); // no set_begin()
    writer.model.state.set(proto::State::bad);
    EXPECT_EQ(bytes_of(writer.buffer()), written);
}

TEST(FieldModel, HostileBuffersReadNothingOutside) {
    // Every truncation and every byte changed of a root: the views read
    // what lies in the buffer or defaults, never outside (ASan checks it).
    FBE::everything::EverythingModel<> writer;
    writer.serialize(filled());
    const std::vector<uint8_t> good = bytes_of(writer.buffer());
    auto walk = [](const std::vector<uint8_t>& bytes) {
        FBE::everything::EverythingModel<FBE::ReadBuffer> reader;
        reader.attach(bytes.data(), bytes.size());
        const bool verified = reader.verify();
        const std::size_t body = reader.model.get_begin();
#define GET_FIELD(f)                                                                                           \
    {                                                                                                          \
        decltype(everything::Everything().f) field{};                                                          \
        const bool read = reader.model.f.get(field);                                                           \
        if (verified && body != 0) {                                                                           \
            EXPECT_TRUE(read) << #f;                                                                           \
        }                                                                                                      \
    }
        EVERYTHING_FIELDS(GET_FIELD)
#undef GET_FIELD
        reader.model.f39.size();
        reader.model.f39[0].has_value();
        reader.model.get_end(body);
        everything::Everything whole;
        const bool read = reader.model.get(whole); // the view does not check the root's size field
        if (verified) {
            EXPECT_TRUE(read);
        }
    };
    for (std::size_t size = 0; size <= good.size(); size += 7)
        walk(std::vector<uint8_t>(good.begin(), good.begin() + std::ptrdiff_t(size)));
    for (std::size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> bad = good;
        bad[i] = uint8_t(bad[i] ^ 0xA5);
        walk(bad);
    }
}

// ---------------------------------------------------------------- views (fbe/view.h)

// What a view's accessor gives, as the field's C++ value: a scalar itself, a
// string's std::string_view, any other view's get().
template <typename T, typename V>
bool from_view(const V& view, T& value) {
    if constexpr (std::is_same_v<V, T>) {
        value = view;
        return true;
    } else if constexpr (std::is_same_v<V, std::string_view>) {
        value.assign(view.data(), view.size());
        return true;
    } else {
        return view.get(value);
    }
}

// The view of the root of `bytes`: FBE::view(), or FBE::verified_view()
// (Verified).
template <typename T, bool Verified = false>
FBE::View<T, Verified> view_of(const std::vector<uint8_t>& bytes) {
    if constexpr (Verified)
        return FBE::verified_view<T>(bytes.data(), bytes.size());
    else
        return FBE::view<T>(bytes.data(), bytes.size());
}

template <bool Verified>
void everything_through_views(const everything::Everything& value) {
    SCOPED_TRACE(text(value));
    FBE::everything::EverythingModel<> writer;
    writer.serialize(value);
    const std::vector<uint8_t> bytes = bytes_of(writer.buffer());
    const auto root = view_of<everything::Everything, Verified>(bytes);
    ASSERT_TRUE(root.has_value());
#define VIEW_FIELD(f)                                                                                          \
    {                                                                                                          \
        decltype(value.f) field{};                                                                             \
        EXPECT_TRUE(from_view(root.f(), field)) << #f;                                                         \
        EXPECT_EQ(text(field), text(value.f)) << #f;                                                           \
    }
    EVERYTHING_FIELDS(VIEW_FIELD)
#undef VIEW_FIELD
    everything::Everything whole;
    EXPECT_TRUE(root.get(whole));
    EXPECT_EQ(text(whole), text(value));
}

TEST(View, EveryFieldReadsWhatDeserializeReads) {
    everything_through_views<false>(everything::Everything());
    everything_through_views<false>(filled());
}

TEST(VerifiedView, EveryFieldReadsWhatDeserializeReads) {
    everything_through_views<true>(everything::Everything());
    everything_through_views<true>(filled());
}

template <bool Verified>
void item_by_item() {
    FBE::everything::EverythingModel<> writer;
    writer.serialize(filled());
    const std::vector<uint8_t> bytes = bytes_of(writer.buffer());
    const auto e = view_of<everything::Everything, Verified>(bytes);
    EXPECT_EQ(e.f29().a(), 7);                                 // a struct
    EXPECT_EQ(e.f30().symbol(), "EURUSD");                     // an imported struct
    EXPECT_EQ(e.f31().value(), -1);                            // int32?
    EXPECT_EQ(e.f32().value(), 5);                             // int32? 5
    EXPECT_EQ(e.f33().value(), "optional");                    // string?
    EXPECT_EQ(e.f35().value().a(), 3);                         // Counted?
    EXPECT_EQ(e.f36().size(), 3u);                             // int32[3]
    EXPECT_EQ(e.f36()[2], 3);
    EXPECT_EQ(e.f36()[3], 0);                                  // beyond the array: nothing read
    EXPECT_FALSE(e.f37()[0].has_value());                      // string?[2]
    EXPECT_EQ(e.f37()[1].value(), "x");
    std::vector<double> reals;
    for (double x : e.f38())                                   // double[]
        reals.push_back(x);
    EXPECT_EQ(reals, (std::vector<double>{1.5, -2.5}));
    EXPECT_EQ(e.f38()[2], 0.0);                                // beyond the items
    ASSERT_EQ(e.f39().size(), 2u);                             // Counted?[]
    EXPECT_FALSE(e.f39()[0].has_value());
    EXPECT_EQ(e.f39()[1].value().a(), 3);
    EXPECT_FALSE(e.f39()[2].has_value());
    EXPECT_EQ(e.f40()[1], "b");                                // string()
    EXPECT_EQ(e.f42()[0].symbol(), "A");                       // market.Instrument! (in order)
    EXPECT_FALSE(e.f42()[2].has_value());
    ASSERT_EQ(e.f43().size(), 2u);                             // string<int32>
    EXPECT_EQ(e.f43()[1].first, 2);
    EXPECT_EQ(e.f43()[1].second, "l");
    EXPECT_EQ(e.f44()[1].second.value().a(), 9);               // Counted?<string>
    EXPECT_EQ(e.f45()[0].second.size(), 1u);                   // bytes{uuid}
    EXPECT_EQ(e.f45()[0].second.data()[0], 9);
    EXPECT_EQ(e.f46()[0].first.symbol(), "X");                 // Counted{market.Instrument}
    EXPECT_EQ(e.f46()[0].second.a(), 1);
    EXPECT_EQ(e.f51()[1], FBE::decimal_t("1.5"));              // decimal! (in order)
    EXPECT_EQ(e.f24().size(), 3u);                             // bytes
    EXPECT_EQ(e.f24().data()[2], 3);
    everything::Counted counted;
    EXPECT_TRUE(e.f39()[1].value().get(counted));              // a whole item
    EXPECT_EQ(counted.a, 3);
}

TEST(View, ItemByItem) {
    item_by_item<false>();
}

TEST(VerifiedView, ItemByItem) {
    item_by_item<true>();
}

template <bool Verified>
void inherited_fields() {
    FBE::everything::DerivedModel<> writer;
    writer.serialize(everything::Derived(everything::Fixed(8), 9));
    const std::vector<uint8_t> bytes = bytes_of(writer.buffer());
    const auto derived = view_of<everything::Derived, Verified>(bytes);
    EXPECT_EQ(derived.parent().a(), 8);
    EXPECT_EQ(derived.b(), 9);
    FBE::vectors::HolderModel<> holder;
    vectors::Holder value;
    value.points = {vectors::Point3(vectors::Point(true, 5, -2), 2.5)};
    holder.serialize(value);
    const std::vector<uint8_t> points = bytes_of(holder.buffer());
    const auto point = view_of<vectors::Holder, Verified>(points).points()[0];
    EXPECT_TRUE(point.parent().flag());
    EXPECT_EQ(point.parent().x(), 5);
    EXPECT_EQ(point.parent().y(), -2);
    EXPECT_EQ(point.z(), 2.5);
}

TEST(View, InheritedFieldsThroughParent) {
    inherited_fields<false>();
}

TEST(VerifiedView, InheritedFieldsThroughParent) {
    inherited_fields<true>();
}

// A Holder root of the older writer (Edges 11 and 12, `source` only) and of
// the newer (one Edge 1, 2, 3 with a note; a Holder of `edges` only).
std::vector<uint8_t> older_holder() {
    vectors_old::Holder old_value;
    old_value.edges = {vectors_old::Edge(11), vectors_old::Edge(12)};
    FBE::vectors_old::HolderModel<> old_writer;
    old_writer.serialize(old_value);
    return bytes_of(old_writer.buffer());
}
std::vector<uint8_t> newer_holder() {
    vectors_new::Holder new_value;
    new_value.edges = {vectors_new::Edge(1, 2, 3, "note")};
    FBE::vectors_new::HolderModel<> new_writer;
    new_writer.serialize(new_value);
    return bytes_of(new_writer.buffer());
}

TEST(View, OlderAndNewerWriters) {
    // An older writer's Edge has `source` only: the fields it lacks read as
    // their defaults (never the bytes after its body).
    const std::vector<uint8_t> old_bytes = older_holder();
    const auto old_holder = view_of<vectors::Holder>(old_bytes);
    ASSERT_EQ(old_holder.edges().size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(old_holder.edges()[i].source(), int32_t(11 + i));
        EXPECT_EQ(old_holder.edges()[i].target(), 0);
        vectors::Edge whole;
        EXPECT_TRUE(old_holder.edges()[i].get(whole));
        EXPECT_EQ(text(whole), text(vectors::Edge(int32_t(11 + i), 0, 0)));
    }
    EXPECT_EQ(old_holder.ints().size(), 0u); // the older Holder has edges only

    // A newer writer's Edge has one more field: the view reads its own.
    EXPECT_EQ(view_of<vectors::Holder>(newer_holder()).edges()[0].weight(), 3);
}

TEST(VerifiedView, OlderWriterGetsNoViewNewerWriterReads) {
    // An older writer's bodies are shorter than the schema's: a verified
    // view, which reads every field without checking the body holds it,
    // is not made (verify() accepts the root; FBE::view() reads it).
    const std::vector<uint8_t> old_bytes = older_holder();
    FBE::vectors::HolderModel<FBE::ReadBuffer> reader;
    reader.attach(old_bytes.data(), old_bytes.size());
    EXPECT_TRUE(reader.verify());
    const auto verified = FBE::verified_view<vectors::Holder>(old_bytes.data(), old_bytes.size());
    EXPECT_FALSE(verified.has_value());
    EXPECT_EQ(verified.edges().size(), 0u);
    EXPECT_EQ(verified.edges()[0].source(), 0); // the view of nothing reads defaults
    EXPECT_EQ(view_of<vectors::Holder>(old_bytes).edges()[1].source(), 12);

    // The newer writer's Holder knows `edges` only (a shorter body): none either.
    const std::vector<uint8_t> new_bytes = newer_holder();
    EXPECT_FALSE(FBE::verified_view<vectors::Holder>(new_bytes.data(), new_bytes.size()).has_value());

    // A newer writer's longer body: the verified view reads the schema's fields.
    FBE::vectors_new::EdgeModel<> edge_writer;
    edge_writer.serialize(vectors_new::Edge(1, 2, 3, "note"));
    const std::vector<uint8_t> edge_bytes = bytes_of(edge_writer.buffer());
    const auto edge = FBE::verified_view<vectors::Edge>(edge_bytes.data(), edge_bytes.size());
    ASSERT_TRUE(edge.has_value());
    EXPECT_EQ(edge.source(), 1);
    EXPECT_EQ(edge.target(), 2);
    EXPECT_EQ(edge.weight(), 3);
    EXPECT_EQ(edge.fbe_body_size(), FBE::load_u32(edge_bytes.data() + edge.fbe_body()));
    EXPECT_GT(edge.fbe_body_size(), 20u);
}

TEST(View, MalformedReadsNothing) {
    FBE::vectors::HolderModel<> writer;
    vectors::Holder value;
    value.edges = {vectors::Edge(1, 2, 3)};
    value.ints = {7, 8};
    writer.serialize(value);
    const std::vector<uint8_t> good = bytes_of(writer.buffer());
    ASSERT_EQ(view_of<vectors::Holder>(good).ints().size(), 2u);
    // The root's size beyond the bytes: no body.
    std::vector<uint8_t> bad = good;
    FBE::store_u32(bad.data(), uint32_t(bad.size() + 1));
    EXPECT_FALSE(view_of<vectors::Holder>(bad).has_value());
    EXPECT_EQ(view_of<vectors::Holder>(bad).ints().size(), 0u);
    // A count whose items are not in the root: no items.
    const auto holder = view_of<vectors::Holder>(good);
    const std::size_t ints = holder.fbe_body() + 16; // the slot of `ints`
    bad = good;
    const std::size_t count = holder.fbe_body() + FBE::load_u32(good.data() + ints);
    FBE::store_u32(bad.data() + count, 0x40000000u);
    EXPECT_EQ(view_of<vectors::Holder>(bad).ints().size(), 0u);
    EXPECT_EQ(view_of<vectors::Holder>(bad).ints()[0], 0);
    // A body of another type: no body.
    bad = good;
    const std::size_t edge = holder.edges()[0].fbe_body();
    FBE::store_u32(bad.data() + edge + 4, 99);
    EXPECT_FALSE(view_of<vectors::Holder>(bad).edges()[0].has_value());
    EXPECT_EQ(view_of<vectors::Holder>(bad).edges()[0].target(), 0);
    // A body larger than the root: no body.
    bad = good;
    FBE::store_u32(bad.data() + edge, uint32_t(bad.size()));
    EXPECT_FALSE(view_of<vectors::Holder>(bad).edges()[0].has_value());
}

TEST(View, HostileBuffersReadNothingOutside) {
    // Every truncation and every byte changed of a root: the views read what
    // lies in the root or defaults, never outside (ASan checks it); of a
    // root verify() accepts, every field reads.
    FBE::everything::EverythingModel<> writer;
    writer.serialize(filled());
    const std::vector<uint8_t> good = bytes_of(writer.buffer());
    auto walk = [](const std::vector<uint8_t>& bytes) {
        FBE::everything::EverythingModel<FBE::ReadBuffer> reader;
        reader.attach(bytes.data(), bytes.size());
        const bool verified = reader.verify();
        const auto root = view_of<everything::Everything>(bytes);
        if (verified) {
            EXPECT_TRUE(root.has_value());
        }
#define VIEW_FIELD(f)                                                                                          \
    {                                                                                                          \
        decltype(everything::Everything().f) field{};                                                          \
        const bool read = from_view(root.f(), field);                                                          \
        if (verified) {                                                                                        \
            EXPECT_TRUE(read) << #f;                                                                           \
        }                                                                                                      \
    }
        EVERYTHING_FIELDS(VIEW_FIELD)
#undef VIEW_FIELD
        int64_t sum = 0;
        for (const auto& item : root.f39())
            sum += item.value().a();
        for (std::size_t i = 0; i < root.f42().size(); ++i)
            sum += int64_t(root.f42()[i].symbol().size());
        sum += root.f44()[0].second.value().a() + int64_t(root.f33().value().size() + root.f37()[1].value().size());
        sum += root.f30().digits() + int64_t(root.f24().size());
        (void)sum;
    };
    for (std::size_t size = 0; size <= good.size(); size += 7)
        walk(std::vector<uint8_t>(good.begin(), good.begin() + std::ptrdiff_t(size)));
    // Truncations whose root size says what is there: the root is found and
    // its blocks cut anywhere (a body's header in, its fields out...). With
    // StructView's check of the body's size left out, ASan finds a read
    // beyond the bytes here (shown on vectors.Holder).
    for (std::size_t size = 16; size <= good.size(); ++size) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(size));
        FBE::store_u32(cut.data(), uint32_t(size));
        walk(cut);
    }
    for (std::size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> bad = good;
        bad[i] = uint8_t(bad[i] ^ 0xA5);
        walk(bad);
    }
}

TEST(VerifiedView, OnlyOfVerifiedRootsAndReadsWhatViewsRead) {
    // Every truncation and every byte changed of a root: a verified view is
    // made only of a root verify() accepts, and then reads, without checks,
    // what the checked views read (ASan: nothing outside the bytes).
    FBE::everything::EverythingModel<> writer;
    writer.serialize(filled());
    const std::vector<uint8_t> good = bytes_of(writer.buffer());
    std::size_t made = 0;
    auto walk = [&made](const std::vector<uint8_t>& bytes) {
        const auto root = FBE::verified_view<everything::Everything>(bytes.data(), bytes.size());
        if (!root.has_value())
            return;
        ++made;
        FBE::everything::EverythingModel<FBE::ReadBuffer> reader;
        reader.attach(bytes.data(), bytes.size());
        EXPECT_TRUE(reader.verify());
        const auto checked = view_of<everything::Everything>(bytes);
#define VIEW_FIELD(f)                                                                                          \
    {                                                                                                          \
        decltype(everything::Everything().f) field{}, expected{};                                              \
        EXPECT_TRUE(from_view(root.f(), field)) << #f;                                                         \
        EXPECT_TRUE(from_view(checked.f(), expected)) << #f;                                                   \
        EXPECT_EQ(text(field), text(expected)) << #f;                                                          \
    }
        EVERYTHING_FIELDS(VIEW_FIELD)
#undef VIEW_FIELD
        everything::Everything whole, read;
        EXPECT_TRUE(root.get(whole));
        EXPECT_TRUE(reader.deserialize(read) != 0);
        EXPECT_EQ(text(whole), text(read));
    };
    walk(good);
    EXPECT_EQ(made, 1u);
    for (std::size_t size = 0; size <= good.size(); ++size) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(size));
        walk(cut);
        if (size >= 16) {
            FBE::store_u32(cut.data(), uint32_t(size));
            walk(cut);
        }
    }
    for (std::size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> bad = good;
        bad[i] = uint8_t(bad[i] ^ 0xA5);
        walk(bad);
    }
    EXPECT_GT(made, 1u); // changed bytes that still verify (values, padding) are read too
}

} // namespace
