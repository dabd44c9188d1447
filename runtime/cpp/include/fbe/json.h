// Fast Binary Encoding C++ runtime: JSON conversion through RapidJSON
// (docs/format.md 8).
//
// API of the original:
//
//     rapidjson::StringBuffer buffer;
//     rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
//     FBE::JSON::to_json(writer, account);            // compact JSON
//
//     rapidjson::Document json;
//     json.Parse<rapidjson::kParseFullPrecisionFlag>(text);
//     FBE::JSON::from_json(json, account);            // false when a member is mistyped
//
// (for text that may be hostile, FBE::JSON::parse(json, text) instead of
// json.Parse: RapidJSON 1.1.0's kParseFullPrecisionFlag reads out of bounds
// on long numbers; see parse() below)
//
// plus the shortcuts FBE::JSON::to_string(value) and
// FBE::JSON::from_string(text, value).
//
// This header holds the mapping of every primitive and container;
// `<package>_json.h` (fbec --cpp --json) adds ValueWriter / ValueReader
// specialisations for the package's structs (enums and flags are C++
// enums and handled here). Output is byte-identical to the original's for
// every value the original writes correctly. Deliberate differences, each
// where the original is wrong (docs/format.md 10, docs/cpp-json-protocol.md):
//
// * char is written as its byte value 0..255 (the original goes through a
//   signed char: 0xC8 gave 4294967240); reading accepts both forms;
// * NaN and infinities are written as the strings "NaN", "Infinity",
//   "-Infinity" (the original's writer fails and truncates the output);
//   reading accepts them for float and double;
// * decimal is written exactly: its full text with at least six fraction
//   digits ("123456.123456", "-123.456000", "0.1234567890123456789"),
//   which equals the original's `%f` text whenever that was exact; read back
//   exactly (the original went through double);
// * map/hash keys of enum or flags type are written as the decimal value
//   of their underlying integer; `bytes` keys as their Base64 text; maps
//   whose key is a struct are written as an array of [key, value] pairs
//   (the original cannot compile either);
// * float/double keys use the original's `%f` text when it reads back to
//   the same value, otherwise the shortest round-trip text.
//
// float and double values are written with the digits of RapidJSON master's
// Writer::Double (fbe/dtoa.h, passed to the writer with RawValue), so the
// text is the original's whatever RapidJSON version is installed.
//
// The rules every reader and writer shares (docs/limits.md, "JSON"):
//
// * FBE::JSON::parse(document, text) (and from_string) parses iteratively
//   (kParseIterativeFlag, no recursion), converts numbers from their text
//   (kParseNumbersAsStringsFlag and std::from_chars), refuses nesting deeper than
//   kMaxJsonDepth before building it, refuses text that is not valid UTF-8
//   (kParseValidateEncodingFlag: overlong forms, encoded surrogates...) and
//   duplicate member names in any object;
// * from_json of a struct refuses structs nested deeper than Limits::max_depth
//   (kMaxDepth; as the binary readers), duplicate member names, and map keys that read as the
//   same key; to_json refuses to write structs nested deeper than kMaxDepth;
// * strings may hold any bytes: a byte that is not part of valid UTF-8 is
//   written as the escape \udcXY (U+DC80..U+DCFF, Python's surrogateescape)
//   and read back as that byte; any other lone surrogate escape is refused;
// * every value read is charged against a decode budget of
//   budget_factor * text size + budget_slack bytes (docs/limits.md 3; costs
//   as the binary and Python readers count them), FBE::Limits given to
//   from_string(text, value, limits) or from_json(json, value, limits,
//   text_size); from_json(json, value) knows no text size and has no budget.
//   No vector reserves more elements than the remaining budget pays for;
// * a member missing from a struct's object takes its default (and is
//   charged as one): JSON of an older schema version reads. The original
//   returned false (docs/cpp-json-protocol.md, deliberate differences);
// * a failed from_json / from_string / to_json leaves the reason in
//   FBE::JSON::last_error(): the type, the member path and the problem
//   ("proto.Account.orders[2].symbol: expected string, got number").
//
// Works with Debian's rapidjson-dev 1.1.0 (+dfsg2). RapidJSON master refuses
// lone low surrogate escapes in its parser, so there strings holding bytes
// that are not valid UTF-8 do not read back.

#pragma once

