// JSON: the runtime mapping (fbe/json.h) and the generated `<package>_json.h`
// on the cases where the original is wrong or lossy (docs/format.md 10, see
// docs/cpp-json-protocol.md), plus the reading rules of docs/format.md 8.3.

#include "jsoncases_json.h"
#include "recursive_json.h"
#include "rpc_json.h"

#include <rapidjson/prettywriter.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using FBE::JSON::from_string;
using FBE::JSON::to_string;

TEST(Json, ApiOfTheOriginal) {
    ::jsoncases::Point point{1, 2};
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    ASSERT_TRUE(FBE::JSON::to_json(writer, point));
    EXPECT_STREQ(buffer.GetString(), R"({"x":1,"y":2})");

    rapidjson::Document json;
    json.Parse(buffer.GetString());
    ::jsoncases::Point back;
    ASSERT_TRUE(FBE::JSON::from_json(json, back));
    EXPECT_EQ(back.x, 1);
    EXPECT_EQ(back.y, 2);
}

TEST(Json, InheritedFieldsAreFlattenedInFront) {
    ::jsoncases::Values v;
    v.origin = 7;
    const std::string text = to_string(v);
    EXPECT_EQ(text.rfind(R"({"origin":7,"c":0,)", 0), 0u) << text;
}

TEST(Json, CharAbove0x7FIsItsByteValue) {
    ::jsoncases::Values v;
    v.c = static_cast<char>(0xC8);
    v.chars = {'A', static_cast<char>(0xFF)};
    const std::string text = to_string(v);
    EXPECT_NE(text.find(R"("c":200,)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("chars":[65,255])"), std::string::npos) << text;
    ::jsoncases::Values back;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_EQ(back.c, static_cast<char>(0xC8));
    EXPECT_EQ(back.chars, v.chars);
}

TEST(Json, ReadsTheOriginalsSignedCharForm) {
    // The original wrote 0xC8 as 4294967240.
    ::jsoncases::Values v;
    std::string text = to_string(v);
    const std::string from = R"("c":0,)";
    text.replace(text.find(from), from.size(), R"("c":4294967240,)");
    ASSERT_TRUE(from_string(text, v));
    EXPECT_EQ(static_cast<uint8_t>(v.c), 0xC8);
    // Any other large number is a type mismatch.
    text.replace(text.find("4294967240"), 10, "4000000000");
    EXPECT_FALSE(from_string(text, v));
}

TEST(Json, NanAndInfinityAreWrittenAsStrings) {
    ::jsoncases::Values v;
    v.f = std::numeric_limits<float>::infinity();
    v.d = std::numeric_limits<double>::quiet_NaN();
    std::string text = to_string(v);
    ASSERT_FALSE(text.empty());
    EXPECT_NE(text.find(R"("f":"Infinity","d":"NaN")"), std::string::npos) << text;
    ::jsoncases::Values back;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_TRUE(std::isinf(back.f) && back.f > 0);
    EXPECT_TRUE(std::isnan(back.d));
    v.f = -std::numeric_limits<float>::infinity();
    text = to_string(v);
    EXPECT_NE(text.find(R"("f":"-Infinity")"), std::string::npos) << text;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_TRUE(std::isinf(back.f) && back.f < 0);
}

TEST(Json, DoublesAsRapidJsonWriterDouble) {
    const std::pair<double, const char*> cases[] = {
        {1000.0, "1000.0"}, {0.0, "0.0"}, {-0.0, "-0.0"}, {1.23456, "1.23456"}, {1e-7, "1e-7"},
        {1e21, "1e21"}, {1e20, "100000000000000000000.0"}, {-2.5e-10, "-2.5e-10"}, {5e-324, "5e-324"},
        {0.000001234, "0.000001234"}, {-1.23456e125, "-1.23456e125"}, {1.0 / 3.0, "0.3333333333333333"},
    };
    for (const auto& [value, text] : cases)
        EXPECT_EQ(to_string(value), text);
    EXPECT_EQ(to_string(123.456f), "123.45600128173828");
}

