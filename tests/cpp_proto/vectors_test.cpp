// JSON and protocol against the golden vectors of ../shared/vectors:
// * every `.json` vector: decode the `.final.bin` value, write JSON, compare
//   byte for byte; read the `.json` back and compare with the binary;
// * `protocol.fbe.bin` / `protocol.final.bin`: the Sender / FinalSender
//   produce the bytes; Receiver / FinalReceiver fed whole, byte by byte and
//   in random chunks deliver the messages of `protocol.*.txt`.

#include "enums_final_models.h"
#include "enums_json.h"
#include "proto_final_protocol.h"
#include "proto_final_models.h"
#include "proto_json.h"
#include "proto_protocol.h"
#include "protoex_final_models.h"
#include "protoex_json.h"
#include "test_final_models.h"
#include "test_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <type_traits>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<uint8_t>;

std::string shared_dir() {
    const char* shared = std::getenv("SHARED");
    return shared && *shared ? shared : FBE_SHARED_DEFAULT;
}

bool have_vectors() {
    std::ifstream file(shared_dir() + "/vectors/MANIFEST.json");
    return file.good();
}

#define REQUIRE_VECTORS()                                                                                      \
    if (!have_vectors())                                                                                       \
    GTEST_SKIP() << "SKIPPED: golden vectors not found in " << shared_dir() << " (set SHARED to the folder holding vectors/)"