#include "fbe/buffer.h"
#include "fbe/decimal.h"
#include "fbe/dtoa.h"
#include "fbe/uuid.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/encodedstream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace FBE {
namespace JSON {

//! Nesting limit of a JSON document (arrays and objects): each struct level
//! may add a collection and a [key, value] pair, so every document of structs
//! within kMaxDepth fits (docs/limits.md).
constexpr unsigned kMaxJsonDepth = 3 * kMaxDepth;

// ------------------------------------------------------------------ helpers

namespace detail {

inline std::string base64_encode(const uint8_t* data, std::size_t size) {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string result;
    result.reserve((size + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= size; i += 3) {
        const uint32_t v = (uint32_t(data[i]) << 16) | (uint32_t(data[i + 1]) << 8) | data[i + 2];
        result.push_back(alphabet[(v >> 18) & 63]);
        result.push_back(alphabet[(v >> 12) & 63]);
        result.push_back(alphabet[(v >> 6) & 63]);
        result.push_back(alphabet[v & 63]);
    }
    if (size - i == 1) {
        const uint32_t v = uint32_t(data[i]) << 16;
        result.push_back(alphabet[(v >> 18) & 63]);
        result.push_back(alphabet[(v >> 12) & 63]);
        result.append("==");
    } else if (size - i == 2) {
        const uint32_t v = (uint32_t(data[i]) << 16) | (uint32_t(data[i + 1]) << 8);
        result.push_back(alphabet[(v >> 18) & 63]);
        result.push_back(alphabet[(v >> 12) & 63]);
        result.push_back(alphabet[(v >> 6) & 63]);
        result.push_back('=');
    }
    return result;
}

//! Decodes Base64 text: the standard alphabet with padding and nothing else
//! (RFC 4648 4), the unused bits of the last character zero (3.5), so each
//! byte string has one text (docs/limits.md 7). False for any other text
//! (the original decodes up to the first character outside the alphabet).
inline bool base64_decode(std::string_view text, buffer_t& result) {
    result.clear();
    if (text.size() % 4 != 0)
        return false;
    const std::size_t padding = text.empty() || text.back() != '=' ? 0 : text[text.size() - 2] == '=' ? 2 : 1;
    result.reserve(text.size() / 4 * 3);
    uint32_t bits = 0;
    int count = 0;
    for (char c : text.substr(0, text.size() - padding)) {
        int v;
        if (c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (c >= 'a' && c <= 'z')
            v = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            v = c - '0' + 52;
        else if (c == '+')
            v = 62;
        else if (c == '/')
            v = 63;
        else
            return false;
        bits = (bits << 6) | static_cast<uint32_t>(v);
        if (++count == 4) {
            result.push_back(static_cast<uint8_t>(bits >> 16));
            result.push_back(static_cast<uint8_t>(bits >> 8));
            result.push_back(static_cast<uint8_t>(bits));
            bits = 0;
            count = 0;
        }
    }
    if (count == 2) { // "xx==": one byte, the last 4 bits unused
        if ((bits & 0xF) != 0)
            return false;
        result.push_back(static_cast<uint8_t>(bits >> 4));
    } else if (count == 3) { // "xxx=": two bytes, the last 2 bits unused
        if ((bits & 0x3) != 0)
            return false;
        result.push_back(static_cast<uint8_t>(bits >> 10));
        result.push_back(static_cast<uint8_t>(bits >> 2));
    }
    return true;
}

//! The decimal text of the JSON mapping: the value as the binary writers store
//! it (no trailing fraction zeros, docs/format.md 2.4), at least 6 fraction digits.
inline std::string decimal_text(const decimal_t& value) {
    std::string text = value.normalized().to_string();
    const std::size_t point = text.find('.');
    const std::size_t fraction = point == std::string::npos ? 0 : text.size() - point - 1;
    if (point == std::string::npos)
        text.push_back('.');
    if (fraction < 6)
        text.append(6 - fraction, '0');
    if (text[0] == '-' && value.is_zero())
        text.erase(0, 1);
    return text;
}

//! The JSON text of a finite double: RapidJSON master's Writer::Double (fbe/dtoa.h).
inline std::string double_text(double value) {
    char text[dtoa::kBufferSize];
    return std::string(text, dtoa::write(value, text));
}

template <class TWriter, typename = void>
struct has_raw_value : std::false_type {};
template <class TWriter>
struct has_raw_value<TWriter, std::void_t<decltype(std::declval<TWriter&>().RawValue(
                                  "", std::size_t(0), rapidjson::kNumberType))>> : std::true_type {};

//! A finite number as its text (RawValue of rapidjson::Writer and
//! PrettyWriter); a handler without RawValue is given the double itself.
template <class TWriter>
bool write_double(TWriter& writer, double value) {
    if constexpr (has_raw_value<TWriter>::value) {
        char text[dtoa::kBufferSize];
        const char* end = dtoa::write(value, text);
        return writer.RawValue(text, static_cast<std::size_t>(end - text), rapidjson::kNumberType);
    } else {
        return writer.Double(value);
    }
}

//! The text of a float/double map key: the original's `%f` when it reads
//! back to the same value, otherwise the shortest round-trip text.
template <typename T>
std::string real_key_text(T value) {
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value < 0 ? "-Infinity" : "Infinity";
    char text[512];
    std::snprintf(text, sizeof(text), "%f", static_cast<double>(value));
    if (static_cast<T>(std::strtod(text, nullptr)) == value && std::signbit(std::strtod(text, nullptr)) == std::signbit(value))
        return text;
    return double_text(static_cast<double>(value));
}

template <typename T>
bool real_from_text(std::string_view text, T& value) {
    if (text == "NaN") {
        value = std::numeric_limits<T>::quiet_NaN();
        return true;
    }
    if (text == "Infinity" || text == "-Infinity") {
        value = text[0] == '-' ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
        return true;
    }
    const std::string copy(text);
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(copy.c_str(), &end);
    if (copy.empty() || end != copy.c_str() + copy.size())
        return false;
    value = static_cast<T>(d);
    return true;
}

template <typename T>
bool integer_from_text(std::string_view text, T& value) {
    const std::string copy(text);
    if (copy.empty())
        return false;
    char* end = nullptr;
    errno = 0;
    if constexpr (std::is_signed_v<T>) {
        const long long v = std::strtoll(copy.c_str(), &end, 10);
        if (errno != 0 || end != copy.c_str() + copy.size() || v < static_cast<long long>(std::numeric_limits<T>::min()) ||
            v > static_cast<long long>(std::numeric_limits<T>::max()))
            return false;
        value = static_cast<T>(v);
    } else {
        if (copy[0] == '-')
            return false;
        const unsigned long long v = std::strtoull(copy.c_str(), &end, 10);
        if (errno != 0 || end != copy.c_str() + copy.size() || v > static_cast<unsigned long long>(std::numeric_limits<T>::max()))
            return false;
        value = static_cast<T>(v);
    }
    return true;
}

template <typename T>
struct is_std_optional : std::false_type {};
template <typename T>
struct is_std_optional<std::optional<T>> : std::true_type {};

template <typename T>
struct is_std_array : std::false_type {};
template <typename T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

//! Types with a count or length on the wire (final minimum size 4).
template <typename T>
struct is_counted : std::bool_constant<std::is_same_v<T, std::string> || std::is_same_v<T, buffer_t>> {};
template <typename T>
struct is_counted<std::vector<T>> : std::true_type {};
template <typename T>
struct is_counted<std::list<T>> : std::true_type {};
template <typename T>
struct is_counted<std::set<T>> : std::true_type {};
template <typename K, typename V>
struct is_counted<std::map<K, V>> : std::true_type {};
template <typename K, typename V>
struct is_counted<std::unordered_map<K, V>> : std::true_type {};

//! Whether T is a generated struct (every other class type is known here).
template <typename T>
constexpr bool is_struct_value() {
    return std::is_class_v<T> && !is_counted<T>::value && !is_std_optional<T>::value && !is_std_array<T>::value &&
           !std::is_same_v<T, decimal_t> && !std::is_same_v<T, uuid_t>;
}

//! A value's share of its struct's decode cost (docs/limits.md 3): its final
//! minimum size, 0 for a struct (charged as a struct of its own). As the IR's
//! decode_share.
template <typename T>
constexpr uint64_t decode_share() {
    if constexpr (std::is_enum_v<T>)
        return decode_share<std::underlying_type_t<T>>();
    else if constexpr (std::is_same_v<T, wchar_t>)
        return 4;
    else if constexpr (std::is_arithmetic_v<T>)
        return sizeof(T);
    else if constexpr (std::is_same_v<T, decimal_t> || std::is_same_v<T, uuid_t>)
        return 16;
    else if constexpr (is_std_optional<T>::value)
        return 1;
    else if constexpr (is_std_array<T>::value)
        return std::tuple_size_v<T> * decode_share<typename T::value_type>();
    else if constexpr (is_counted<T>::value)
        return 4;
    else
        return 0;
}

//! What one element of a collection (one key or value of a map) costs when
//! read: a struct nothing here (it is charged as a struct). As the IR's element_cost.
template <typename T>
constexpr uint64_t element_cost() {
    if constexpr (is_struct_value<T>())
        return 0;
    else
        return std::max<uint64_t>(1, decode_share<T>());
}

//! The length of the valid UTF-8 sequence at p (1..4), or 0 when the byte
//! at p does not start one.
inline std::size_t utf8_sequence(const unsigned char* p, const unsigned char* end) noexcept {
    const unsigned c = *p;
    if (c < 0x80)
        return 1;
    std::size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 2;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (static_cast<std::size_t>(end - p) <= n || p[1] < lo || p[1] > hi)
        return 0;
    for (std::size_t i = 2; i <= n; ++i)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n + 1;
}

//! Whether [data, data + size) is valid UTF-8 (no overlong form, no
//! surrogate, nothing above U+10FFFF); ASCII runs are checked 8 bytes at a time.
inline bool valid_utf8(const char* data, std::size_t size) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(data);
    const auto* end = p + size;
    // the common case first: all ASCII, checked without a branch per byte
    uint64_t high = 0;
    if (size >= 8) {
        uint64_t word;
        for (std::size_t i = 0; i + 8 <= size; i += 8) {
            std::memcpy(&word, p + i, 8);
            high |= word;
        }
        std::memcpy(&word, end - 8, 8);
        high |= word;
    } else {
        for (std::size_t i = 0; i < size; ++i)
            high |= p[i];
    }
    if ((high & 0x8080808080808080ull) == 0)
        return true;
    while (p < end) {
        if (end - p >= 8) {
            uint64_t word;
            std::memcpy(&word, p, 8);
            if ((word & 0x8080808080808080ull) == 0) {
                p += 8;
                continue;
            }
        }
        const std::size_t n = utf8_sequence(p, end);
        if (n == 0)
            return false;
        p += n;
    }
    return true;
}

//! The JSON string literal of bytes that are not valid UTF-8, escaped as
//! RapidJSON's Writer escapes (control characters, `"` and `\`), each byte
//! outside a valid UTF-8 sequence as \udcXY.
inline std::string escaped_string(const char* data, std::size_t size) {
    static constexpr char hex[] = "0123456789ABCDEF";
    static constexpr char lower[] = "0123456789abcdef";
    std::string out;
    out.reserve(size + 16);
    out.push_back('"');
    const auto* p = reinterpret_cast<const unsigned char*>(data);
    const auto* end = p + size;
    while (p < end) {
        const unsigned c = *p;
        if (c < 0x80) {
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        out.append("\\u00");
                        out.push_back(hex[c >> 4]);
                        out.push_back(hex[c & 15]);
                    } else
                        out.push_back(static_cast<char>(c));
            }
            ++p;
            continue;
        }
        const std::size_t n = utf8_sequence(p, end);
        if (n) {
            out.append(reinterpret_cast<const char*>(p), n);
            p += n;
        } else {
            out.append("\\udc");
            out.push_back(lower[c >> 4]);
            out.push_back(lower[c & 15]);
            ++p;
        }
    }
    out.push_back('"');
    return out;
}

//! Writes a string value (key = false) or member name (key = true) by the
//! rule above: valid UTF-8 as RapidJSON writes it, other bytes as \udcXY.
template <class TWriter>
bool write_string(TWriter& writer, const char* data, std::size_t size, bool key) {
    if constexpr (has_raw_value<TWriter>::value) {
        if (!valid_utf8(data, size)) {
            const std::string text = escaped_string(data, size);
            return writer.RawValue(text.data(), text.size(), rapidjson::kStringType);
        }
    }
    // (a handler without RawValue, such as a Document, is given the bytes themselves)
    return key ? writer.Key(data, static_cast<rapidjson::SizeType>(size))
               : writer.String(data, static_cast<rapidjson::SizeType>(size));
}

//! The bytes a parsed JSON string stands for: RapidJSON decodes the escape
//! \udcXY to the three bytes ED B2..B3 xx (the UTF-8 form of the lone
//! surrogate); each becomes the byte 0xXY. Any other surrogate, or bytes that
//! are not valid UTF-8 (a document parsed without validation), is an error.
inline bool string_from_json(const char* data, std::size_t size, std::string& out, std::string* problem = nullptr) {
    if (FBE_LIKELY(valid_utf8(data, size))) {
        out.assign(data, size);
        return true;
    }
    out.clear();
    out.reserve(size);
    const auto* p = reinterpret_cast<const unsigned char*>(data);
    const auto* end = p + size;
    while (p < end) {
        const std::size_t n = utf8_sequence(p, end);
        if (n) {
            out.append(reinterpret_cast<const char*>(p), n);
            p += n;
            continue;
        }
        if (p[0] == 0xED && end - p >= 3 && p[1] >= 0xA0 && p[1] <= 0xBF && (p[2] & 0xC0) == 0x80) {
            const unsigned unit = 0xD000u | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
            if (unit >= 0xDC80 && unit <= 0xDCFF) {
                out.push_back(static_cast<char>(unit - 0xDC00));
                p += 3;
                continue;
            }
            if (problem) {
                static constexpr char lower[] = "0123456789abcdef";
                *problem = "lone surrogate \\u";
                for (int shift = 12; shift >= 0; shift -= 4)
                    problem->push_back(lower[(unit >> shift) & 15]);
                *problem += " in a JSON string (only \\udc80..\\udcff stand for bytes)";
            }
            return false;
        }
        if (problem)
            *problem = "a JSON string that is not valid UTF-8";
        return false;
    }
    return true;
}

// ------------------------------------------------------------------ nesting and errors

//! The reading and writing state of this thread: struct depth and the first
//! error with its member path, built from the inside out as the readers
//! return. A value's own problem is recorded at path level 2 * depth + 2
//! (depth: of the enclosing struct; a struct's own problem at 2 * its depth);
//! a member of a struct at depth d adds its name at level 2d, an element of a
//! collection there its index at 2d + 1, the root struct its type at 1. The
//! first error wins: later failures only return false.
struct Depth {
    unsigned read; // struct levels of the from_json in progress
    unsigned write; // struct levels of the to_json in progress
    unsigned max_read; // Limits::max_depth of the from_json in progress
    bool exhausted; // the decode budget was exceeded: every reader stops
    uint64_t budget; // the decode budget of the from_json in progress (docs/limits.md 3)
    uint64_t left; // what remains of it
};

//! The depths and the budget (a trivial type: a thread_local without an init guard).
inline Depth& depth() noexcept {
    static thread_local Depth d{0, 0, kMaxDepth, false, UINT64_MAX, UINT64_MAX};
    return d;
}

//! Starts the budget and the depth limit of a from_json; `input_size` is the
//! JSON text's length in bytes (unknown: UINT64_MAX, no budget).
inline void start_read(const Limits& limits, uint64_t input_size) noexcept {
    Depth& d = depth();
    d.max_read = limits.max_depth;
    d.exhausted = false;
    d.budget = d.left = input_size == UINT64_MAX ? UINT64_MAX : limits.budget(input_size);
}

struct State {
    unsigned error_level = 0; // 0: no error yet
    bool error_weak = false;  // a missing member: any other problem replaces it
    std::string error_path;
    std::string error_message;
};

inline State& state() noexcept {
    static thread_local State s;
    return s;
}

inline void clear_error() {
    State& s = state();
    s.error_level = 0;
    s.error_weak = false;
    s.error_path.clear();
    s.error_message.clear();
}

//! Records a problem at `level` unless an error is already recorded (a
//! missing member, `weak`, gives way to the first other problem).
inline bool fail(unsigned level, std::string message, bool weak = false) {
    State& s = state();
    if (s.error_level == 0 || (s.error_weak && !weak)) {
        s.error_level = level;
        s.error_weak = weak;
        s.error_path.clear();
        s.error_message = std::move(message);
    }
    return false;
}

//! Records "decode budget exceeded" at `level` and stops the readers.
FBE_COLD inline bool budget_exceeded(unsigned level) {
    Depth& d = depth();
    d.exhausted = true;
    d.left = 0;
    return fail(level, "decode budget exceeded (" + std::to_string(d.budget) + " bytes)");
}

//! Charges what a value read costs against the decode budget (docs/limits.md
//! 3); false beyond it, the problem recorded at path `level`.
FBE_INLINE bool charge(uint64_t cost, unsigned level) {
    Depth& d = depth();
    if (FBE_LIKELY(cost <= d.left)) {
        d.left -= cost;
        return true;
    }
    return budget_exceeded(level);
}

//! Charges `count` collection elements of `cost` each, before any is read.
FBE_INLINE bool charge_elements(uint64_t count, uint64_t cost, unsigned level) {
    Depth& d = depth();
    if (FBE_LIKELY(cost == 0 || count <= d.left / cost)) {
        d.left -= count * cost;
        return true;
    }
    return budget_exceeded(level);
}

//! Whether the budget was exceeded: a reader stops at once instead of going
//! on with the other members and elements.
inline bool exhausted() noexcept { return depth().exhausted; }

//! Whether a failure just returned by a reader left no problem of its own.
inline bool unexplained() noexcept { return state().error_level == 0 || state().error_weak; }

//! Adds a path component at `level` in front of the error being built.
inline void prepend(unsigned level, const std::string& component) {
    State& s = state();
    if (s.error_level > level) {
        if (!s.error_path.empty() && s.error_path[0] != '[')
            s.error_path.insert(0, 1, '.');
        s.error_path.insert(0, component);
        s.error_level = level;
    }
}

//! The kind of a JSON value in plain words.
template <class TJson>
const char* json_kind(const TJson& json) {
    if (json.IsNull())
        return "null";
    if (json.IsBool())
        return "boolean";
    if (json.IsObject())
        return "object";
    if (json.IsArray())
        return "array";
    if (json.IsString())
        return "string";
    return "number";
}

//! The bits of the integer -0 as parse() leaves it in a document: a NaN that no
//! JSON text gives (our NaN is the string "NaN"). Integer fields read it as 0,
//! float and double fields as negative zero (docs/limits.md 7): RapidJSON's
//! integers hold no sign, and a double -0.0 is what "-0.0" gives, which integer
//! fields refuse.
constexpr uint64_t kMinusZeroInteger = 0x7FF8000000002D30ull;

inline double minus_zero_integer() noexcept {
    double d;
    std::memcpy(&d, &kMinusZeroInteger, sizeof(d));
    return d;
}

//! Whether a JSON value is the integer -0 (minus_zero_integer).
template <class TJson>
bool is_minus_zero(const TJson& json) noexcept {
    if (!json.IsDouble())
        return false;
    const double d = json.GetDouble();
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof(bits));
    return bits == kMinusZeroInteger;
}