TEST(Json, DoublesAsTheOriginalWritesThemWhateverRapidJsonIsInstalled) {
    // The original's text (RapidJSON master, ../shared/vectors/proto_account_doubles_1);
    // RapidJSON 1.1.0's own Writer::Double prints 0.30000000000000007 and ...419e125.
    EXPECT_EQ(to_string(0.30000000000000004), "0.30000000000000004");
    EXPECT_EQ(to_string(3.6480313701718416e125), "3.6480313701718416e125");
    EXPECT_EQ(to_string(3.3341303851700567e-21f), "3.3341303851700567e-21");
    std::vector<double> values{0.30000000000000004, -1.6064586481891585e150};
    EXPECT_EQ(to_string(values), "[0.30000000000000004,-1.6064586481891585e150]");
    std::map<double, float> keys{{0.30000000000000004, 2e-7f}};
    EXPECT_EQ(to_string(keys), R"({"0.30000000000000004":2.0000000233721948e-7})");
    EXPECT_EQ(FBE::JSON::KeyText<float>::to_text(2e-7f), "2.0000000233721948e-7");

    // PrettyWriter takes the text too; a handler without RawValue is given the double.
    rapidjson::StringBuffer buffer;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> pretty(buffer);
    ASSERT_TRUE(FBE::JSON::to_json(pretty, values));
    EXPECT_STREQ(buffer.GetString(), "[\n    0.30000000000000004,\n    -1.6064586481891585e150\n]");
    struct DoubleHandler {
        double value = 0;
        bool Double(double d) {
            value = d;
            return true;
        }
        bool String(const char*, rapidjson::SizeType, bool = false) { return false; }
    } handler;
    ASSERT_TRUE(FBE::JSON::to_json(handler, 0.30000000000000004));
    EXPECT_EQ(handler.value, 0.30000000000000004);
}

TEST(Json, DecimalKeepsAllDigits) {
    ::jsoncases::Values v;
    v.m = FBE::decimal_t("-0.1234567890123456789012345678");
    std::string text = to_string(v);
    EXPECT_NE(text.find(R"("m":"-0.1234567890123456789012345678")"), std::string::npos) << text;
    ::jsoncases::Values back;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_EQ(back.m.to_string(), "-0.1234567890123456789012345678");

    // Values of at most 6 fraction digits: the original's %f text.
    v.m = FBE::decimal_t("-123.456");
    EXPECT_NE(to_string(v).find(R"("m":"-123.456000")"), std::string::npos);
    v.m = FBE::decimal_t("79228162514264337593543950335");
    text = to_string(v);
    EXPECT_NE(text.find(R"("m":"79228162514264337593543950335.000000")"), std::string::npos) << text;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_EQ(back.m, v.m);
    v.m = FBE::decimal_t();
    EXPECT_NE(to_string(v).find(R"("m":"0.000000")"), std::string::npos);
}

