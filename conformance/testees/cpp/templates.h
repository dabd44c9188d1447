// The C++ conformance testee: value descriptions (vectors/README.md) of
// scalars and containers, and the request handler of one type. Included
// after the generated struct overloads are declared.
#pragma once

#include "testee.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <list>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace testee {

// ---------------------------------------------------------------- declarations (containers refer to each other)

template <typename T> std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>> from_value(const rapidjson::Value& v, T& x);
template <typename T> std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>> to_value(Writer& w, const T& x);
template <typename T> void from_value(const rapidjson::Value& v, std::optional<T>& x);
template <typename T> void to_value(Writer& w, const std::optional<T>& x);
template <typename T, std::size_t N> void from_value(const rapidjson::Value& v, std::array<T, N>& x);
template <typename T, std::size_t N> void to_value(Writer& w, const std::array<T, N>& x);
template <typename T> void from_value(const rapidjson::Value& v, std::vector<T>& x);
template <typename T> void to_value(Writer& w, const std::vector<T>& x);
template <typename T> void from_value(const rapidjson::Value& v, std::list<T>& x);
template <typename T> void to_value(Writer& w, const std::list<T>& x);
template <typename T> void from_value(const rapidjson::Value& v, std::set<T>& x);
template <typename T> void to_value(Writer& w, const std::set<T>& x);
template <typename K, typename V> void from_value(const rapidjson::Value& v, std::map<K, V>& x);
template <typename K, typename V> void to_value(Writer& w, const std::map<K, V>& x);
template <typename K, typename V> void from_value(const rapidjson::Value& v, std::unordered_map<K, V>& x);
template <typename K, typename V> void to_value(Writer& w, const std::unordered_map<K, V>& x);

// ---------------------------------------------------------------- scalars

inline void from_value(const rapidjson::Value& v, float& x) { x = static_cast<float>(held(v, "a float").GetDouble()); }
inline void from_value(const rapidjson::Value& v, double& x) { x = held(v, "a double").GetDouble(); }
// Strings as the JSON rule of docs/limits.md 7 writes them: bytes that are not UTF-8 as \udcXY (what the
// runner and every other testee read and write), read back to those bytes.
inline void from_value(const rapidjson::Value& v, std::string& x)
{
    held(v, "a string");
    if (!FBE::JSON::detail::string_from_json(v.GetString(), v.GetStringLength(), x))
        throw Unheld("the string holds a lone surrogate that stands for no byte (only \\udc80..\\udcff stand for bytes)");
}
inline void from_value(const rapidjson::Value& v, FBE::decimal_t& x)
{
    try {
        x = FBE::decimal_t(std::string(held(v, "a decimal").GetString()));
    } catch (const std::invalid_argument& e) {
        throw Unheld(e.what());         // a decimal_t holds only writable decimals
    }
}
inline void from_value(const rapidjson::Value& v, FBE::uuid_t& x) { x = FBE::uuid_t(std::string(held(v, "a uuid").GetString())); }
inline void from_value(const rapidjson::Value& v, FBE::buffer_t& x)
{
    const std::string hex(held(v, "bytes").GetString(), v.GetStringLength());
    x.clear();
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        x.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
}

template <typename T>
void write_shortest(Writer& w, T x)
{
    // The shortest digits that read back as the same float/double (the MANIFEST's number form),
    // in exponent form: the plain overload prints large integral values with every digit
    // (93497248 for the float 9.349725e7), which is not the shortest text.
    char text[64];
    auto [end, ec] = std::to_chars(text, text + sizeof(text), x, std::chars_format::scientific);
    (void)ec;
    w.RawValue(text, static_cast<std::size_t>(end - text), rapidjson::kNumberType);
}