//! At most the first 32 characters of input text for an error message, then
//! "..." when cut: an error never quotes a whole hostile input (docs/limits.md 7).
inline std::string short_text(std::string_view text) {
    return std::string(text.substr(0, 32)) + (text.size() > 32 ? "..." : "");
}

template <class TJson>
std::string number_text(const TJson& json) {
    if (is_minus_zero(json))
        return "-0";
    if (json.IsInt64())
        return std::to_string(json.GetInt64());
    if (json.IsUint64())
        return std::to_string(json.GetUint64());
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", json.GetDouble());
    return text;
}

template <typename T, typename Enable = void>
struct TypeName {
    static const char* name() { return "object"; } // structs (and maps of struct keys: arrays)
};
template <> struct TypeName<bool> { static const char* name() { return "bool"; } };
template <> struct TypeName<char> { static const char* name() { return "char"; } };
template <> struct TypeName<wchar_t> { static const char* name() { return "wchar"; } };
template <> struct TypeName<int8_t> { static const char* name() { return "int8"; } };
template <> struct TypeName<uint8_t> { static const char* name() { return "uint8"; } };
template <> struct TypeName<int16_t> { static const char* name() { return "int16"; } };
template <> struct TypeName<uint16_t> { static const char* name() { return "uint16"; } };
template <> struct TypeName<int32_t> { static const char* name() { return "int32"; } };
template <> struct TypeName<uint32_t> { static const char* name() { return "uint32"; } };
template <> struct TypeName<int64_t> { static const char* name() { return "int64"; } };
template <> struct TypeName<uint64_t> { static const char* name() { return "uint64"; } };
template <> struct TypeName<float> { static const char* name() { return "float"; } };
template <> struct TypeName<double> { static const char* name() { return "double"; } };
template <> struct TypeName<decimal_t> { static const char* name() { return "decimal"; } };
template <> struct TypeName<uuid_t> { static const char* name() { return "uuid"; } };
template <> struct TypeName<std::string> { static const char* name() { return "string"; } };
template <> struct TypeName<buffer_t> { static const char* name() { return "bytes"; } };
template <typename T>
struct TypeName<T, std::enable_if_t<std::is_enum_v<T>>> {
    static const char* name() { return TypeName<std::underlying_type_t<T>>::name(); }
};
template <typename T> struct TypeName<std::optional<T>> { static const char* name() { return TypeName<T>::name(); } };
template <typename T, std::size_t N> struct TypeName<std::array<T, N>> { static const char* name() { return "array"; } };
template <typename T> struct TypeName<std::vector<T>> { static const char* name() { return "array"; } };
template <typename T> struct TypeName<std::list<T>> { static const char* name() { return "array"; } };
template <typename T> struct TypeName<std::set<T>> { static const char* name() { return "array"; } };

