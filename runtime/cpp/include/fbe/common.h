// Fast Binary Encoding C++ runtime: little-endian loads and stores, limits.
//
// Every multi-byte number on the wire is little-endian and unaligned
// (docs/format.md 1). Loads and stores go through memcpy, which compilers turn
// into single moves; nothing here casts a byte pointer to a wider type.

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#if defined(__GNUC__) || defined(__clang__)
//! Error paths: kept out of line so the checks on the hot path stay small.
#define FBE_COLD __attribute__((cold, noinline))
#define FBE_LIKELY(x) __builtin_expect(!!(x), 1)
#define FBE_UNLIKELY(x) __builtin_expect(!!(x), 0)
//! Small checks on the hot path, and the readers of small structs.
#define FBE_INLINE __attribute__((always_inline)) inline
//! Rare paths kept out of the hot code (e.g. bodies of an older writer).
#define FBE_NOINLINE __attribute__((noinline))
#else
#define FBE_INLINE inline
#define FBE_COLD
#define FBE_NOINLINE
#define FBE_LIKELY(x) (x)
#define FBE_UNLIKELY(x) (x)
#endif

namespace FBE {

//! Deepest struct nesting a reader accepts (each struct, at any level of
//! collections and optionals, counts one). Deeper input is rejected with an
//! error instead of risking the stack.
constexpr unsigned kMaxDepth = 128;

//! Writers refuse what no reader reads (docs/limits.md 1): serialize() and
//! send() check that a value's structs nest at most kMaxDepth levels. Only
//! structs whose nesting has no bound in the schema (recursive ones and what
//! holds them, the IR's height None) need the check; for them the generated
//! types header specializes Nesting with bounded = false. Every other struct
//! keeps this primary template, and its writers pay nothing.
//!
//! A specialization (also for the bounded structs a check walks into) has
//!   static bool within(const T& value, unsigned depth, std::string& error);
//! true when `value`, a struct at level `depth` (the root is 1), nests at
//! most kMaxDepth levels; otherwise false with `error` naming the innermost
//! type and field that holds a struct one level too deep.
template <typename T>
struct Nesting {
    static constexpr bool bounded = true;
};

namespace detail {
//! A struct held by `type`.`field` is nested deeper than kMaxDepth: the first
//! (innermost) report wins; returns false.
FBE_COLD inline bool nested_too_deep(std::string& error, const char* type, const char* field) {
    if (error.empty())
        error = "cannot write " + std::string(type) + "." + field + ": structs nested deeper than " +
                std::to_string(kMaxDepth);
    return false;
}
} // namespace detail

//! The limits of one reader (docs/limits.md), the same names and defaults
//! as Python's fbe.Limits. Models take them with limits(...); a Receiver
//! passes its own to the models of every frame.
struct Limits {
    //! Deepest struct nesting read (the root struct is level 1).
    unsigned max_depth = kMaxDepth;
    //! A decode may materialize budget_factor bytes per input byte plus
    //! budget_slack bytes, counted as docs/limits.md section 3 says.
    uint64_t budget_factor = 8;
    uint64_t budget_slack = 4096;
    //! The largest protocol frame a Receiver accepts (64 MiB).
    uint64_t max_frame_size = uint64_t(64) << 20;

    //! The decode budget of an input of `input_size` bytes (saturating).
    //! (A multiplication and an addition that check their overflow: no
    //! division on the readers' path.)
    constexpr uint64_t budget(uint64_t input_size) const noexcept {
        uint64_t product = 0, sum = 0;
        if (__builtin_mul_overflow(budget_factor, input_size, &product) ||
            __builtin_add_overflow(product, budget_slack, &sum))
            return UINT64_MAX;
        return sum;
    }
};

//! A vector read from a buffer reserves room for all its elements up front
//! only when that memory is at most this many times the buffer size (the
//! count itself is always bounded by the bytes in the buffer); otherwise it
//! grows as elements are decoded, so memory follows the data actually read.
constexpr std::size_t kReserveFactor = 16;

namespace detail {

constexpr bool kBigEndian =
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    true;
#else
    false;
#endif

template <typename U>
constexpr U byteswap(U value) noexcept {
    U result = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i) {
        result = static_cast<U>((result << 8) | (value & 0xFF));
        value = static_cast<U>(value >> 8);
    }
    return result;
}

//! A value the readers make before it finds its place (a set's element, a
//! map's key or JSON value): on the stack when small, on the heap when T is
//! large, a struct holding big fixed arrays (a frame may hold 64 MiB of
//! them), so no reader puts a value of the schema's size on the stack.
template <typename T, bool = (sizeof(T) > 4096)>
class Scratch {
public:
    T& operator*() noexcept { return _value; }

private:
    T _value{};
};

template <typename T>
class Scratch<T, true> {
public:
    T& operator*() noexcept { return *_value; }

private:
    std::unique_ptr<T> _value = std::make_unique<T>();
};

//! Gives `value` its default (its type's value-initialised value: a
//! struct's schema defaults) without putting a value of that type on the
//! stack when the type is large (as Scratch).
template <typename T>
void assign_default(T& value) {
    if constexpr (sizeof(T) <= 4096)
        value = T{};
    else
        value = std::move(*std::make_unique<T>());
}

template <std::size_t N> struct uint_of_size;
template <> struct uint_of_size<1> { using type = uint8_t; };
template <> struct uint_of_size<2> { using type = uint16_t; };
template <> struct uint_of_size<4> { using type = uint32_t; };
template <> struct uint_of_size<8> { using type = uint64_t; };

} // namespace detail

//! Reads an arithmetic value of type T stored little-endian at `p`.
template <typename T>
inline T load(const uint8_t* p) noexcept {
    static_assert(std::is_arithmetic_v<T>, "load() takes arithmetic types");
    T value;
    if constexpr (detail::kBigEndian && sizeof(T) > 1) {
        using U = typename detail::uint_of_size<sizeof(T)>::type;
        U raw;
        std::memcpy(&raw, p, sizeof(U));
        raw = detail::byteswap(raw);
        std::memcpy(&value, &raw, sizeof(T));
    } else {
        std::memcpy(&value, p, sizeof(T));
    }
    return value;
}

//! Stores an arithmetic value little-endian at `p`.
template <typename T>
inline void store(uint8_t* p, T value) noexcept {
    static_assert(std::is_arithmetic_v<T>, "store() takes arithmetic types");
    if constexpr (detail::kBigEndian && sizeof(T) > 1) {
        using U = typename detail::uint_of_size<sizeof(T)>::type;
        U raw;
        std::memcpy(&raw, &value, sizeof(U));
        raw = detail::byteswap(raw);
        std::memcpy(p, &raw, sizeof(U));
    } else {
        std::memcpy(p, &value, sizeof(T));
    }
}

inline uint32_t load_u32(const uint8_t* p) noexcept { return load<uint32_t>(p); }
inline void store_u32(uint8_t* p, std::size_t value) noexcept { store<uint32_t>(p, static_cast<uint32_t>(value)); }

} // namespace FBE
