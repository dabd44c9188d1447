// Fast Binary Encoding C++ runtime: the text format of operator<<
// (docs/format.md 9). Generated operator<< of structs print their fields with
// FBE::print(), which picks the layout from the C++ type.

#pragma once

#include "fbe/buffer.h"
#include "fbe/decimal.h"
#include "fbe/flags.h"
#include "fbe/uuid.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <initializer_list>
#include <list>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

//! Bit operators for a flags enum (the original's macro name). `|`, `&`
//! and `^` return FBE::Flags<type> (flags.h), which converts to the enum
//! and tests as a bool: `if (state & State::good)`, `state = a | b`.
#define FBE_ENUM_FLAGS(type)                                                                                  \
    constexpr FBE::Flags<type> operator|(type a, type b) noexcept {                                           \
        return FBE::Flags<type>(a).bits() | FBE::Flags<type>(b).bits();                                       \
    }                                                                                                         \
    constexpr FBE::Flags<type> operator&(type a, type b) noexcept {                                           \
        return FBE::Flags<type>(a).bits() & FBE::Flags<type>(b).bits();                                       \
    }                                                                                                         \
    constexpr FBE::Flags<type> operator^(type a, type b) noexcept {                                           \
        return FBE::Flags<type>(a).bits() ^ FBE::Flags<type>(b).bits();                                       \
    }                                                                                                         \
    constexpr FBE::Flags<type> operator~(type a) noexcept { return ~FBE::Flags<type>(a).bits(); }            \
    constexpr type& operator|=(type& a, type b) noexcept { return a = a | b; }                               \
    constexpr type& operator&=(type& a, type b) noexcept { return a = a & b; }                               \
    constexpr type& operator^=(type& a, type b) noexcept { return a = a ^ b; }