//! The problem of a JSON value that T could not be read from, in plain words.
template <typename T, class TJson>
std::string mismatch(const TJson& json) {
    using U = std::conditional_t<is_std_optional<T>::value, void, T>;
    if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
        if (json.IsNumber())
            return number_text(json) + " is out of range for " + TypeName<T>::name();
    } else if constexpr (std::is_enum_v<U>) {
        if (json.IsNumber())
            return number_text(json) + " is out of range for " + TypeName<T>::name();
    } else if constexpr (std::is_same_v<U, float>) {
        if (json.IsNumber())
            return number_text(json) + " is out of range for float";
    }
    if constexpr (std::is_same_v<U, decimal_t>) {
        if (json.IsString()) { // parse()'s reason, quoting a short prefix of the text
            decimal_t ignored;
            return decimal_t::parse(std::string_view(json.GetString(), json.GetStringLength()), ignored);
        }
    }
    if constexpr (std::is_same_v<U, uuid_t>) {
        if (json.IsString())
            return std::string("invalid ") + TypeName<T>::name() + " \"" + short_text(json.GetString()) + "\"";
    } else if constexpr (std::is_same_v<U, buffer_t>) {
        if (json.IsString())
            return "invalid base64";
    }
    return std::string("expected ") + TypeName<T>::name() + ", got " + json_kind(json);
}

//! A member of the struct being read (at depth d) failed: its name in front.
template <typename T, class TJson>
void member_failed(const char* key, const TJson* json) {
    const unsigned level = 2 * depth().read;
    if (json == nullptr)
        fail(level + 2, "missing member", true);
    else if (unexplained())
        fail(level + 2, mismatch<T>(*json));
    prepend(level, key);
}

//! An element (or map entry) of a collection failed: its index or key in front.
template <typename T, class TJson>
void element_failed(const std::string& index, const TJson& json) {
    const unsigned level = 2 * depth().read + 1;
    if (unexplained())
        fail(level + 1, mismatch<T>(json));
    prepend(level, "[" + index + "]");
}

//! Counts the struct levels of a from_json (RAII): false past Limits::max_depth.
class ReadLevel {
public:
    ReadLevel() noexcept : _depth(++detail::depth().read) {}
    ~ReadLevel() { --detail::depth().read; }
    ReadLevel(const ReadLevel&) = delete;
    ReadLevel& operator=(const ReadLevel&) = delete;
    unsigned depth() const noexcept { return _depth; }
    bool ok() const noexcept { return _depth <= detail::depth().max_read; }

private:
    unsigned _depth;
};

//! Counts the struct levels of a to_json (RAII): false past kMaxDepth. A
//! base written inside its derived struct (count = false) is no level.
class WriteLevel {
public:
    explicit WriteLevel(bool count) noexcept : _count(count), _depth(depth().write + count) {
        depth().write = _depth;
    }
    ~WriteLevel() { depth().write -= _count; }
    WriteLevel(const WriteLevel&) = delete;
    WriteLevel& operator=(const WriteLevel&) = delete;
    bool ok() const noexcept { return _depth <= kMaxDepth; }

private:
    unsigned _count;
    unsigned _depth;
};

//! Checks a struct's JSON object before its members are read: the depth, the
//! type of value, and charges the struct's cost. Records the problem (the root
//! clears an earlier error first).
template <class TJson>
bool enter_struct(const ReadLevel& level, const TJson& json, const char* type, uint64_t cost) {
    if (level.depth() == 1 && state().error_level != 0)
        clear_error();
    const unsigned at = 2 * level.depth();
    auto refuse = [&](std::string message) {
        fail(at, std::move(message));
        if (level.depth() == 1)
            prepend(1, type);
        return false;
    };
    if (!level.ok())
        return refuse("structs nested deeper than " + std::to_string(depth().max_read));
    if (!json.IsObject())
        return refuse(std::string("expected object, got ") + json_kind(json));
    if (FBE_UNLIKELY(!charge(cost, at))) {
        if (level.depth() == 1)
            prepend(1, type);
        return false;
    }
    return true;
}

//! The index of `name` among a struct's field names, trying `hint` first
//! (members mostly come in declaration order); `count` when it is unknown.
inline std::size_t field_index(const std::string_view* names, std::size_t count, std::string_view name,
                               std::size_t hint) noexcept {
    if (hint < count && names[hint] == name)
        return hint;
    for (std::size_t i = 0; i < count; ++i)
        if (names[i] == name)
            return i;
    return count;
}

//! A member name seen twice in a struct's object (the first and the last
//! would give different values).
inline bool duplicate_member(std::string_view name) {
    fail(2 * depth().read, "duplicate member name \"" + std::string(name) + "\"");
    return false;
}

//! Ends a struct's from_json: the root names its type in front of the error.
inline bool leave_struct(const ReadLevel& level, bool result, const char* type) {
    if (!result && level.depth() == 1)
        prepend(1, type);
    return result;
}

//! A to_json of a struct nested deeper than kMaxDepth.
inline bool write_too_deep(const char* type) {
    clear_error();
    fail(1, std::string("cannot write ") + type + ": structs nested deeper than " + std::to_string(kMaxDepth));
    return false;
}

//! A struct's to_json (generated ValueWriter): its object with `members()` writing the members inside (a
//! base written inside its derived struct's object, !scope, adds no braces and no level); no writer writes
//! what no reader reads: struct nesting within kMaxDepth.
template <class TWriter, typename TMembers>
bool write_struct(TWriter& writer, bool scope, const char* type, TMembers&& members) {
    const WriteLevel level(scope);
    if (!level.ok())
        return write_too_deep(type);
    if (scope && !writer.StartObject())
        return false;
    return members() && (!scope || writer.EndObject());
}

//! A struct's from_json (generated ValueReader): the depth, the object and its cost checked (enter_struct),
//! then `members()` reads the members; the root names its type in errors.
template <class TJson, typename TMembers>
FBE_INLINE bool read_struct(const TJson& json, const char* type, uint64_t cost, TMembers&& members) {
    const ReadLevel level;
    if (!enter_struct(level, json, type, cost))
        return false;
    return leave_struct(level, members(), type);
}

} // namespace detail

// ------------------------------------------------------------------ writing

//! Writes a value of type T. Specialised here for every primitive and
//! container, and by `<package>_json.h` for every struct. `scope` = false
//! writes the members of a struct without the braces (used for the
//! flattened base of a derived struct).
template <class TWriter, typename T, typename Enable = void>
struct ValueWriter;

template <class TWriter, typename T>
inline bool to_json(TWriter& writer, const T& value, bool scope = true) {
    return ValueWriter<TWriter, T>::to_json(writer, value, scope);
}

//! Writes a member name.
template <class TWriter>
inline bool to_json_key(TWriter& writer, const char* key) {
    return writer.Key(key, static_cast<rapidjson::SizeType>(std::strlen(key)));
}

//! A struct's table of its members, which its ValueWriter (StructWriter) writes (`<package>_json.h`
//! specialises it for every struct): `name`, the struct's schema name, and `fields`, a tuple of Field, every
//! field's data member and name, inherited ones first.
template <typename T>
struct Fields;

//! One field of Fields<T>::fields: the data member (of T or of a base) and the member's name.
template <typename M>
struct Field {
    M member;
    std::string_view name;
};
template <typename M>
constexpr Field<M> field(M member, const char* name) noexcept {
    return {member, name};
}

namespace detail {
template <typename T>
constexpr std::size_t field_count = std::tuple_size_v<std::decay_t<decltype(Fields<T>::fields)>>;

template <typename T, std::size_t... I>
constexpr std::array<std::string_view, sizeof...(I)> names_of(std::index_sequence<I...>) noexcept {
    return {std::get<I>(Fields<T>::fields).name...};
}
//! The names of a struct's members in Fields<T>'s order, which its reader matches (read_fields).
template <typename T>
constexpr std::array<std::string_view, field_count<T>> field_names =
    names_of<T>(std::make_index_sequence<field_count<T>>());

//! The members of a struct T's object checked by enter_struct (generated read_members), in one pass: each
//! name is matched among field_names<T> once (the next field in declaration order first), an unknown name
//! is ignored, a name seen twice is refused; `read(i, member)` reads the member of field i.
//! Marks the fields read in `seen`; `result` is whether every member read. False when the object must be
//! refused at once: a name seen twice, or a member failed beyond the decode budget.
template <typename T, class TJson, std::size_t N, typename TRead>
bool read_fields(const TJson& json, bool (&seen)[N], bool& result, TRead&& read) {
    static_assert(N == field_count<T>);
    constexpr auto& names = field_names<T>;
    std::size_t next = 0;
    for (auto it = json.MemberBegin(); it != json.MemberEnd(); ++it) {
        const std::string_view name(it->name.GetString(), it->name.GetStringLength());
        const std::size_t i = field_index(names.data(), N, name, next);
        if (i == N)
            continue; // unknown members are ignored
        if (seen[i])
            return duplicate_member(name);
        seen[i] = true;
        next = i + 1;
        result &= read(i, it->value);
        if (FBE_UNLIKELY(!result) && exhausted())
            return false; // beyond the decode budget: stop at once
    }
    return true;
}

//! The members of a struct's object from its I-th field on, in order (StructWriter).
template <std::size_t I, class TWriter, typename T>
FBE_INLINE bool write_from(TWriter& writer, const T& value) {
    if constexpr (I == field_count<T>) {
        return true;
    } else {
        constexpr auto& field = std::get<I>(Fields<T>::fields);
        if (!writer.Key(field.name.data(), rapidjson::SizeType(field.name.size())) ||
            !FBE::JSON::to_json(writer, value.*field.member))
            return false;
        return write_from<I + 1>(writer, value);
    }
}
} // namespace detail