std::string read_file(const std::string& name) {
    std::ifstream file(shared_dir() + "/vectors/" + name, std::ios::binary);
    EXPECT_TRUE(file.good()) << "cannot open " << name;
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

Bytes read_bytes(const std::string& name) {
    const std::string text = read_file(name);
    return Bytes(text.begin(), text.end());
}

// ------------------------------------------------------------------ JSON

struct JsonResult {
    std::string written;      // to_json of the value read from .final.bin
    std::string rewritten;    // to_json of the value read from the .json vector
    bool read_ok = false;     // from_json result
    bool binary_equal = false; // final serialization of the JSON-read value equals .final.bin
};

template <typename T>
JsonResult json_case(const std::string& name) {
    JsonResult r;
    const Bytes final_bin = read_bytes(name + ".final.bin");
    FBE::FinalModel<T, FBE::ReadBuffer> reader;
    reader.attach(final_bin.data(), final_bin.size());
    EXPECT_TRUE(reader.verify()) << reader.error();
    T value;
    reader.deserialize(value);
    r.written = FBE::JSON::to_string(value);

    rapidjson::Document json;
    const std::string text = read_file(name + ".json");
    json.Parse<rapidjson::kParseFullPrecisionFlag>(text.c_str(), text.size());
    EXPECT_FALSE(json.HasParseError());
    T back;
    r.read_ok = FBE::JSON::from_json(json, back);
    r.rewritten = FBE::JSON::to_string(back);
    FBE::FinalModel<T> writer;
    const std::size_t size = writer.serialize(back);
    r.binary_equal = Bytes(writer.buffer().data(), writer.buffer().data() + size) == final_bin;
    return r;
}

bool same_json(const std::string& a, const std::string& b) {
    rapidjson::Document x, y;
    x.Parse<rapidjson::kParseFullPrecisionFlag>(a.c_str());
    y.Parse<rapidjson::kParseFullPrecisionFlag>(b.c_str());
    return !x.HasParseError() && !y.HasParseError() && x == y;
}

const std::map<std::string, std::function<JsonResult(const std::string&)>>& json_cases() {
    static const std::map<std::string, std::function<JsonResult(const std::string&)>> cases = {
        {"enums_enums", json_case<::enums::Enums>},
        {"proto_account", json_case<::proto::Account>},
        {"proto_account_default", json_case<::proto::Account>},
        {"proto_account_doubles_1", json_case<::proto::Account>},
        {"proto_account_doubles_2", json_case<::proto::Account>},
        {"proto_account_message", json_case<::proto::AccountMessage>},
        {"proto_account_noasset", json_case<::proto::Account>},
        {"proto_balance", json_case<::proto::Balance>},
        {"proto_order", json_case<::proto::Order>},
        {"protoex_account", json_case<::protoex::Account>},
        {"protoex_balance", json_case<::protoex::Balance>},
        {"protoex_order", json_case<::protoex::Order>},
        {"test_struct_array", json_case<::test::StructArray>},
        {"test_struct_bytes", json_case<::test::StructBytes>},
        {"test_struct_empty", json_case<::test::StructEmpty>},
        {"test_struct_hash", json_case<::test::StructHash>},
        {"test_struct_list", json_case<::test::StructList>},
        {"test_struct_map", json_case<::test::StructMap>},
        {"test_struct_nested_default", json_case<::test::StructNested>},
        {"test_struct_nested_values", json_case<::test::StructNested>},
        {"test_struct_optional_default", json_case<::test::StructOptional>},
        {"test_struct_optional_nulls", json_case<::test::StructOptional>},
        {"test_struct_optional_values", json_case<::test::StructOptional>},
        {"test_struct_set", json_case<::test::StructSet>},
        {"test_struct_simple_default", json_case<::test::StructSimple>},
        {"test_struct_simple_values", json_case<::test::StructSimple>},
        {"test_struct_vector", json_case<::test::StructVector>},
    };
    return cases;
}

//! Every case of MANIFEST.json that has a `.json` file.
std::vector<std::string> manifest_json_cases() {
    rapidjson::Document manifest;
    const std::string text = read_file("MANIFEST.json");
    manifest.Parse(text.c_str());
    std::vector<std::string> names;
    for (const auto& c : manifest["cases"].GetArray()) {
        for (const auto& f : c["files"].GetArray())
            if (std::string(f["kind"].GetString()) == "json")
                names.emplace_back(c["name"].GetString());
    }
    return names;
}

TEST(JsonVectors, EveryJsonVectorIsCovered) {
    REQUIRE_VECTORS();
    const auto names = manifest_json_cases();
    EXPECT_EQ(names.size(), 27u);
    for (const auto& name : names)
        EXPECT_TRUE(json_cases().count(name)) << "no C++ type registered for " << name;
}

TEST(JsonVectors, WriteIsByteIdenticalAndReadGivesTheValueBack) {
    REQUIRE_VECTORS();
    for (const auto& name : manifest_json_cases()) {
        SCOPED_TRACE(name);
        auto it = json_cases().find(name);
        ASSERT_NE(it, json_cases().end());
        const JsonResult r = it->second(name);
        const std::string expected = read_file(name + ".json");
        if (name == "test_struct_hash") {
            // Hash containers have no defined order: compare as sets of pairs.
            EXPECT_TRUE(same_json(r.written, expected)) << r.written;
            EXPECT_TRUE(same_json(r.rewritten, expected)) << r.rewritten;
        } else {
            EXPECT_EQ(r.written, expected);
            EXPECT_EQ(r.rewritten, expected);
            EXPECT_TRUE(r.binary_equal) << "the value read from JSON serializes differently from .final.bin";
        }
        EXPECT_TRUE(r.read_ok) << "from_json reported a missing or mistyped member";
    }
}

TEST(JsonVectors, ReadingTheOriginalsDecimalTextIsExact) {
    REQUIRE_VECTORS();
    // f30 = "123456.123456" and f29 = "0.000000" in the defaults.
    rapidjson::Document json;
    const std::string text = read_file("test_struct_simple_default.json");
    json.Parse<rapidjson::kParseFullPrecisionFlag>(text.c_str());
    ::test::StructSimple value;
    ASSERT_TRUE(FBE::JSON::from_json(json, value));
    EXPECT_EQ(value.f30.to_string(), "123456.123456");
    EXPECT_TRUE(value.f29.is_zero());
}

TEST(JsonVectors, HashWithStructKeysRoundTrips) {
    // test_struct_hashex has no .json (the original cannot write it): here a
    // struct-keyed hash is an array of [key, value] pairs.
    REQUIRE_VECTORS();
    const Bytes bin = read_bytes("test_struct_hashex.final.bin");
    FBE::FinalModel<::test::StructHashEx, FBE::ReadBuffer> reader;
    reader.attach(bin.data(), bin.size());
    ASSERT_TRUE(reader.verify()) << reader.error();
    ::test::StructHashEx value;
    reader.deserialize(value);
    ASSERT_FALSE(value.f1.empty());
    const std::string text = FBE::JSON::to_string(value);
    ASSERT_EQ(text.rfind(R"({"f1":[[{)", 0), 0u) << text;
    ::test::StructHashEx back;
    ASSERT_TRUE(FBE::JSON::from_string(text, back));
    // Same entries (hash order aside): compare the sorted texts of the pairs.
    auto entries = [](const ::test::StructHashEx& v) {
        std::vector<std::string> out;
        for (const auto& [key, item] : v.f1)
            out.push_back(FBE::JSON::to_string(key) + "=" + FBE::JSON::to_string(item));
        for (const auto& [key, item] : v.f2)
            out.push_back(FBE::JSON::to_string(key) + "?" + FBE::JSON::to_string(item));
        std::sort(out.begin(), out.end());
        return out;
    };
    EXPECT_EQ(entries(back), entries(value));
}

// ------------------------------------------------------------------ protocol

// Both spellings of the original: Sender<FBE::WriteBuffer> and Sender<>.
static_assert(std::is_same_v<FBE::proto::Sender<FBE::WriteBuffer>, FBE::proto::Sender<>>);
static_assert(std::is_base_of_v<FBE::Sender<FBE::WriteBuffer>, FBE::proto::FinalSender<>>);
static_assert(std::is_base_of_v<FBE::Receiver<FBE::WriteBuffer>, FBE::proto::Proxy<>>);

struct CollectingSender : FBE::proto::Sender<> {
    Bytes out;
    std::vector<std::string> log;
    std::size_t onSend(const void* data, std::size_t size) override {
        out.insert(out.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        return size;
    }
    void onSendLog(const std::string& message) const override { const_cast<CollectingSender*>(this)->log.push_back(message); }
};

struct CollectingFinalSender : FBE::proto::FinalSender<> {
    Bytes out;
    std::size_t onSend(const void* data, std::size_t size) override {
        out.insert(out.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        return size;
    }
};

template <class TBase>
struct TextReceiver : TBase {
    std::string text;
    std::vector<std::string> errors;
    void onReceive(const ::proto::OrderMessage& value) override { text += value.string() + "\n"; }
    void onReceive(const ::proto::BalanceMessage& value) override { text += value.string() + "\n"; }
    void onReceive(const ::proto::AccountMessage& value) override { text += value.string() + "\n"; }
    void onReceiveError(FBE::ReceiveError, const std::string& reason) override { errors.push_back(reason); }
};

template <typename T>
T read_final(const std::string& name) {
    const Bytes bytes = read_bytes(name);
    FBE::FinalModel<T, FBE::ReadBuffer> model;
    model.attach(bytes.data(), bytes.size());
    T value;
    model.deserialize(value);
    return value;
}

template <class TSender>
void send_three(TSender& sender) {
    sender.send(::proto::OrderMessage(read_final<::proto::Order>("proto_order.final.bin")));
    sender.send(::proto::BalanceMessage(read_final<::proto::Balance>("proto_balance.final.bin")));
    sender.send(::proto::AccountMessage(read_final<::proto::Account>("proto_account.final.bin")));
}

TEST(ProtocolVectors, SenderIsByteIdentical) {
    REQUIRE_VECTORS();
    CollectingSender sender;
    sender.logging(true);
    send_three(sender);
    EXPECT_EQ(sender.out, read_bytes("protocol.fbe.bin"));
    EXPECT_TRUE(sender.buffer().empty());
    // The log holds the text of each message, as the receiver's.
    std::string log;
    for (const auto& line : sender.log)
        log += line + "\n";
    EXPECT_EQ(log, read_file("protocol.fbe.txt"));
}

TEST(ProtocolVectors, FinalSenderIsByteIdentical) {
    REQUIRE_VECTORS();
    CollectingFinalSender sender;
    EXPECT_TRUE(sender.final());
    send_three(sender);
    EXPECT_EQ(sender.out, read_bytes("protocol.final.bin"));
}

template <class TReceiver>
void check_stream(const std::string& bin, const std::string& txt) {
    const Bytes stream = read_bytes(bin);
    const std::string expected = read_file(txt);
    {
        TReceiver r;
        r.receive(stream.data(), stream.size());
        EXPECT_EQ(r.text, expected) << "whole stream";
        EXPECT_TRUE(r.errors.empty());
        EXPECT_EQ(r.received_messages(), 3u);
    }
    {
        TReceiver r;
        for (uint8_t byte : stream)
            r.receive(&byte, 1);
        EXPECT_EQ(r.text, expected) << "one byte at a time";
        EXPECT_TRUE(r.errors.empty());
    }
    std::mt19937 random(12345);
    for (int round = 0; round < 200; ++round) {
        TReceiver r;
        std::size_t at = 0;
        while (at < stream.size()) {
            std::size_t n = std::uniform_int_distribution<std::size_t>(0, 80)(random);
            n = std::min(n, stream.size() - at);
            // Each chunk from its own heap block, so ASan sees any overread.
            Bytes chunk(stream.begin() + static_cast<std::ptrdiff_t>(at), stream.begin() + static_cast<std::ptrdiff_t>(at + n));
            r.receive(chunk.data(), chunk.size());
            at += n;
        }
        ASSERT_EQ(r.text, expected) << "random chunks, round " << round;
        ASSERT_TRUE(r.errors.empty());
    }
    {
        // The stream three times in a row, in one call.
        TReceiver r;
        Bytes triple;
        for (int i = 0; i < 3; ++i)
            triple.insert(triple.end(), stream.begin(), stream.end());
        r.receive(triple);
        EXPECT_EQ(r.text, expected + expected + expected);
    }
}

TEST(ProtocolVectors, ReceiverDeliversTheMessagesInAnyFragmentation) {
    REQUIRE_VECTORS();
    check_stream<TextReceiver<FBE::proto::Receiver<>>>("protocol.fbe.bin", "protocol.fbe.txt");
}

TEST(ProtocolVectors, FinalReceiverDeliversTheMessagesInAnyFragmentation) {
    REQUIRE_VECTORS();
    check_stream<TextReceiver<FBE::proto::FinalReceiver<>>>("protocol.final.bin", "protocol.final.txt");
}

TEST(ProtocolVectors, ReceiverLogsTheTextOfEachMessage) {
    REQUIRE_VECTORS();
    struct LoggingReceiver : FBE::proto::Receiver<> {
        std::string log;
        void onReceiveLog(const std::string& message) const override {
            const_cast<LoggingReceiver*>(this)->log += message + "\n";
        }
    } r;
    r.logging(true);
    r.receive(read_bytes("protocol.fbe.bin"));
    EXPECT_EQ(r.log, read_file("protocol.fbe.txt"));
}

TEST(ProtocolVectors, ProxySeesTheVerifiedFrames) {
    REQUIRE_VECTORS();
    struct Counter : FBE::proto::Proxy<> {
        std::vector<std::size_t> sizes;
        std::string text;
        void onProxy(FBE::proto::AccountMessageModel<FBE::ReadBuffer>& model, std::size_t type, const void*,
                     std::size_t size) override {
            EXPECT_EQ(type, 3u);
            ::proto::AccountMessage value;
            model.deserialize(value);
            text = value.string();
            sizes.push_back(size);
        }
        void onProxy(FBE::proto::OrderMessageModel<FBE::ReadBuffer>&, std::size_t, const void*, std::size_t size) override {
            sizes.push_back(size);
        }
        void onProxy(FBE::proto::BalanceMessageModel<FBE::ReadBuffer>&, std::size_t, const void*, std::size_t size) override {
            sizes.push_back(size);
        }
    } proxy;
    const Bytes stream = read_bytes("protocol.fbe.bin");
    for (uint8_t byte : stream)
        proxy.receive(&byte, 1);
    EXPECT_EQ(proxy.sizes, (std::vector<std::size_t>{64, 47, 264}));
    const std::string txt = read_file("protocol.fbe.txt");
    EXPECT_NE(txt.find(proxy.text), std::string::npos);
}

} // namespace