namespace FBE {

//! One named constant of an enum or flags type, for print_enum() and print_flags().
template <typename U>
struct ValueName {
    U value;
    const char* name;
};

//! Prints the name of the constant whose value is `value` (the first such of an enum's aliases, as listed), or
//! `<unknown>` (docs/format.md 9).
template <typename U>
std::ostream& print_enum(std::ostream& os, U value, std::initializer_list<ValueName<U>> names) {
    for (const auto& constant : names)
        if (constant.value == value)
            return os << constant.name;
    return os << "<unknown>";
}

//! Prints the names of all non-zero constants whose bits are all set,
//! joined by '|' (docs/format.md 9: zero constants and undeclared bits vanish).
template <typename U>
std::ostream& print_flags(std::ostream& os, U bits, std::initializer_list<ValueName<U>> names) {
    bool first = true;
    for (const auto& flag : names) {
        if (flag.value != 0 && (bits & flag.value) == flag.value) {
            if (!first)
                os << '|';
            os << flag.name;
            first = false;
        }
    }
    return os;
}

template <typename T, typename Enable = void>
struct Printer {
    // Structs, enums and flags print through their generated operator<<.
    static void print(std::ostream& os, const T& value) { os << value; }
};

template <typename T>
void print(std::ostream& os, const T& value) {
    Printer<T>::print(os, value);
}

namespace detail {
//! C `%g` (precision 6), the default stream formatting the original used;
//! locale-independent where std::to_chars handles floating point.
inline void print_g(std::ostream& os, double value) {
    char text[32];
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    const auto result = std::to_chars(text, text + sizeof(text), value, std::chars_format::general, 6);
    os.write(text, result.ptr - text);
#else
    std::snprintf(text, sizeof(text), "%g", value);
    os << text;
#endif
}
template <typename C>
void print_items(std::ostream& os, const C& items) {
    bool first = true;
    for (const auto& item : items) {
        if (!first)
            os << ',';
        FBE::print(os, item);
        first = false;
    }
}
template <typename M>
void print_pairs(std::ostream& os, const M& pairs) {
    bool first = true;
    for (const auto& [key, value] : pairs) {
        if (!first)
            os << ',';
        FBE::print(os, key);
        os << "->";
        FBE::print(os, value);
        first = false;
    }
}
} // namespace detail

template <> struct Printer<bool> {
    static void print(std::ostream& os, bool value) { os << (value ? "true" : "false"); }
};
template <> struct Printer<char> {
    static void print(std::ostream& os, char value) { os << '\'' << value << '\''; }
};
template <> struct Printer<wchar_t> {
    // The original prints only the low byte (docs/format.md 9).
    static void print(std::ostream& os, wchar_t value) { os << '\'' << static_cast<char>(value & 0xFF) << '\''; }
};
template <> struct Printer<int8_t> {
    static void print(std::ostream& os, int8_t value) { os << static_cast<int>(value); }
};
template <> struct Printer<uint8_t> {
    static void print(std::ostream& os, uint8_t value) { os << static_cast<unsigned>(value); }
};
template <> struct Printer<float> {
    static void print(std::ostream& os, float value) { detail::print_g(os, value); }
};
template <> struct Printer<double> {
    static void print(std::ostream& os, double value) { detail::print_g(os, value); }
};
template <> struct Printer<std::string> {
    static void print(std::ostream& os, const std::string& value) { os << '"' << value << '"'; }
};
template <> struct Printer<uuid_t> {
    static void print(std::ostream& os, const uuid_t& value) { os << '"' << value.string() << '"'; }
};
template <typename T> struct Printer<std::optional<T>> {
    static void print(std::ostream& os, const std::optional<T>& value) {
        if (value)
            FBE::print(os, *value);
        else
            os << "null";
    }
};
template <typename T, std::size_t N> struct Printer<std::array<T, N>> {
    static void print(std::ostream& os, const std::array<T, N>& value) {
        os << '[' << N << "][";
        detail::print_items(os, value);
        os << ']';
    }
};
template <typename T> struct Printer<std::vector<T>> {
    static void print(std::ostream& os, const std::vector<T>& value) {
        os << '[' << value.size() << "][";
        detail::print_items(os, value);
        os << ']';
    }
};
template <typename T> struct Printer<std::list<T>> {
    static void print(std::ostream& os, const std::list<T>& value) {
        os << '[' << value.size() << "]<";
        detail::print_items(os, value);
        os << '>';
    }
};
template <typename T> struct Printer<std::set<T>> {
    static void print(std::ostream& os, const std::set<T>& value) {
        os << '[' << value.size() << "]{";
        detail::print_items(os, value);
        os << '}';
    }
};
template <typename K, typename V> struct Printer<std::map<K, V>> {
    static void print(std::ostream& os, const std::map<K, V>& value) {
        os << '[' << value.size() << "]<{";
        detail::print_pairs(os, value);
        os << "}>";
    }
};
template <typename K, typename V> struct Printer<std::unordered_map<K, V>> {
    static void print(std::ostream& os, const std::unordered_map<K, V>& value) {
        os << '[' << value.size() << "][{";
        detail::print_pairs(os, value);
        os << "}]";
    }
};

//! A field of a struct's text: `name=value`.
template <typename T>
struct TextField {
    const char* name;
    const T& value;
};
template <typename T>
TextField<T> field(const char* name, const T& value) {
    return {name, value};
}

//! A hidden field of a struct's text: `name=***`.
struct TextHidden {
    const char* name;
};
inline TextHidden hidden(const char* name) {
    return {name};
}

namespace detail {
template <typename T>
void print_part(std::ostream& os, const TextField<T>& part) {
    os << part.name << '=';
    FBE::print(os, part.value);
}
inline void print_part(std::ostream& os, const TextHidden& part) { os << part.name << "=***"; }
//! The base struct of a derived one: its own text, `Base(...)`.
template <typename B>
void print_part(std::ostream& os, const B& base) {
    os << base;
}
} // namespace detail

//! The text of a struct (docs/format.md 9): `Name(part,part...)`, each part an FBE::field(), an
//! FBE::hidden() or the base struct (the generated operator<<).
template <typename... Parts>
std::ostream& print_struct(std::ostream& os, const char* name, const Parts&... parts) {
    os << name << '(';
    [[maybe_unused]] const char* separator = ""; // (unused by a struct without fields)
    ((os << separator, detail::print_part(os, parts), separator = ","), ...);
    return os << ')';
}

//! The text of a value, as operator<< prints it (the generated structs' string()).
template <typename T>
std::string to_text(const T& value) {
    std::ostringstream stream;
    stream << value;
    return stream.str();
}

} // namespace FBE