//! The ValueWriter of a struct, of every type T with a table Fields<T> (`<package>_json.h` specialises it): its
//! object, the members over Fields<T>::fields (inherited ones first, as docs/cpp-json-protocol.md writes them).
template <class TWriter, typename T>
struct ValueWriter<TWriter, T, std::void_t<decltype(Fields<T>::fields)>> {
    static bool to_json(TWriter& writer, const T& value, bool scope = true) {
        return detail::write_struct(writer, scope, Fields<T>::name,
                                    [&] { return detail::write_from<0>(writer, value); });
    }
};

template <class TWriter>
struct ValueWriter<TWriter, bool> {
    static bool to_json(TWriter& writer, bool value, bool = true) { return writer.Bool(value); }
};

template <class TWriter>
struct ValueWriter<TWriter, char> {
    static bool to_json(TWriter& writer, char value, bool = true) { return writer.Uint(static_cast<uint8_t>(value)); }
};

template <class TWriter>
struct ValueWriter<TWriter, wchar_t> {
    static bool to_json(TWriter& writer, wchar_t value, bool = true) { return writer.Uint(static_cast<uint32_t>(value)); }
};

template <class TWriter, typename T>
struct ValueWriter<TWriter, T,
                   std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
                                    !std::is_same_v<T, wchar_t>>> {
    static bool to_json(TWriter& writer, T value, bool = true) {
        if constexpr (std::is_signed_v<T>) {
            if constexpr (sizeof(T) <= 4)
                return writer.Int(static_cast<int>(value));
            else
                return writer.Int64(static_cast<int64_t>(value));
        } else {
            if constexpr (sizeof(T) <= 4)
                return writer.Uint(static_cast<unsigned>(value));
            else
                return writer.Uint64(static_cast<uint64_t>(value));
        }
    }
};

//! Enums and flags: their underlying integer (names are never used).
template <class TWriter, typename T>
struct ValueWriter<TWriter, T, std::enable_if_t<std::is_enum_v<T>>> {
    static bool to_json(TWriter& writer, T value, bool = true) {
        using U = std::underlying_type_t<T>;
        return ValueWriter<TWriter, U>::to_json(writer, static_cast<U>(value));
    }
};

template <class TWriter, typename T>
struct ValueWriter<TWriter, T, std::enable_if_t<std::is_floating_point_v<T>>> {
    static bool to_json(TWriter& writer, T value, bool = true) {
        if (std::isnan(value))
            return writer.String("NaN", 3);
        if (std::isinf(value))
            return value < 0 ? writer.String("-Infinity", 9) : writer.String("Infinity", 8);
        return detail::write_double(writer, static_cast<double>(value));
    }
};

template <class TWriter>
struct ValueWriter<TWriter, decimal_t> {
    static bool to_json(TWriter& writer, const decimal_t& value, bool = true) {
        const std::string text = detail::decimal_text(value);
        return writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    }
};

template <class TWriter>
struct ValueWriter<TWriter, uuid_t> {
    static bool to_json(TWriter& writer, const uuid_t& value, bool = true) {
        const std::string text = value.string();
        return writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    }
};

template <class TWriter>
struct ValueWriter<TWriter, std::string> {
    static bool to_json(TWriter& writer, const std::string& value, bool = true) {
        return detail::write_string(writer, value.data(), value.size(), false);
    }
};

template <class TWriter>
struct ValueWriter<TWriter, buffer_t> {
    static bool to_json(TWriter& writer, const buffer_t& value, bool = true) {
        const std::string text = detail::base64_encode(value.data(), value.size());
        return writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    }
};

template <class TWriter, typename T>
struct ValueWriter<TWriter, std::optional<T>> {
    static bool to_json(TWriter& writer, const std::optional<T>& value, bool = true) {
        return value ? FBE::JSON::to_json(writer, *value) : writer.Null();
    }
};

namespace detail {
template <class TWriter, typename C>
bool write_array(TWriter& writer, const C& values) {
    if (!writer.StartArray())
        return false;
    for (const auto& value : values)
        if (!FBE::JSON::to_json(writer, value))
            return false;
    return writer.EndArray();
}
} // namespace detail

template <class TWriter, typename T, std::size_t N>
struct ValueWriter<TWriter, std::array<T, N>> {
    static bool to_json(TWriter& writer, const std::array<T, N>& values, bool = true) {
        return detail::write_array(writer, values);
    }
};
template <class TWriter, typename T>
struct ValueWriter<TWriter, std::vector<T>> {
    static bool to_json(TWriter& writer, const std::vector<T>& values, bool = true) {
        return detail::write_array(writer, values);
    }
};
template <class TWriter, typename T>
struct ValueWriter<TWriter, std::list<T>> {
    static bool to_json(TWriter& writer, const std::list<T>& values, bool = true) {
        return detail::write_array(writer, values);
    }
};
template <class TWriter, typename T>
struct ValueWriter<TWriter, std::set<T>> {
    static bool to_json(TWriter& writer, const std::set<T>& values, bool = true) {
        return detail::write_array(writer, values);
    }
};

// ------------------------------------------------------------------ map keys

//! Conversion of a map key to and from its JSON member-name text.
//! `supported` is false for struct keys: such maps are written as an array
//! of [key, value] pairs instead.
template <typename T, typename Enable = void>
struct KeyText {
    static constexpr bool supported = false;
};

template <>
struct KeyText<std::string> {
    static constexpr bool supported = true;
    static std::string to_text(const std::string& key) { return key; }
    static bool from_text(std::string_view text, std::string& key) {
        return detail::string_from_json(text.data(), text.size(), key);
    }
};

template <>
struct KeyText<bool> {
    static constexpr bool supported = true;
    static std::string to_text(bool key) { return key ? "1" : "0"; }
    static bool from_text(std::string_view text, bool& key) {
        if (text == "1" || text == "true")
            key = true;
        else if (text == "0" || text == "false")
            key = false;
        else
            return false;
        return true;
    }
};

template <>
struct KeyText<char> {
    static constexpr bool supported = true;
    static std::string to_text(char key) { return std::to_string(static_cast<uint8_t>(key)); }
    static bool from_text(std::string_view text, char& key) {
        // 0..255, and the original's signed form -128..-1.
        int v = 0;
        if (!detail::integer_from_text(text, v) || v < -128 || v > 255)
            return false;
        key = static_cast<char>(static_cast<uint8_t>(v));
        return true;
    }
};

template <typename T>
struct KeyText<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>>> {
    static constexpr bool supported = true;
    static std::string to_text(T key) {
        if constexpr (std::is_same_v<T, wchar_t>)
            return std::to_string(static_cast<uint32_t>(key));
        else
            return std::to_string(key);
    }
    static bool from_text(std::string_view text, T& key) {
        if constexpr (std::is_same_v<T, wchar_t>) {
            uint32_t v = 0;
            if (!detail::integer_from_text(text, v))
                return false;
            key = static_cast<wchar_t>(v);
            return true;
        } else {
            return detail::integer_from_text(text, key);
        }
    }
};

template <typename T>
struct KeyText<T, std::enable_if_t<std::is_enum_v<T>>> {
    static constexpr bool supported = true;
    using U = std::underlying_type_t<T>;
    static std::string to_text(T key) { return KeyText<U>::to_text(static_cast<U>(key)); }
    static bool from_text(std::string_view text, T& key) {
        U v{};
        if (!KeyText<U>::from_text(text, v))
            return false;
        key = static_cast<T>(v);
        return true;
    }
};

template <typename T>
struct KeyText<T, std::enable_if_t<std::is_floating_point_v<T>>> {
    static constexpr bool supported = true;
    static std::string to_text(T key) { return detail::real_key_text(key); }
    static bool from_text(std::string_view text, T& key) { return detail::real_from_text(text, key); }
};

template <>
struct KeyText<decimal_t> {
    static constexpr bool supported = true;
    static std::string to_text(const decimal_t& key) { return detail::decimal_text(key); }
    static bool from_text(std::string_view text, decimal_t& key) { return decimal_t::parse(text, key).empty(); }
};

template <>
struct KeyText<buffer_t> {
    static constexpr bool supported = true;
    static std::string to_text(const buffer_t& key) { return detail::base64_encode(key.data(), key.size()); }
    static bool from_text(std::string_view text, buffer_t& key) { return detail::base64_decode(text, key); }
};