TEST(Json, BytesUuidTimestampString) {
    ::jsoncases::Values v;
    v.b = FBE::buffer_t(std::string_view("test"));
    v.u = FBE::uuid_t("123e4567-e89b-12d3-a456-426655440000");
    v.t = UINT64_C(1577836800123456789);
    v.s = "quote\" backslash\\ nl\n tab\t \x01 /";
    const std::string text = to_string(v);
    EXPECT_NE(text.find(R"("b":"dGVzdA==")"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("u":"123e4567-e89b-12d3-a456-426655440000")"), std::string::npos);
    EXPECT_NE(text.find(R"("t":1577836800123456789)"), std::string::npos);
    EXPECT_NE(text.find(R"("s":"quote\" backslash\\ nl\n tab\t \u0001 /")"), std::string::npos) << text;
    ::jsoncases::Values back;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_EQ(back.b, v.b);
    EXPECT_EQ(back.u, v.u);
    EXPECT_EQ(back.t, v.t);
    EXPECT_EQ(back.s, v.s);
}

TEST(Json, Base64EveryPaddingAndNothingElse) {
    // docs/limits.md 7: the standard alphabet with padding, one text per byte string
    for (std::size_t n = 0; n < 10; ++n) {
        FBE::buffer_t bytes;
        for (std::size_t i = 0; i < n; ++i)
            bytes.push_back(static_cast<uint8_t>(0xF0 + i));
        const std::string text = FBE::JSON::detail::base64_encode(bytes.data(), bytes.size());
        FBE::buffer_t back{1, 2};
        EXPECT_TRUE(FBE::JSON::detail::base64_decode(text, back)) << text;
        EXPECT_EQ(back, bytes);
        std::string unpadded = text;
        while (!unpadded.empty() && unpadded.back() == '=')
            unpadded.pop_back();
        if (unpadded != text) {
            EXPECT_FALSE(FBE::JSON::detail::base64_decode(unpadded, back)) << unpadded;
        }
    }
    for (const char* bad : {"A", "QQ", "QQ=", "QR==", "QUJ=", "Q Q==", "QQ\n==", "QQ==QQ==", "-_8=", "====", "Q===",
                            "QQ==@", "@@@@"}) {
        FBE::buffer_t back;
        EXPECT_FALSE(FBE::JSON::detail::base64_decode(bad, back)) << bad;
    }
}

TEST(Json, OptionalNullAndEnum) {
    ::jsoncases::Values v;
    EXPECT_NE(to_string(v).find(R"("color":null)"), std::string::npos);
    v.color = ::jsoncases::Color::blue;
    v.mode = ::jsoncases::Mode::read | ::jsoncases::Mode::write;
    const std::string text = to_string(v);
    EXPECT_NE(text.find(R"("color":2,"mode":3)"), std::string::npos) << text;
    ::jsoncases::Values back;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_EQ(back.color, v.color);
    EXPECT_EQ(back.mode, v.mode);
}

TEST(Json, MapKeysOfEveryKind) {
    ::jsoncases::Keys k;
    k.byColor[::jsoncases::Color::green] = "g";
    k.byMode[::jsoncases::Mode::write] = "w";
    k.byPoint[::jsoncases::Point{1, 2}] = "p";
    k.byChar[static_cast<char>(0xC8)] = "c";
    k.byDouble[1.5] = "1.5";
    k.byDouble[1e-7] = "tiny";
    k.byDecimal[FBE::decimal_t("0.12345678")] = "d";
    k.byBool[true] = "t";
    k.byUuid[FBE::uuid_t("00112233-4455-6677-8899-aabbccddeeff")] = "u";
    k.byInt64[-5] = 5;
    const std::string text = to_string(k);
    EXPECT_EQ(text,
              R"({"byColor":{"1":"g"},"byMode":{"2":"w"},"byPoint":[[{"x":1,"y":2},"p"]],"byChar":{"200":"c"},)"
              R"("byDouble":{"1e-7":"tiny","1.500000":"1.5"},"byDecimal":{"0.12345678":"d"},"byBool":{"1":"t"},)"
              R"("byUuid":{"00112233-4455-6677-8899-aabbccddeeff":"u"},"byInt64":{"-5":5}})");
    ::jsoncases::Keys back;
    ASSERT_TRUE(from_string(text, back));
    EXPECT_EQ(back.byColor, k.byColor);
    EXPECT_EQ(back.byMode, k.byMode);
    EXPECT_EQ(back.byPoint.size(), 1u);
    EXPECT_EQ(back.byPoint.begin()->first.y, 2);
    EXPECT_EQ(back.byChar, k.byChar);
    EXPECT_EQ(back.byDouble, k.byDouble);
    EXPECT_EQ(back.byDecimal, k.byDecimal);
    EXPECT_EQ(back.byBool, k.byBool);
    EXPECT_EQ(back.byUuid, k.byUuid);
    EXPECT_EQ(back.byInt64, k.byInt64);
    // The original's signed form of a char key is accepted too.
    ::jsoncases::Keys original;
    ASSERT_TRUE(from_string(R"({"byChar":{"-56":"c"}})", original)); // other members take their defaults
    EXPECT_TRUE(original.byColor.empty());
    EXPECT_EQ(original.byChar.begin()->first, static_cast<char>(0xC8));
}

TEST(Json, ReadingRules) {
    ::jsoncases::Point p;
    // Unknown members are ignored, order does not matter.
    EXPECT_TRUE(from_string(R"({"y":2,"z":9,"x":1})", p));
    EXPECT_EQ(p.x, 1);
    // A missing member takes its default (JSON of an older schema version); the original returned false.
    p = {9, 9};
    EXPECT_TRUE(from_string(R"({"y":3})", p)) << FBE::JSON::last_error();
    EXPECT_EQ(p.x, 0);
    EXPECT_EQ(p.y, 3);
    // Type mismatches: false and zero.
    p.x = 5;
    EXPECT_FALSE(from_string(R"({"x":"1","y":1})", p));
    EXPECT_EQ(p.x, 0);
    EXPECT_FALSE(from_string(R"({"x":2147483648,"y":1})", p));
    EXPECT_FALSE(from_string(R"({"x":1.5,"y":1})", p));
    EXPECT_FALSE(from_string(R"({"x":null,"y":1})", p));
    EXPECT_FALSE(from_string(R"([1,2])", p));
    EXPECT_FALSE(from_string(R"({"x":1,)", p)); // parse error
    ::rpc::Ping ping;
    ping.payload = "before";
    EXPECT_TRUE(from_string(R"({"id":"00000000-0000-0000-0000-000000000000","sequence":1})", ping));
    EXPECT_EQ(ping.payload, ""); // its default
    EXPECT_TRUE(from_string(R"({"id":"00000000-0000-0000-0000-000000000001","sequence":-1,"payload":"x"})", ping));
    EXPECT_EQ(ping.sequence, -1);
    EXPECT_EQ(ping.id.string(), "00000000-0000-0000-0000-000000000001");
}

TEST(Json, FloatRange) {
    float f = 0;
    rapidjson::Document json;
    json.Parse("3.5e38");
    EXPECT_FALSE(FBE::JSON::from_json(json, f));
    json.Parse("3.4e38");
    EXPECT_TRUE(FBE::JSON::from_json(json, f));
    json.Parse("7");
    EXPECT_TRUE(FBE::JSON::from_json(json, f));
    EXPECT_EQ(f, 7.0f);
    // The largest float: written as the original writes it, and read back (the original refuses it).
    for (const float flt_max : {std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest()}) {
        const std::string text = to_string(flt_max);
        EXPECT_EQ(text, flt_max > 0 ? "3.4028234663852886e38" : "-3.4028234663852886e38");
        ASSERT_TRUE(FBE::JSON::parse(json, text)) << text;
        EXPECT_TRUE(FBE::JSON::from_json(json, f)) << text;
        EXPECT_EQ(f, flt_max);
    }
}

TEST(Json, DecimalOf96BitsOrMoreIsRefused) {
    // The original's decimals are doubles: its JSON may hold 1e30. Ours hold 96 bits.
    rapidjson::Document json;
    FBE::decimal_t m(1);
    json.Parse(R"("1000000000000000019884624838656.000000")");
    EXPECT_FALSE(FBE::JSON::from_json(json, m));
    EXPECT_TRUE(m.is_zero());
    EXPECT_THROW(FBE::decimal_t("1000000000000000019884624838656.000000"), std::invalid_argument);
    json.Parse(R"("79228162514264337593543950335.000000")");
    EXPECT_TRUE(FBE::JSON::from_json(json, m));
    EXPECT_EQ(m.to_string(), "79228162514264337593543950335");
}

TEST(Json, EveryMessageOfTheRpcSchemaRoundTrips) {
    ::rpc::PlaceOrder order;
    order.symbol = "EURUSD";
    order.side = ::rpc::Side::sell;
    order.price = 1.0825;
    order.quantity = 1e6;
    ::rpc::PlaceOrder back;
    ASSERT_TRUE(from_string(to_string(order), back));
    EXPECT_EQ(back.id, order.id);
    EXPECT_EQ(back.symbol, order.symbol);
    EXPECT_EQ(back.side, order.side);
    EXPECT_EQ(back.price, order.price);
    EXPECT_EQ(back.quantity, order.quantity);
}

// ---------------------------------------------------------------- the JSON rules (docs/limits.md)
// The same cases run in Python (tests/python/test_json_limits.py).

using FBE::JSON::last_error;

::recursive::Node chain(int depth) {
    ::recursive::Node node;
    node.id = depth;
    for (int i = depth - 1; i >= 1; --i) {
        ::recursive::Node parent;
        parent.id = i;
        parent.children.push_back(std::move(node));
        node = std::move(parent);
    }
    return node;
}

std::string chain_json(int depth) {
    std::string text;
    for (int i = 1; i < depth; ++i)
        text += R"({"id":)" + std::to_string(i) + R"(,"label":"","children":[)";
    text += R"({"id":)" + std::to_string(depth) + R"(,"label":"","children":[]})";
    for (int i = 1; i < depth; ++i)
        text += "]}";
    return text;
}

TEST(JsonRules, DuplicateMemberNamesAreRefused) {
    // issue 13: C++ kept the first, Python the last
    ::jsoncases::Point p;
    EXPECT_FALSE(from_string(R"({"x":1,"x":666,"y":2})", p));
    EXPECT_EQ(last_error(), R"(duplicate member name "x" in a JSON object)");
    EXPECT_FALSE(from_string(R"({"x":1,"y":2,"unknown":{"a":1,"a":1}})", p));
    EXPECT_FALSE(from_string(R"({"x":1,"\u0078":2,"y":2})", p));
    ::jsoncases::Texts t;
    EXPECT_FALSE(from_string(R"({"text":"","byName":{"a":1,"a":2}})", t));
    // documents parsed by the caller: the struct and map readers refuse them too
    rapidjson::Document json;
    json.Parse(R"({"x":1,"x":666,"y":2})");
    EXPECT_FALSE(FBE::JSON::from_json(json, p));
    EXPECT_EQ(last_error(), R"(jsoncases.Point: duplicate member name "x")");
    json.Parse(R"({"x":1,"y":2,"u":{"a":1,"a":1}})"); // members nobody reads: only parse() sees them
    EXPECT_TRUE(FBE::JSON::from_json(json, p));
    json.Parse(R"({"text":"","byName":{"a":1,"a":2}})");
    EXPECT_FALSE(FBE::JSON::from_json(json, t));
    EXPECT_EQ(last_error(), "jsoncases.Texts.byName[a]: two map keys read as the same key");
}

TEST(JsonRules, MapKeysReadAsTheSameKeyAreRefused) {
    ::jsoncases::Keys k;
    EXPECT_FALSE(from_string(R"({"byInt64":{"1":1,"01":2}})", k));
    EXPECT_EQ(last_error(), "jsoncases.Keys.byInt64[01]: two map keys read as the same key");
}

// docs/format.md 2.4: decimal text is exact or refused; docs/limits.md 7: at most 64 characters,
// read in linear time, and an error quotes 32 characters of it at most.
TEST(JsonRules, DecimalTextIsExactOrRefused) {
    ::jsoncases::Values v;
    EXPECT_FALSE(from_string(R"({"m":"1e-29"})", v));
    EXPECT_EQ(last_error(), R"(jsoncases.Values.m: decimal "1e-29" has more than 28 fraction digits)");
    EXPECT_TRUE(from_string(R"({"m":"0.10000000000000000000000000000000"})", v));
    EXPECT_EQ(v.m.to_string(), "0.1");
    const std::string digits(1 << 20, '1');
    EXPECT_FALSE(from_string(R"({"m":")" + digits + R"("})", v));
    EXPECT_EQ(last_error(),
              R"(jsoncases.Values.m: decimal text longer than 64 characters: "11111111111111111111111111111111"...)");
    ::jsoncases::Keys k;
    EXPECT_FALSE(from_string(R"({"byDecimal":{")" + digits + R"(":"x"}})", k));
    EXPECT_EQ(last_error(), "jsoncases.Keys.byDecimal[11111111111111111111111111111111...]: decimal text longer "
                            R"(than 64 characters: "11111111111111111111111111111111"...)");
}

TEST(JsonRules, DeepDocumentsAreRefusedWithoutRecursion) {
    // issue 13: '[' * 1000000 + ']' * 1000000 overflowed the stack in RapidJSON's recursive parser
    const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
    ::jsoncases::Point p;
    EXPECT_FALSE(from_string(deep, p));
    EXPECT_EQ(last_error(), "invalid JSON: arrays and objects nested deeper than 384");
    rapidjson::Document json;
    EXPECT_TRUE(FBE::JSON::parse(json, std::string(384, '[') + std::string(384, ']')));
    EXPECT_FALSE(FBE::JSON::parse(json, std::string(385, '[') + std::string(385, ']')));
    EXPECT_TRUE(FBE::JSON::parse(json, "[\"" + std::string(1000, '[') + "\"]")); // brackets in strings
}

TEST(JsonRules, LongNumbersAreReadExactlyAndSafely) {
    // issue 21: parse() turned on RapidJSON's kParseFullPrecisionFlag, whose conversion in RapidJSON
    // 1.1.0 reads out of bounds on a number of some hundred digits: 0.(400 zeros)1 crashed (SIGSEGV)
    // from_string of any type, and 0.(330 zeros)1 read as -2.14e301
    const std::string tiny = "0." + std::string(400, '0') + "1";
    ::jsoncases::Point p;
    EXPECT_TRUE(from_string(R"({"x":1,"y":2,"unknown":)" + tiny + "}", p)) << last_error();
    EXPECT_TRUE(from_string(R"({"x":1,"y":2,"unknown":[)" + tiny + "]}", p)) << last_error();
    EXPECT_FALSE(from_string(R"({"x":)" + tiny + R"(,"y":2})", p)); // an int32
    EXPECT_EQ(last_error().rfind("jsoncases.Point.x: ", 0), 0u) << last_error();
    ::jsoncases::Values v;
    const std::string zeros(400, '0');
    for (const auto& [text, value] : std::vector<std::pair<std::string, double>>{
             {"1." + zeros + "1", 1.0}, {"0." + zeros + "15e401", 1.5}, {"0." + zeros + "1", 0.0},
             {"-0." + std::string(300, '0') + "25", -2.5e-301}}) {
        ASSERT_TRUE(from_string(R"({"d":)" + text + "}", v)) << text << ": " << last_error();
        EXPECT_EQ(v.d, value) << text;
    }
}

TEST(JsonRules, NumbersAreReadAsRapidJsonReadsThem) {
    const auto read = [](const std::string& text) {
        rapidjson::Document json;
        EXPECT_TRUE(FBE::JSON::parse(json, text)) << text << ": " << last_error();
        return json;
    };
    // integers that fit int64 (with a minus) or uint64 are integers; anything else is a double
    EXPECT_TRUE(read("-9223372036854775808").IsInt64());
    EXPECT_EQ(read("-9223372036854775808").GetInt64(), std::numeric_limits<int64_t>::min());
    EXPECT_TRUE(read("18446744073709551615").IsUint64());
    EXPECT_EQ(read("18446744073709551615").GetUint64(), std::numeric_limits<uint64_t>::max());
    EXPECT_TRUE(read("2147483647").IsInt());
    EXPECT_TRUE(read("4294967295").IsUint());
    EXPECT_FALSE(read("4294967295").IsInt());
    EXPECT_TRUE(read("-9223372036854775809").IsDouble());
    EXPECT_EQ(read("-9223372036854775809").GetDouble(), -9223372036854775808.0);
    EXPECT_TRUE(read("18446744073709551616").IsDouble());
    EXPECT_TRUE(read("1.0").IsDouble());
    EXPECT_TRUE(read("1e0").IsDouble());
    // correctly rounded, whatever the number of digits
    EXPECT_EQ(read("0.1").GetDouble(), 0.1);
    EXPECT_EQ(read("2.2250738585072011e-308").GetDouble(), 2.2250738585072011e-308);
    EXPECT_EQ(read("0." + std::string(300, '0') + "1").GetDouble(), 1e-301);
    EXPECT_EQ(read("0." + std::string(330, '0') + "1").GetDouble(), 0.0); // RapidJSON 1.1.0: -2.14e301
    EXPECT_EQ(read("1" + std::string(300, '0')).GetDouble(), 1e300);
    EXPECT_EQ(read("123456789012345678901234567890").GetDouble(), 123456789012345678901234567890.0);
    EXPECT_EQ(read("0.30000000000000004" + std::string(1000, '0') + "1").GetDouble(), 0.30000000000000004);
    // beyond the range of double: infinity or zero of the number's sign
    EXPECT_EQ(read("9.9e308").GetDouble(), std::numeric_limits<double>::infinity());
    EXPECT_EQ(read("-9.9e308").GetDouble(), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(read("1e-400").GetDouble(), 0.0);
    EXPECT_TRUE(std::signbit(read("-1e-400").GetDouble()));
    EXPECT_EQ(read("0.000" + std::string(400, '0') + "1e70").GetDouble(), 0.0);
    EXPECT_EQ(read("2.5e-324").GetDouble(), 4.9406564584124654e-324);
    // what RapidJSON refuses it still refuses
    rapidjson::Document json;
    EXPECT_FALSE(FBE::JSON::parse(json, "1e400"));
    EXPECT_FALSE(FBE::JSON::parse(json, "1" + std::string(400, '0') + "e-300")); // "too big to be stored"
    EXPECT_FALSE(FBE::JSON::parse(json, "01"));
    EXPECT_FALSE(FBE::JSON::parse(json, "1."));
    EXPECT_FALSE(FBE::JSON::parse(json, "-"));
    EXPECT_FALSE(FBE::JSON::parse(json, "+1"));
}

TEST(JsonRules, MinusZeroIsNegativeZeroInFloatsAndZeroInIntegers) {
    // docs/limits.md 7: RapidJSON reads -0 as the integer 0, which lost the sign
    ::jsoncases::Values v;
    ASSERT_TRUE(from_string(R"({"origin":-0,"c":-0,"w":-0,"f":-0,"d":-0,"m":-0,"mode":-0})", v)) << last_error();
    EXPECT_EQ(v.origin, 0);
    EXPECT_EQ(v.c, 0);
    EXPECT_EQ(v.w, 0);
    EXPECT_TRUE(v.f == 0 && std::signbit(v.f));
    EXPECT_TRUE(v.d == 0 && std::signbit(v.d));
    EXPECT_EQ(v.m, FBE::decimal_t(0));
    EXPECT_NE(to_string(v).find(R"("f":-0.0,"d":-0.0,)"), std::string::npos) << to_string(v);
    ASSERT_TRUE(from_string(R"({"f":0,"d":-0.0})", v));
    EXPECT_FALSE(std::signbit(v.f));
    EXPECT_TRUE(std::signbit(v.d));
    EXPECT_FALSE(from_string(R"({"origin":-0.0})", v)); // not an integer, as 0.0 is not
    EXPECT_FALSE(from_string(R"({"s":-0})", v));
}

TEST(JsonRules, FromJsonRefusesWhatTheBinaryReadersRefuse) {
    ::recursive::Node back;
    ASSERT_TRUE(from_string(chain_json(FBE::kMaxDepth), back));
    EXPECT_EQ(to_string(back), chain_json(FBE::kMaxDepth));
    EXPECT_FALSE(from_string(chain_json(FBE::kMaxDepth + 1), back));
    EXPECT_NE(last_error().find("structs nested deeper than 128"), std::string::npos) << last_error();
    // issue 13: 20,000 levels overflowed the generated from_json; a caller's iterative parse
    // bypasses parse()'s document limit, the struct readers still stop at kMaxDepth
    rapidjson::Document json;
    json.Parse<rapidjson::kParseIterativeFlag>(chain_json(20000).c_str());
    ASSERT_FALSE(json.HasParseError());
    EXPECT_FALSE(FBE::JSON::from_json(json, back));
    EXPECT_EQ(last_error().rfind("recursive.Node.children[0].children[0].", 0), 0u);
}

TEST(JsonRules, WritersRefuseWhatNoReaderReads) {
    EXPECT_EQ(to_string(chain(FBE::kMaxDepth)), chain_json(FBE::kMaxDepth));
    EXPECT_EQ(to_string(chain(FBE::kMaxDepth + 1)), "");
    EXPECT_EQ(last_error(), "cannot write recursive.Node: structs nested deeper than 128");
}

TEST(JsonRules, InvalidBytesAreWrittenAsUdcEscapesAndReadBack) {
    const std::string cases[] = {"\xff", "a\xc3", "\xc0\xaf", "\xed\xa0\x80", "caf\xc3\xa9 \x80\xfe", "\xf4\x90\x80\x80",
                                 std::string("\x00\x1f\"\\/\x7f", 6)};
    const std::string expected[] = {
        R"("\udcff")", R"("a\udcc3")", R"("\udcc0\udcaf")", R"("\udced\udca0\udc80")",
        "\"caf\xc3\xa9 \\udc80\\udcfe\"", R"("\udcf4\udc90\udc80\udc80")", "\"\\u0000\\u001F\\\"\\\\/\x7f\""};
    for (std::size_t i = 0; i < std::size(cases); ++i) {
        ::jsoncases::Texts t;
        t.text = cases[i];
        t.byName[cases[i]] = 1;
        const std::string text = to_string(t);
        EXPECT_EQ(text, R"({"text":)" + expected[i] + R"(,"byName":{)" + expected[i] + ":1}}") << i;
        ::jsoncases::Texts back;
        ASSERT_TRUE(from_string(text, back)) << last_error();
        EXPECT_EQ(back.text, cases[i]);
        EXPECT_EQ(back.byName.begin()->first, cases[i]);
    }
    ::jsoncases::Texts t;
    ASSERT_TRUE(from_string(R"({"text":"\udcc3\udca9","byName":{}})", t));
    EXPECT_EQ(t.text, "\xc3\xa9"); // the bytes of "é"
    ASSERT_TRUE(from_string(R"({"text":"\ud83d\ude00","byName":{}})", t));
    EXPECT_EQ(t.text, "\xf0\x9f\x98\x80"); // a surrogate pair is a character
}

TEST(JsonRules, OtherLoneSurrogatesAndInvalidDocumentsAreRefused) {
    ::jsoncases::Texts t;
    for (const char* text : {R"({"text":"\ud800"})", R"({"text":"\udc41"})", R"({"text":"\udfff"})",
                             R"({"text":"\udbff x"})", R"({"text":"\ud800\u0041"})"})
        EXPECT_FALSE(from_string(text, t)) << text;
    EXPECT_FALSE(from_string(R"({"text":"\udc41"})", t));
    EXPECT_EQ(last_error(), R"(lone surrogate \udc41 in a JSON string (only \udc80..\udcff stand for bytes))");
    // issue 13: C++ accepted invalid and overlong UTF-8
    for (const char* raw : {"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf8\x88\x80\x80\x80", "\xe2\x82"}) {
        EXPECT_FALSE(from_string(std::string(R"({"text":")") + raw + "\"}", t)) << raw;
        EXPECT_NE(last_error().find("Invalid encoding"), std::string::npos) << last_error();
    }
}

TEST(JsonRules, AByteOrderMarkIsNotJson) {
    // docs/limits.md 7: RapidJSON's UTF-8 input stream skips it, no other language reads it
    ::jsoncases::Texts t;
    EXPECT_FALSE(from_string("\xEF\xBB\xBF{}", t));
    EXPECT_EQ(last_error(), "invalid JSON: a byte order mark is not JSON");
    EXPECT_FALSE(from_string(" \xEF\xBB\xBF{}", t));
    EXPECT_TRUE(from_string("{\"text\":\"\xEF\xBB\xBF\"}", t));
}

TEST(JsonRules, ErrorsNameTheMemberPath) {
    ::jsoncases::Point p;
    EXPECT_FALSE(from_string(R"({"x":"1","y":1})", p));
    EXPECT_EQ(last_error(), "jsoncases.Point.x: expected int32, got string");
    EXPECT_FALSE(from_string(R"({"x":2147483648,"y":1})", p));
    EXPECT_EQ(last_error(), "jsoncases.Point.x: 2147483648 is out of range for int32");
    EXPECT_FALSE(from_string(R"([1,2])", p));
    EXPECT_EQ(last_error(), "jsoncases.Point: expected object, got array");
    EXPECT_FALSE(from_string(R"({"x":1,)", p));
    EXPECT_EQ(last_error().rfind("invalid JSON at offset 7: ", 0), 0u) << last_error();
    ::recursive::Node n;
    EXPECT_FALSE(from_string(R"({"id":1,"label":"a","children":[{"id":2,"label":"b","children":[]},)"
                             R"({"id":3,"label":4,"children":[]}]})", n));
    EXPECT_EQ(last_error(), "recursive.Node.children[1].label: expected string, got number"); // the first error
    ::jsoncases::Keys k;
    EXPECT_FALSE(from_string(R"({"byInt64":{"x":1}})", k));
    EXPECT_EQ(last_error(), "jsoncases.Keys.byInt64[x]: invalid int64 key");
    EXPECT_FALSE(from_string(R"({"byColor":{"1":"a"},"byInt64":{"5":"five"}})", k));
    EXPECT_EQ(last_error(), "jsoncases.Keys.byInt64[5]: expected int32, got string");
    ASSERT_TRUE(from_string(to_string(p), p));
    EXPECT_EQ(last_error(), "");
}


// docs/limits.md 3: every value read is charged; the least budget that reads a
// document is its charge (the same in Python: tests/conformance/test_json_budget.py).
FBE::Limits slack_only(uint64_t slack) {
    FBE::Limits limits;
    limits.budget_factor = 0;
    limits.budget_slack = slack;
    return limits;
}

TEST(JsonBudget, StructsStringsAndElementsAreCharged) {
    // Node 12 (id 4, label 4, children 4) + "abc" 3 + two Nodes 12 each (struct elements cost no more)
    const std::string text = R"({"id":1,"label":"abc","children":[{},{}]})";
    ::recursive::Node n;
    EXPECT_TRUE(from_string(text, n, slack_only(39))) << last_error();
    EXPECT_FALSE(from_string(text, n, slack_only(38)));
    EXPECT_EQ(last_error(), "recursive.Node.children[1]: decode budget exceeded (38 bytes)");
    EXPECT_FALSE(from_string(text, n, slack_only(14)));
    EXPECT_EQ(last_error(), "recursive.Node.label: decode budget exceeded (14 bytes)");
    EXPECT_FALSE(from_string(text, n, slack_only(11)));
    EXPECT_EQ(last_error(), "recursive.Node: decode budget exceeded (11 bytes)");
    // Texts 8 + one entry (string key 4 + int32 4) + the key's 4 bytes
    ::jsoncases::Texts t;
    EXPECT_TRUE(from_string(R"({"text":"","byName":{"abcd":1}})", t, slack_only(20))) << last_error();
    EXPECT_FALSE(from_string(R"({"text":"","byName":{"abcd":1}})", t, slack_only(19)));
    EXPECT_EQ(last_error(), "jsoncases.Texts.byName[abcd]: decode budget exceeded (19 bytes)");
    // a raw byte (\udcff) is one byte; a char[] element 1
    ::jsoncases::Values v;
    const std::string values = R"({"s":"\udcffx","chars":[65,66,67]})";
    const uint64_t least = ::FBE::JSON::ValueReader<rapidjson::Value, ::jsoncases::Values>::cost + 2 + 3;
    EXPECT_TRUE(from_string(values, v, slack_only(least))) << last_error();
    EXPECT_FALSE(from_string(values, v, slack_only(least - 1)));
    EXPECT_EQ(last_error(), "jsoncases.Values.chars: decode budget exceeded (" + std::to_string(least - 1) + " bytes)");
}

TEST(JsonBudget, ManyEmptyObjectsAreRefusedWithoutReservingThem) {
    // issue 13: [{},{},...] reserved every element before reading any (190x the input); an
    // omitted Values costs 76 (its fields' final minimum sizes) for 3 bytes of text
    using Values = ::jsoncases::Values;
    constexpr uint64_t cost = ::FBE::JSON::ValueReader<rapidjson::Value, Values>::cost;
    static_assert(cost == 76);
    std::string text = "[{}";
    for (int i = 1; i < 20000; ++i)
        text += ",{}";
    text += "]";
    const uint64_t budget = FBE::Limits().budget(text.size());
    rapidjson::Document json;
    ASSERT_TRUE(FBE::JSON::parse(json, text));
    std::vector<Values> values;
    EXPECT_FALSE(FBE::JSON::from_json(json, values, FBE::Limits(), text.size()));
    EXPECT_EQ(last_error(), "jsoncases.Values: decode budget exceeded (" + std::to_string(budget) + " bytes)");
    // reading stopped at the first element beyond the budget; no more were reserved than it pays for
    EXPECT_EQ(values.size(), budget / cost);
    EXPECT_EQ(values.capacity(), budget / cost);
    // the same document within a larger budget reads
    FBE::Limits roomy;
    roomy.budget_factor = 26;
    EXPECT_TRUE(FBE::JSON::from_json(json, values, roomy, text.size())) << last_error();
    EXPECT_EQ(values.size(), 20000u);
    // from_json of a document without its text's size has no budget
    EXPECT_TRUE(FBE::JSON::from_json(json, values));
}

TEST(JsonBudget, OmittedMembersTakeTheirDefaultsAndMaxDepthApplies) {
    ::rpc::Ping ping;
    ping.sequence = 7;
    ping.payload = "x";
    ASSERT_TRUE(from_string(R"({"id":"00000000-0000-0000-0000-000000000001"})", ping)) << last_error();
    EXPECT_EQ(ping.sequence, 0);
    EXPECT_EQ(ping.payload, "");
    EXPECT_EQ(last_error(), "");
    FBE::Limits shallow;
    shallow.max_depth = 2;
    ::recursive::Node n;
    EXPECT_TRUE(from_string(R"({"children":[{"children":[]}]})", n, shallow)) << last_error();
    EXPECT_FALSE(from_string(R"({"children":[{"children":[{}]}]})", n, shallow));
    EXPECT_EQ(last_error(), "recursive.Node.children[0].children[0]: structs nested deeper than 2");
    EXPECT_FALSE(from_string(R"([[[[[[[1]]]]]]])", n, shallow));
    EXPECT_EQ(last_error(), "invalid JSON: arrays and objects nested deeper than 6");
}

} // namespace