inline void to_value(Writer& w, float x) { write_shortest(w, x); }
inline void to_value(Writer& w, double x) { write_shortest(w, x); }
inline void to_value(Writer& w, const std::string& x) { FBE::JSON::detail::write_string(w, x.data(), x.size(), false); }
inline void to_value(Writer& w, const FBE::decimal_t& x) { w.String(x.to_string().c_str()); }
inline void to_value(Writer& w, const FBE::uuid_t& x) { w.String(x.string().c_str()); }
inline void to_value(Writer& w, const FBE::buffer_t& x)
{
    static const char digits[] = "0123456789abcdef";
    std::string hex;
    for (uint8_t b : x) {
        hex += digits[b >> 4];
        hex += digits[b & 15];
    }
    w.String(hex.c_str());
}

// Integers, bool, char, wchar and enums: JSON integers; 64-bit ones as strings.
template <typename T>
std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>> from_value(const rapidjson::Value& v, T& x)
{
    using U = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::common_type<T>>;
    using I = typename U::type;
    held(v, "an integer");
    if constexpr (std::is_same_v<I, bool>)
        x = static_cast<T>(v.GetBool());
    else if constexpr (std::is_same_v<I, char>)
        x = static_cast<T>(static_cast<char>(static_cast<unsigned char>(v.GetUint())));
    else if constexpr (std::is_same_v<I, wchar_t>)
        x = static_cast<T>(static_cast<wchar_t>(v.GetUint64()));
    else if constexpr (sizeof(I) == 8 && std::is_signed_v<I>)
        x = static_cast<T>(static_cast<I>(std::stoll(v.GetString())));
    else if constexpr (sizeof(I) == 8)
        x = static_cast<T>(static_cast<I>(std::stoull(v.GetString())));
    else if constexpr (std::is_signed_v<I>)
        x = static_cast<T>(static_cast<I>(v.GetInt64()));
    else
        x = static_cast<T>(static_cast<I>(v.GetUint64()));
}

template <typename T>
std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>> to_value(Writer& w, const T& x)
{
    using U = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::common_type<T>>;
    using I = typename U::type;
    const I i = static_cast<I>(x);
    if constexpr (std::is_same_v<I, bool>)
        w.Bool(i);
    else if constexpr (std::is_same_v<I, char>)
        w.Uint(static_cast<unsigned char>(i));
    else if constexpr (std::is_same_v<I, wchar_t>)
        w.Uint64(static_cast<uint32_t>(i));
    else if constexpr (sizeof(I) == 8)
        w.String(std::to_string(i).c_str());
    else if constexpr (std::is_signed_v<I>)
        w.Int64(i);
    else
        w.Uint64(i);
}

// ---------------------------------------------------------------- containers

template <typename T>
void from_value(const rapidjson::Value& v, std::optional<T>& x)
{
    if (v.IsNull()) {
        x.reset();
        return;
    }
    x.emplace();
    from_value(v, *x);
}

template <typename T>
void to_value(Writer& w, const std::optional<T>& x)
{
    if (x)
        to_value(w, *x);
    else
        w.Null();
}

template <typename T, std::size_t N>
void from_value(const rapidjson::Value& v, std::array<T, N>& x)
{
    if (held(v, "an array").Size() != N)
        throw BadValue("array of the wrong length");
    for (std::size_t i = 0; i < N; ++i)
        within_index(i, [&] { from_value(v[static_cast<rapidjson::SizeType>(i)], x[i]); });
}

template <typename Seq>
void write_items(Writer& w, const Seq& x)
{
    w.StartArray();
    for (const auto& item : x)
        to_value(w, item);
    w.EndArray();
}

template <typename T, std::size_t N> void to_value(Writer& w, const std::array<T, N>& x) { write_items(w, x); }
template <typename T> void to_value(Writer& w, const std::vector<T>& x) { write_items(w, x); }
template <typename T> void to_value(Writer& w, const std::list<T>& x) { write_items(w, x); }
template <typename T> void to_value(Writer& w, const std::set<T>& x) { write_items(w, x); }