template <>
struct KeyText<uuid_t> {
    static constexpr bool supported = true;
    static std::string to_text(const uuid_t& key) { return key.string(); }
    static bool from_text(std::string_view text, uuid_t& key) {
        try {
            key = uuid_t(text);
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }
};

namespace detail {
template <class TWriter, typename M>
bool write_map(TWriter& writer, const M& values) {
    using K = typename M::key_type;
    if constexpr (KeyText<K>::supported) {
        if (!writer.StartObject())
            return false;
        for (const auto& [key, value] : values) {
            const std::string text = KeyText<K>::to_text(key);
            if (!detail::write_string(writer, text.data(), text.size(), true) || !FBE::JSON::to_json(writer, value))
                return false;
        }
        return writer.EndObject();
    } else {
        if (!writer.StartArray())
            return false;
        for (const auto& [key, value] : values) {
            if (!writer.StartArray() || !FBE::JSON::to_json(writer, key) || !FBE::JSON::to_json(writer, value) ||
                !writer.EndArray(2))
                return false;
        }
        return writer.EndArray();
    }
}
} // namespace detail

template <class TWriter, typename K, typename V>
struct ValueWriter<TWriter, std::map<K, V>> {
    static bool to_json(TWriter& writer, const std::map<K, V>& values, bool = true) {
        return detail::write_map(writer, values);
    }
};
template <class TWriter, typename K, typename V>
struct ValueWriter<TWriter, std::unordered_map<K, V>> {
    static bool to_json(TWriter& writer, const std::unordered_map<K, V>& values, bool = true) {
        return detail::write_map(writer, values);
    }
};

// ------------------------------------------------------------------ reading

//! Reads a value of type T from a RapidJSON value. Returns false on a type
//! mismatch (the value is then zero/empty; the other members are still
//! read) or beyond the decode budget (reading stops). A struct's members
//! missing from the object take their defaults (docs/cpp-json-protocol.md).
template <class TJson, typename T, typename Enable = void>
struct ValueReader;

//! Reads a value from a parsed document without a decode budget (its text's
//! size is unknown here): the depth limit and every other rule apply. Prefer
//! from_string(), or the overload below, for input that may be hostile.
template <class TJson, typename T>
inline bool from_json(const TJson& json, T& value) {
    detail::start_read(Limits(), UINT64_MAX);
    return ValueReader<typename TJson::ValueType, T>::from_json(json, value);
}

//! Reads a value from a document parsed from `text_size` bytes of JSON text,
//! with `limits`: max_depth, and the decode budget budget_factor * text_size
//! + budget_slack that every value read is charged against (docs/limits.md 3).
template <class TJson, typename T>
inline bool from_json(const TJson& json, T& value, const Limits& limits, std::size_t text_size) {
    detail::start_read(limits, text_size);
    return ValueReader<typename TJson::ValueType, T>::from_json(json, value);
}

//! Reads the member `key` of the JSON object `json` into `value`; false
//! when `json` is not an object, the member is missing or mistyped.
template <class TJson, typename T>
inline bool from_json(const TJson& json, T& value, const char* key) {
    if (!json.IsObject())
        return false;
    detail::start_read(Limits(), UINT64_MAX);
    const auto member = json.FindMember(key);
    if (member == json.MemberEnd()) {
        detail::member_failed<T, typename TJson::ValueType>(key, nullptr);
        return false;
    }
    const bool ok = ValueReader<typename TJson::ValueType, T>::from_json(member->value, value);
    if (FBE_LIKELY(ok))
        return true;
    detail::member_failed<T>(key, &member->value);
    return false;
}

//! The ValueReader of a struct (`<package>_json.h` derives it from this, giving `cost` and read_members):
//! from_json checks the depth, the object and its cost (detail::read_struct), then reads the members.
template <class TJson, typename T>
struct StructReader {
    static bool from_json(const TJson& json, T& value) {
        using Reader = ValueReader<TJson, T>;
        return detail::read_struct(json, Fields<T>::name, Reader::cost,
                                   [&] { return Reader::read_members(json, value); });
    }
};

namespace detail {

//! Reads a member's value into a field (generated read_members); records the
//! member in the error path when it fails.
template <class TJson, typename T>
bool read_member(const TJson& json, T& value, const char* key) {
    const bool ok = ValueReader<TJson, T>::from_json(json, value);
    if (FBE_LIKELY(ok))
        return true;
    member_failed<T>(key, &json);
    return false;
}

//! Charges the defaults of the members a struct's object lacks (generated
//! read_members: the default struct values they hold, docs/limits.md 3).
inline bool charge_defaults(uint64_t cost) { return charge(cost, 2 * depth().read); }

} // namespace detail

template <class TJson>
struct ValueReader<TJson, bool> {
    static bool from_json(const TJson& json, bool& value) {
        if (!json.IsBool()) {
            value = false;
            return false;
        }
        value = json.GetBool();
        return true;
    }
};

template <class TJson>
struct ValueReader<TJson, char> {
    static bool from_json(const TJson& json, char& value) {
        // 0..255; also the original's output for bytes >= 0x80 (0xFFFFFF80..0xFFFFFFFF).
        if (detail::is_minus_zero(json)) {
            value = 0;
            return true;
        }
        if (json.IsUint()) {
            const unsigned v = json.GetUint();
            if (v <= 0xFF || v >= 0xFFFFFF80u) {
                value = static_cast<char>(static_cast<uint8_t>(v));
                return true;
            }
        }
        value = 0;
        return false;
    }
};

template <class TJson>
struct ValueReader<TJson, wchar_t> {
    static bool from_json(const TJson& json, wchar_t& value) {
        if (detail::is_minus_zero(json)) {
            value = 0;
            return true;
        }
        if (!json.IsUint()) {
            value = 0;
            return false;
        }
        value = static_cast<wchar_t>(json.GetUint());
        return true;
    }
};

template <class TJson, typename T>
struct ValueReader<TJson, T,
                   std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
                                    !std::is_same_v<T, wchar_t>>> {
    static bool from_json(const TJson& json, T& value) {
        if (detail::is_minus_zero(json)) {
            value = 0;
            return true;
        }
        if constexpr (std::is_signed_v<T>) {
            if (json.IsInt64()) {
                const int64_t v = json.GetInt64();
                if (v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                    v <= static_cast<int64_t>(std::numeric_limits<T>::max())) {
                    value = static_cast<T>(v);
                    return true;
                }
            }
        } else {
            if (json.IsUint64()) {
                const uint64_t v = json.GetUint64();
                if (v <= static_cast<uint64_t>(std::numeric_limits<T>::max())) {
                    value = static_cast<T>(v);
                    return true;
                }
            }
        }
        value = 0;
        return false;
    }
};

template <class TJson, typename T>
struct ValueReader<TJson, T, std::enable_if_t<std::is_enum_v<T>>> {
    static bool from_json(const TJson& json, T& value) {
        using U = std::underlying_type_t<T>;
        U v{};
        const bool result = ValueReader<TJson, U>::from_json(json, v);
        value = static_cast<T>(v);
        return result;
    }
};

template <class TJson, typename T>
struct ValueReader<TJson, T, std::enable_if_t<std::is_floating_point_v<T>>> {
    static bool from_json(const TJson& json, T& value) {
        if (json.IsNumber()) {
            const double d = detail::is_minus_zero(json) ? -0.0 : json.GetDouble();
            if constexpr (std::is_same_v<T, float>) {
                if (std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()) && !std::isinf(d)) {
                    value = 0;
                    return false;
                }
            }
            value = static_cast<T>(d);
            return true;
        }
        if (json.IsString()) {
            const std::string_view text(json.GetString(), json.GetStringLength());
            if (text == "NaN" || text == "Infinity" || text == "-Infinity")
                return detail::real_from_text(text, value);
        }
        value = 0;
        return false;
    }
};

template <class TJson>
struct ValueReader<TJson, decimal_t> {
    static bool from_json(const TJson& json, decimal_t& value) {
        if (json.IsString()) {
            if (decimal_t::parse(std::string_view(json.GetString(), json.GetStringLength()), value).empty())
                return true;
        } else if (json.IsNumber()) {
            value = decimal_t(detail::is_minus_zero(json) ? 0.0 : json.GetDouble());
            return true;
        }
        value = decimal_t();
        return false;
    }
};

template <class TJson>
struct ValueReader<TJson, uuid_t> {
    static bool from_json(const TJson& json, uuid_t& value) {
        if (json.IsString()) {
            try {
                value = uuid_t(std::string_view(json.GetString(), json.GetStringLength()));
                return true;
            } catch (const std::exception&) {
            }
        }
        value = uuid_t();
        return false;
    }
};

template <class TJson>
struct ValueReader<TJson, std::string> {
    static bool from_json(const TJson& json, std::string& value) {
        if (!json.IsString()) {
            value.clear();
            return false;
        }
        std::string problem;
        if (FBE_LIKELY(detail::string_from_json(json.GetString(), json.GetStringLength(), value, &problem)))
            return detail::charge(value.size(), 2 * detail::depth().read + 2);
        return detail::fail(2 * detail::depth().read + 2, std::move(problem));
    }
};

template <class TJson>
struct ValueReader<TJson, buffer_t> {
    static bool from_json(const TJson& json, buffer_t& value) {
        if (!json.IsString()) {
            value.clear();
            return false;
        }
        return detail::base64_decode(std::string_view(json.GetString(), json.GetStringLength()), value) &&
               detail::charge(value.size(), 2 * detail::depth().read + 2);
    }
};

