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
//     FBE::JSON::from_json(json, account);            // false when a member is missing or mistyped
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
// Works with Debian's rapidjson-dev 1.1.0 (+dfsg2) and with RapidJSON master.

#pragma once

#include "fbe/buffer.h"
#include "fbe/decimal.h"
#include "fbe/dtoa.h"
#include "fbe/uuid.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <array>
#include <cerrno>
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

//! Base64 decoding that stops at the first character outside the alphabet
//! (so `=` padding and a missing padding are both accepted), as the original.
inline buffer_t base64_decode(std::string_view text) {
    buffer_t result;
    result.reserve(text.size() / 4 * 3 + 2);
    uint32_t bits = 0;
    int count = 0;
    for (char c : text) {
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
            break;
        bits = (bits << 6) | static_cast<uint32_t>(v);
        if (++count == 4) {
            result.push_back(static_cast<uint8_t>(bits >> 16));
            result.push_back(static_cast<uint8_t>(bits >> 8));
            result.push_back(static_cast<uint8_t>(bits));
            bits = 0;
            count = 0;
        }
    }
    if (count == 2) {
        result.push_back(static_cast<uint8_t>(bits >> 4));
    } else if (count == 3) {
        result.push_back(static_cast<uint8_t>(bits >> 10));
        result.push_back(static_cast<uint8_t>(bits >> 2));
    }
    return result;
}

//! The decimal text of the JSON mapping: exact, at least 6 fraction digits.
inline std::string decimal_text(const decimal_t& value) {
    std::string text = value.to_string();
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
        return writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
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
        key.assign(text.data(), text.size());
        return true;
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
    static bool from_text(std::string_view text, decimal_t& key) {
        try {
            key = decimal_t(text);
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }
};

template <>
struct KeyText<buffer_t> {
    static constexpr bool supported = true;
    static std::string to_text(const buffer_t& key) { return detail::base64_encode(key.data(), key.size()); }
    static bool from_text(std::string_view text, buffer_t& key) {
        key = detail::base64_decode(text);
        return true;
    }
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
            if (!writer.Key(text.data(), static_cast<rapidjson::SizeType>(text.size())) ||
                !FBE::JSON::to_json(writer, value))
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
//! mismatch (the value is then zero/empty) or, for structs, when a member
//! is missing (the other members are still read).
template <class TJson, typename T, typename Enable = void>
struct ValueReader;

template <class TJson, typename T>
inline bool from_json(const TJson& json, T& value) {
    return ValueReader<typename TJson::ValueType, T>::from_json(json, value);
}

//! Reads the member `key` of the JSON object `json` into `value`; false
//! when `json` is not an object, the member is missing or mistyped.
template <class TJson, typename T>
inline bool from_json(const TJson& json, T& value, const char* key) {
    if (!json.IsObject())
        return false;
    const auto member = json.FindMember(key);
    if (member == json.MemberEnd())
        return false;
    return ValueReader<typename TJson::ValueType, T>::from_json(member->value, value);
}

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
            const double d = json.GetDouble();
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
            try {
                value = decimal_t(std::string_view(json.GetString(), json.GetStringLength()));
                return true;
            } catch (const std::exception&) {
            }
        } else if (json.IsNumber()) {
            value = decimal_t(json.GetDouble());
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
        value.assign(json.GetString(), json.GetStringLength());
        return true;
    }
};

template <class TJson>
struct ValueReader<TJson, buffer_t> {
    static bool from_json(const TJson& json, buffer_t& value) {
        if (!json.IsString()) {
            value.clear();
            return false;
        }
        value = detail::base64_decode(std::string_view(json.GetString(), json.GetStringLength()));
        return true;
    }
};

template <class TJson, typename T>
struct ValueReader<TJson, std::optional<T>> {
    static bool from_json(const TJson& json, std::optional<T>& value) {
        if (json.IsNull()) {
            value.reset();
            return true;
        }
        T item{};
        const bool result = ValueReader<TJson, T>::from_json(json, item);
        value.emplace(std::move(item));
        return result;
    }
};

template <class TJson, typename T, std::size_t N>
struct ValueReader<TJson, std::array<T, N>> {
    static bool from_json(const TJson& json, std::array<T, N>& values) {
        if (!json.IsArray())
            return false;
        bool result = json.Size() == N;
        std::size_t i = 0;
        for (auto it = json.Begin(); it != json.End() && i < N; ++it, ++i)
            result &= ValueReader<TJson, T>::from_json(*it, values[i]);
        return result;
    }
};

namespace detail {
template <class TJson, typename C, typename T, typename Insert>
bool read_sequence(const TJson& json, C& values, Insert insert) {
    values.clear();
    if (!json.IsArray())
        return false;
    bool result = true;
    for (auto it = json.Begin(); it != json.End(); ++it) {
        T item{};
        result &= ValueReader<TJson, T>::from_json(*it, item);
        insert(values, std::move(item));
    }
    return result;
}
} // namespace detail

template <class TJson, typename T>
struct ValueReader<TJson, std::vector<T>> {
    static bool from_json(const TJson& json, std::vector<T>& values) {
        if (json.IsArray())
            values.reserve(json.Size());
        return detail::read_sequence<TJson, std::vector<T>, T>(json, values,
                                                               [](auto& c, T&& v) { c.emplace_back(std::move(v)); });
    }
};
template <class TJson, typename T>
struct ValueReader<TJson, std::list<T>> {
    static bool from_json(const TJson& json, std::list<T>& values) {
        return detail::read_sequence<TJson, std::list<T>, T>(json, values,
                                                             [](auto& c, T&& v) { c.emplace_back(std::move(v)); });
    }
};
template <class TJson, typename T>
struct ValueReader<TJson, std::set<T>> {
    static bool from_json(const TJson& json, std::set<T>& values) {
        return detail::read_sequence<TJson, std::set<T>, T>(json, values,
                                                            [](auto& c, T&& v) { c.emplace(std::move(v)); });
    }
};

namespace detail {
template <class TJson, typename M>
bool read_map(const TJson& json, M& values) {
    using K = typename M::key_type;
    using V = typename M::mapped_type;
    values.clear();
    bool result = true;
    if constexpr (KeyText<K>::supported) {
        if (!json.IsObject())
            return false;
        for (auto it = json.MemberBegin(); it != json.MemberEnd(); ++it) {
            K key{};
            V value{};
            result &= KeyText<K>::from_text(std::string_view(it->name.GetString(), it->name.GetStringLength()), key);
            result &= ValueReader<TJson, V>::from_json(it->value, value);
            values.emplace(std::move(key), std::move(value));
        }
    } else {
        if (!json.IsArray())
            return false;
        for (auto it = json.Begin(); it != json.End(); ++it) {
            if (!it->IsArray() || it->Size() != 2) {
                result = false;
                continue;
            }
            K key{};
            V value{};
            result &= ValueReader<TJson, K>::from_json((*it)[0], key);
            result &= ValueReader<TJson, V>::from_json((*it)[1], value);
            values.emplace(std::move(key), std::move(value));
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

//! The compact JSON text of a value (empty when the writer fails).
template <typename T>
std::string to_string(const T& value) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    if (!FBE::JSON::to_json(writer, value))
        return std::string();
    return std::string(buffer.GetString(), buffer.GetSize());
}

//! Parses JSON text (full precision) into a value; false on a parse error
//! or when from_json reports a missing or mistyped member.
template <typename T>
bool from_string(std::string_view text, T& value) {
    rapidjson::Document json;
    json.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
    if (json.HasParseError())
        return false;
    return FBE::JSON::from_json(json, value);
}

} // namespace JSON
} // namespace FBE