template <typename Seq>
void read_items(const rapidjson::Value& v, Seq& x)
{
    x.clear();
    std::size_t i = 0;
    for (const auto& item : held(v, "a list").GetArray()) {
        x.emplace_back();
        within_index(i++, [&] { from_value(item, x.back()); });
    }
}

template <typename T> void from_value(const rapidjson::Value& v, std::vector<T>& x) { read_items(v, x); }
template <typename T> void from_value(const rapidjson::Value& v, std::list<T>& x) { read_items(v, x); }

template <typename T>
void from_value(const rapidjson::Value& v, std::set<T>& x)
{
    x.clear();
    std::size_t i = 0;
    for (const auto& item : held(v, "a set").GetArray()) {
        T element{};
        within_index(i++, [&] { from_value(item, element); });
        x.insert(std::move(element));
    }
}

template <typename Map>
void read_pairs(const rapidjson::Value& v, Map& x)
{
    x.clear();
    std::size_t i = 0;
    for (const auto& pair : held(v, "a list of pairs").GetArray()) {
        typename Map::key_type key{};
        typename Map::mapped_type value{};
        const std::string at = "[" + std::to_string(i++) + "]";
        within(at + ".key", [&] { from_value(pair[0], key); });
        within(at + ".value", [&] { from_value(pair[1], value); });
        x.emplace(std::move(key), std::move(value));
    }
}

template <typename Map>
void write_pairs(Writer& w, const Map& x)
{
    w.StartArray();
    for (const auto& [key, value] : x) {
        w.StartArray();
        to_value(w, key);
        to_value(w, value);
        w.EndArray();
    }
    w.EndArray();
}

template <typename K, typename V> void from_value(const rapidjson::Value& v, std::map<K, V>& x) { read_pairs(v, x); }
template <typename K, typename V> void to_value(Writer& w, const std::map<K, V>& x) { write_pairs(w, x); }
template <typename K, typename V> void from_value(const rapidjson::Value& v, std::unordered_map<K, V>& x) { read_pairs(v, x); }
template <typename K, typename V> void to_value(Writer& w, const std::unordered_map<K, V>& x) { write_pairs(w, x); }

// ---------------------------------------------------------------- one request

std::string reply(const char* kind, const std::string& text);
std::string reply_object(const std::string& json);
std::string base64(const uint8_t* data, std::size_t size);
std::vector<uint8_t> unbase64(const rapidjson::Value& v);

//! The request's "limits" over the defaults (testee_protocol.md).
inline FBE::Limits read_limits(const rapidjson::Value& request)
{
    FBE::Limits limits;
    if (!request.HasMember("limits"))
        return limits;
    for (auto it = request["limits"].MemberBegin(); it != request["limits"].MemberEnd(); ++it) {
        const std::string name(it->name.GetString());
        const uint64_t value = it->value.GetUint64();
        if (name == "max_depth")
            limits.max_depth = static_cast<unsigned>(value);
        else if (name == "budget_factor")
            limits.budget_factor = value;
        else if (name == "budget_slack")
            limits.budget_slack = value;
        else if (name == "max_frame_size")
            limits.max_frame_size = value;
        else
            throw BadValue("unknown limit " + name);
    }
    return limits;
}