template <class TJson, typename T>
struct ValueReader<TJson, std::optional<T>> {
    static bool from_json(const TJson& json, std::optional<T>& value) {
        if (json.IsNull()) {
            value.reset();
            return true;
        }
        return ValueReader<TJson, T>::from_json(json, value.emplace());
    }
};

template <class TJson, typename T, std::size_t N>
struct ValueReader<TJson, std::array<T, N>> {
    static bool from_json(const TJson& json, std::array<T, N>& values) {
        if (!json.IsArray())
            return false;
        bool result = json.Size() == N;
        if (!result)
            detail::fail(2 * detail::depth().read + 2,
                         "expected " + std::to_string(N) + " elements, got " + std::to_string(json.Size()));
        std::size_t i = 0;
        for (auto it = json.Begin(); it != json.End() && i < N; ++it, ++i)
            if (!ValueReader<TJson, T>::from_json(*it, values[i])) {
                detail::element_failed<T>(std::to_string(i), *it);
                if (detail::exhausted())
                    return false;
                result = false;
            }
        return result;
    }
};

namespace detail {

//! What a struct value of type T costs when read (the generated reader's
//! `cost`), 0 for any other type.
template <class TJson, typename T, typename = void>
struct StructCost : std::integral_constant<uint64_t, 0> {};
template <class TJson, typename T>
struct StructCost<TJson, T, std::void_t<decltype(ValueReader<TJson, T>::cost)>>
    : std::integral_constant<uint64_t, ValueReader<TJson, T>::cost> {};

//! What the default of a struct T costs when it is large (generated as
//! ValueReader::default_cost for a default above 4 KiB, the IR's
//! large_default), else 0.
template <class TJson, typename T, typename = void>
struct DefaultCost : std::integral_constant<uint64_t, 0> {};
template <class TJson, typename T>
struct DefaultCost<TJson, T, std::void_t<decltype(ValueReader<TJson, T>::default_cost)>>
    : std::integral_constant<uint64_t, ValueReader<TJson, T>::default_cost> {};

//! Whether the budget left pays for the default of a value of T before
//! one is made (docs/limits.md 3: every read of it costs at least that);
//! false with "decode budget exceeded" at `level` when it does not.
template <class TJson, typename T>
FBE_INLINE bool paid_first(unsigned level) {
    constexpr uint64_t cost = DefaultCost<TJson, T>::value;
    if constexpr (cost != 0)
        if (FBE_UNLIKELY(depth().left < cost))
            return budget_exceeded(level);
    return true;
}

//! How many of `count` elements of type T the remaining budget can pay for:
//! a vector reserves no more than that (a count the input has not proved
//! within the budget never sizes an allocation).
template <class TJson, typename T>
std::size_t affordable(std::size_t count) noexcept {
    constexpr uint64_t least = element_cost<T>() + StructCost<TJson, T>::value; // >= 1
    return static_cast<std::size_t>(std::min<uint64_t>(count, depth().left / least));
}

template <class TJson, typename C, typename T, typename Insert>
bool read_sequence(const TJson& json, C& values, Insert insert) {
    values.clear();
    if (!json.IsArray())
        return false;
    if constexpr (std::is_same_v<C, std::vector<T>>)
        values.reserve(affordable<TJson, T>(json.Size()));
    if (!charge_elements(json.Size(), element_cost<T>(), 2 * depth().read + 2))
        return false;
    bool result = true;
    std::size_t i = 0;
    for (auto it = json.Begin(); it != json.End(); ++it, ++i) {
        if (!paid_first<TJson, T>(2 * depth().read + 2))
            return false;
        FBE::detail::Scratch<T> item;
        if (!ValueReader<TJson, T>::from_json(*it, *item)) {
            detail::element_failed<T>(std::to_string(i), *it);
            if (exhausted())
                return false;
            result = false;
        }
        if (!insert(values, std::move(*item))) {
            // a set's element twice ([1, 1], or two structs of equal keys): refused, as in binary
            // (docs/limits.md 4) and as two map keys that read the same
            const unsigned level = 2 * depth().read + 1;
            fail(level + 1, "two set elements read as the same element");
            prepend(level, "[" + std::to_string(i) + "]");
            result = false;
        }
    }
    return result;
}
} // namespace detail

template <class TJson, typename T>
struct ValueReader<TJson, std::vector<T>> {
    static bool from_json(const TJson& json, std::vector<T>& values) {
        return detail::read_sequence<TJson, std::vector<T>, T>(json, values, [](auto& c, T&& v) {
            c.emplace_back(std::move(v));
            return true;
        });
    }
};
template <class TJson, typename T>
struct ValueReader<TJson, std::list<T>> {
    static bool from_json(const TJson& json, std::list<T>& values) {
        return detail::read_sequence<TJson, std::list<T>, T>(json, values, [](auto& c, T&& v) {
            c.emplace_back(std::move(v));
            return true;
        });
    }
};
template <class TJson, typename T>
struct ValueReader<TJson, std::set<T>> {
    static bool from_json(const TJson& json, std::set<T>& values) {
        return detail::read_sequence<TJson, std::set<T>, T>(
            json, values, [](auto& c, T&& v) { return c.emplace(std::move(v)).second; });
    }
};

namespace detail {
template <class TJson, typename M>
bool read_map(const TJson& json, M& values) {
    using K = typename M::key_type;
    using V = typename M::mapped_type;
    values.clear();
    bool result = true;
    constexpr uint64_t entry_cost = element_cost<K>() + element_cost<V>();
    if constexpr (KeyText<K>::supported) {
        if (!json.IsObject())
            return false;
        const unsigned level = 2 * depth().read + 1;
        if (!charge_elements(json.MemberCount(), entry_cost, level + 1))
            return false;
        for (auto it = json.MemberBegin(); it != json.MemberEnd(); ++it) {
            if (!paid_first<TJson, V>(level + 1))
                return false;
            K key{};
            FBE::detail::Scratch<V> value;
            const std::string_view name(it->name.GetString(), it->name.GetStringLength());
            if (!KeyText<K>::from_text(name, key)) {
                if constexpr (std::is_same_v<K, decimal_t>)
                    fail(level + 1, decimal_t::parse(name, key));
                else
                    fail(level + 1, std::string("invalid ") + TypeName<K>::name() + " key");
                prepend(level, "[" + short_text(name) + "]");
                result = false;
            } else if constexpr (std::is_same_v<K, std::string> || std::is_same_v<K, buffer_t>) {
                // a string or bytes key is charged its length, as a value
                if (!charge(key.size(), level + 1)) {
                    prepend(level, "[" + short_text(name) + "]");
                    return false;
                }
            }
            if (!ValueReader<TJson, V>::from_json(it->value, *value)) {
                element_failed<V>(short_text(name), it->value);
                if (exhausted())
                    return false;
                result = false;
            }
            if (!values.emplace(std::move(key), std::move(*value)).second) {
                // "1" and "01", or one name twice: neither the first nor the last may win
                fail(level + 1, "two map keys read as the same key");
                prepend(level, "[" + short_text(name) + "]");
                result = false;
            }
        }
    } else {
        if (!json.IsArray())
            return false;
        const unsigned level = 2 * depth().read + 1;
        if (!charge_elements(json.Size(), entry_cost, level + 1))
            return false;
        std::size_t i = 0;
        for (auto it = json.Begin(); it != json.End(); ++it, ++i) {
            if (!it->IsArray() || it->Size() != 2) {
                fail(level + 1, "expected a [key, value] pair");
                prepend(level, "[" + std::to_string(i) + "]");
                result = false;
                continue;
            }
            if (!paid_first<TJson, K>(level + 1) || !paid_first<TJson, V>(level + 1))
                return false;
            FBE::detail::Scratch<K> key;
            FBE::detail::Scratch<V> value;
            if (!ValueReader<TJson, K>::from_json((*it)[0], *key)) {
                element_failed<K>(std::to_string(i), (*it)[0]);
                if (exhausted())
                    return false;
                result = false;
            }
            if (!ValueReader<TJson, V>::from_json((*it)[1], *value)) {
                element_failed<V>(std::to_string(i), (*it)[1]);
                if (exhausted())
                    return false;
                result = false;
            }
            if (!values.emplace(std::move(*key), std::move(*value)).second) {
                fail(level + 1, "two map keys read as the same key");
                prepend(level, "[" + std::to_string(i) + "]");
                result = false;
            }
        }
    }
    return result;
}
} // namespace detail

template <class TJson, typename K, typename V>
struct ValueReader<TJson, std::map<K, V>> {
    static bool from_json(const TJson& json, std::map<K, V>& values) { return detail::read_map(json, values); }
};
template <class TJson, typename K, typename V>
struct ValueReader<TJson, std::unordered_map<K, V>> {
    static bool from_json(const TJson& json, std::unordered_map<K, V>& values) { return detail::read_map(json, values); }
};

// ------------------------------------------------------------------ shortcuts

//! The compact JSON text of a value (empty when the writer fails:
//! last_error() tells why).
template <typename T>
std::string to_string(const T& value) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    if (!FBE::JSON::to_json(writer, value))
        return std::string();
    return std::string(buffer.GetString(), buffer.GetSize());
}