template <typename T>
std::string handle(const rapidjson::Value& request)
{
    const FBE::Limits limits = read_limits(request);
    const rapidjson::Value& input = member(request, "input");
    const std::string in(member(input, "format").GetString());
    const std::string out(member(request, "output").GetString());
    const rapidjson::Value& payload = member(input, "payload");
    T value{};
    if (in == "versioned" || in == "final") {
        const std::vector<uint8_t> bytes = unbase64(payload);
        // Output "verify": verify alone, which gives the read's verdict and error text. The read: versioned
        // deserialize alone; the final model's deserialize is best effort (docs/cpp.md), so on untrusted
        // input it is read after verify().
        auto read = [&](auto& model, bool verify_first) {
            model.limits(limits);
            model.attach(bytes.data(), bytes.size());
            if (out == "verify")
                return model.verify() ? reply("result", "ok") : reply("parse_error", model.error());
            if (verify_first && !model.verify())
                return reply("parse_error", model.error());
            return model.deserialize(value) == 0 ? reply("parse_error", model.error()) : std::string();
        };
        FBE::Model<T, FBE::ReadBuffer> versioned;
        FBE::FinalModel<T, FBE::ReadBuffer> final;
        const std::string answer = in == "versioned" ? read(versioned, false) : read(final, true);
        if (!answer.empty())
            return answer;
    } else if (in == "json") {
        rapidjson::Document json;
        // the rules every reader shares (docs/limits.md): iterative, depth, UTF-8, duplicates, full precision,
        // the decode budget of the text's size
        const std::string_view text(payload.GetString(), payload.GetStringLength());
        if (!FBE::JSON::parse(json, text, limits))
            return reply("parse_error", FBE::JSON::last_error());
        if (!FBE::JSON::from_json(json, value, limits, text.size()))
            return reply("parse_error", "from_json failed: " + FBE::JSON::last_error());
    } else if (in == "value") {
        try {
            from_value(payload, value);
        } catch (const Unheld& e) {
            const std::string type = std::string(member(request, "package").GetString()) + "." +
                                     member(request, "type").GetString();
            return reply("serialize_error", std::string(e.what()) + " (" + type + e.path + ")");
        }
    } else {
        return reply("skipped", "unknown input format " + in);
    }

    if (out == "versioned") {
        FBE::Model<T, FBE::WriteBuffer> model;
        model.serialize(value);
        return reply("result", base64(model.buffer().data(), model.buffer().size()));
    }
    if (out == "final") {
        FBE::FinalModel<T, FBE::WriteBuffer> model;
        model.serialize(value);
        return reply("result", base64(model.buffer().data(), model.buffer().size()));
    }
    if (out == "json") {
        rapidjson::StringBuffer buffer;
        rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
        if (!FBE::JSON::to_json(writer, value))
            return reply("serialize_error", "to_json failed");
        return reply("result", std::string(buffer.GetString(), buffer.GetSize()));
    }
    if (out == "text") {
        std::ostringstream text;
        text << value;
        const std::string s = text.str();
        return reply("result", base64(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
    }
    if (out == "value") {
        rapidjson::StringBuffer buffer;
        Writer writer(buffer);
        to_value(writer, value);
        return reply_object(std::string(buffer.GetString(), buffer.GetSize()));
    }
    return reply("skipped", "unknown output format " + out);
}

//! What a recording receiver did with a stream: messages delivered and frames refused, in order.
struct Events {
    std::vector<std::pair<bool, std::string>> list;   // (is an error, message type or reason)
    void message(const char* type) { list.emplace_back(false, type); }
    void error(const std::string& reason) { list.emplace_back(true, reason); }
};

//! A stream request: fed in one call to the package's Receiver (or FinalReceiver); the events.
template <typename Versioned, typename Final>
std::string handle_stream(const rapidjson::Value& request)
{
    const rapidjson::Value& input = member(request, "input");
    const std::string in(member(input, "format").GetString());
    const std::vector<uint8_t> bytes = unbase64(member(input, "payload"));
    const FBE::Limits limits = read_limits(request);
    auto run = [&](auto& receiver) {
        receiver.limits(limits);
        receiver.receive(bytes.data(), bytes.size());
        rapidjson::StringBuffer buffer;
        Writer w(buffer);
        w.StartArray();
        for (const auto& [is_error, text] : receiver.list) {
            w.StartObject();
            w.Key(is_error ? "error" : "message");
            w.String(text.c_str());
            w.EndObject();
        }
        w.EndArray();
        return reply_object(std::string(buffer.GetString(), buffer.GetSize()));
    };
    if (in == "final_stream") {
        Final receiver;
        return run(receiver);
    }
    Versioned receiver;
    return run(receiver);
}

} // namespace testee