namespace detail {

//! Whether a JSON number's text (whose syntax RapidJSON checked) is beyond
//! the range of double rather than below it: the number is 0.d * 10^(p + e)
//! with d its significant digits and e its exponent, and p + e is positive.
//! Asked only of a text std::from_chars finds out of range, whose magnitude
//! is at least 1e308 or below 5e-324.
inline bool number_overflows(const char* p, const char* end) noexcept {
    if (*p == '-')
        ++p;
    long long position = 0;
    bool fraction = false, significant = false;
    for (; p != end && *p != 'e' && *p != 'E'; ++p) {
        if (*p == '.')
            fraction = true;
        else if (significant)
            position += fraction ? 0 : 1;
        else if (*p != '0') {
            significant = true;
            position += fraction ? 0 : 1;
        } else if (fraction)
            --position;
    }
    long long exponent = 0;
    if (p != end) {
        const bool minus = *++p == '-';
        if (*p == '-' || *p == '+')
            ++p;
        for (; p != end && exponent < 1000000; ++p)
            exponent = exponent * 10 + (*p - '0');
        if (minus)
            exponent = -exponent;
    }
    return position + exponent > 0;
}

//! Sends the event of a JSON number to `handler`, from its text: RapidJSON
//! hands numbers over as text (kParseNumbersAsStringsFlag), because its own
//! full-precision conversion reads out of bounds in 1.1.0 (the version
//! Debian ships; fixed after it) on numbers of some hundred digits, and the
//! conversion without that flag is not exact. The events are those of
//! RapidJSON's own parser: an integer without fraction or exponent that fits
//! int64_t (with a minus sign) or uint64_t as that integer, any other number
//! as the nearest double (std::from_chars: correctly rounded whatever the
//! number of digits), beyond the range of double as the infinity or zero of
//! its sign; the integer -0 as minus_zero_integer().
template <class Handler>
bool number(Handler& handler, const char* text, std::size_t length) {
    if (length == 2 && text[0] == '-' && text[1] == '0')
        return handler.Double(minus_zero_integer()); // 0 to integers, -0.0 to floats
    const char* end = text + length;
    if (std::find_if(text, end, [](char c) { return c == '.' || c == 'e' || c == 'E'; }) == end) {
        if (*text == '-') {
            int64_t v = 0;
            if (std::from_chars(text, end, v).ec == std::errc())
                return handler.Int64(v);
        } else {
            uint64_t v = 0;
            if (std::from_chars(text, end, v).ec == std::errc())
                return handler.Uint64(v);
        }
    }
    double v = 0;
    if (std::from_chars(text, end, v).ec == std::errc::result_out_of_range) {
        v = number_overflows(text, end) ? std::numeric_limits<double>::infinity() : 0.0;
        if (*text == '-')
            v = -v;
    }
    return handler.Double(v);
}

//! Forwards the SAX events of a parse to a handler (the Document), refusing
//! nesting deeper than 3 * Limits::max_depth (kMaxJsonDepth by default)
//! before it is built.
template <class Handler>
class DepthLimit {
public:
    using Ch = char;
    DepthLimit(Handler& handler, unsigned max_nesting) : _handler(handler), _max_nesting(max_nesting) {}
    bool Null() { return _handler.Null(); }
    bool Bool(bool b) { return _handler.Bool(b); }
    bool Int(int i) { return _handler.Int(i); }
    bool Uint(unsigned i) { return _handler.Uint(i); }
    bool Int64(int64_t i) { return _handler.Int64(i); }
    bool Uint64(uint64_t i) { return _handler.Uint64(i); }
    bool Double(double d) { return _handler.Double(d); }
    bool RawNumber(const Ch* str, rapidjson::SizeType length, bool /*copy*/) { return number(_handler, str, length); }
    bool String(const Ch* str, rapidjson::SizeType length, bool copy) { return _handler.String(str, length, copy); }
    bool Key(const Ch* str, rapidjson::SizeType length, bool copy) { return _handler.Key(str, length, copy); }
    bool StartObject() { return enter() && _handler.StartObject(); }
    bool EndObject(rapidjson::SizeType count) { --_depth; return _handler.EndObject(count); }
    bool StartArray() { return enter() && _handler.StartArray(); }
    bool EndArray(rapidjson::SizeType count) { --_depth; return _handler.EndArray(count); }
    bool too_deep() const noexcept { return _too_deep; }

private:
    bool enter() {
        if (++_depth <= _max_nesting)
            return true;
        _too_deep = true;
        return false;
    }
    Handler& _handler;
    unsigned _max_nesting;
    unsigned _depth = 0;
    bool _too_deep = false;
};

//! Runs the iterative parser for Document::Populate.
struct Parse {
    const char* text;
    std::size_t size;
    unsigned max_nesting;
    rapidjson::ParseResult result;
    bool too_deep = false;

    template <class Handler>
    bool operator()(Handler& handler) {
        constexpr unsigned flags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag |
                                   rapidjson::kParseValidateEncodingFlag;
        rapidjson::MemoryStream stream(text, size);
        rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> input(stream);
        DepthLimit<Handler> limit(handler, max_nesting);
        rapidjson::Reader reader;
        result = reader.Parse<flags>(input, limit);
        too_deep = limit.too_deep();
        return !result.IsError();
    }
};

//! The document-wide rules after a parse: no duplicate member name in any
//! object, no lone surrogate escape but \udc80..\udcff. Iterative.
template <class TValue>
bool check_document(const TValue& root) {
    std::vector<const TValue*> stack{&root};
    std::string scratch, problem;
    auto check_string = [&](const TValue& v) {
        if (std::memchr(v.GetString(), 0xED, v.GetStringLength()) == nullptr)
            return true;
        if (string_from_json(v.GetString(), v.GetStringLength(), scratch, &problem))
            return true;
        return fail(1, problem);
    };
    while (!stack.empty()) {
        const TValue& v = *stack.back();
        stack.pop_back();
        if (v.IsString()) {
            if (!check_string(v))
                return false;
        } else if (v.IsArray()) {
            for (auto it = v.Begin(); it != v.End(); ++it)
                if (it->IsString() || it->IsArray() || it->IsObject())
                    stack.push_back(&*it);
        } else if (v.IsObject()) {
            if (v.MemberCount() > 1) {
                std::vector<std::string_view> names;
                names.reserve(v.MemberCount());
                for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it)
                    names.emplace_back(it->name.GetString(), it->name.GetStringLength());
                std::sort(names.begin(), names.end());
                const auto dup = std::adjacent_find(names.begin(), names.end());
                if (dup != names.end())
                    return fail(1, "duplicate member name \"" + std::string(*dup) + "\" in a JSON object");
            }
            for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
                if (!check_string(it->name))
                    return false;
                if (it->value.IsString() || it->value.IsArray() || it->value.IsObject())
                    stack.push_back(&it->value);
            }
        }
    }
    return true;
}

} // namespace detail

//! The reason the last from_json / from_string / parse / to_json of this
//! thread failed: "<type>.<member path>: <problem>" (empty when none).
inline std::string last_error() {
    const detail::State& s = detail::state();
    if (s.error_level == 0)
        return std::string();
    return s.error_path.empty() ? s.error_message : s.error_path + ": " + s.error_message;
}

//! Parses JSON text into `document` by the rules every reader shares
//! (docs/limits.md): iteratively, nesting at most 3 * limits.max_depth, valid
//! UTF-8 only (overlong forms and encoded surrogates refused), numbers
//! converted exactly (detail::number), no duplicate member name in any object, no lone
//! surrogate escape but \udc80..\udcff. False with last_error() otherwise.
inline bool parse(rapidjson::Document& document, std::string_view text, const Limits& limits = Limits()) {
    detail::clear_error();
    if (text.substr(0, 3) == "\xEF\xBB\xBF") // RapidJSON's UTF-8 stream would skip it (docs/limits.md 7)
        return detail::fail(1, "invalid JSON: a byte order mark is not JSON");
    const unsigned max_nesting = 3 * limits.max_depth;
    detail::Parse run{text.data(), text.size(), max_nesting, rapidjson::ParseResult(), false};
    document.SetNull();
    document.Populate(run);
    if (run.too_deep)
        return detail::fail(1, "invalid JSON: arrays and objects nested deeper than " + std::to_string(max_nesting));
    if (run.result.IsError())
        return detail::fail(1, "invalid JSON at offset " + std::to_string(run.result.Offset()) + ": " +
                                   rapidjson::GetParseError_En(run.result.Code()));
    return detail::check_document(static_cast<const rapidjson::Value&>(document));
}

//! Parses JSON text (parse() above) into a value with `limits` (max_depth,
//! and the decode budget of the text's size); false on a parse error, a
//! mistyped member or beyond a limit (last_error() tells which and why).
template <typename T>
bool from_string(std::string_view text, T& value, const Limits& limits = Limits()) {
    rapidjson::Document json;
    if (!FBE::JSON::parse(json, text, limits))
        return false;
    return FBE::JSON::from_json(json, value, limits, text.size());
}

} // namespace JSON
} // namespace FBE
