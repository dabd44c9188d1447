// Fast Binary Encoding C++ runtime: encodings of the fixed-size types
// (docs/format.md 2.2-2.4, 2.6), shared by both binary models.

#pragma once

#include "fbe/common.h"
#include "fbe/decimal.h"
#include "fbe/uuid.h"

#include <type_traits>

namespace FBE {

//! Scalar<T>: wire size, put() and get() of a fixed-size type. Defined for
//! bool, char, wchar_t, the fixed-width integers, float, double, decimal_t,
//! uuid_t and every enum (stored as its underlying integer). `raw`: the wire
//! bytes are the object representation (numbers and enums of their wire
//! size on a little-endian host; not bool, which has two valid values, nor
//! float, whose signalling NaNs read quieted), so a run of values can be
//! copied with memcpy.
template <typename T, typename Enable = void>
struct Scalar {
    static constexpr bool defined = false;
    static constexpr bool raw = false;
};

template <typename T>
constexpr bool is_scalar_v = Scalar<T>::defined;

namespace detail {
template <typename T, typename Wire>
struct ArithmeticScalar {
    static constexpr bool defined = true;
    static constexpr std::size_t size = sizeof(Wire);
    static constexpr bool raw = !kBigEndian && sizeof(T) == sizeof(Wire);
    static void put(uint8_t* p, T value) noexcept { store<Wire>(p, static_cast<Wire>(value)); }
    static T get(const uint8_t* p) noexcept { return static_cast<T>(load<Wire>(p)); }
};
} // namespace detail

template <>
struct Scalar<bool> {
    static constexpr bool defined = true;
    static constexpr std::size_t size = 1;
    static constexpr bool raw = false;
    static void put(uint8_t* p, bool value) noexcept { *p = value ? 1 : 0; }
    static bool get(const uint8_t* p) noexcept { return *p != 0; }
};

// char is one raw byte; wchar_t is a 32-bit code unit on the wire.
template <> struct Scalar<char> : detail::ArithmeticScalar<char, uint8_t> {};
template <> struct Scalar<wchar_t> : detail::ArithmeticScalar<wchar_t, uint32_t> {};
template <> struct Scalar<int8_t> : detail::ArithmeticScalar<int8_t, int8_t> {};
template <> struct Scalar<uint8_t> : detail::ArithmeticScalar<uint8_t, uint8_t> {};
template <> struct Scalar<int16_t> : detail::ArithmeticScalar<int16_t, int16_t> {};
template <> struct Scalar<uint16_t> : detail::ArithmeticScalar<uint16_t, uint16_t> {};
template <> struct Scalar<int32_t> : detail::ArithmeticScalar<int32_t, int32_t> {};
template <> struct Scalar<uint32_t> : detail::ArithmeticScalar<uint32_t, uint32_t> {};
template <> struct Scalar<int64_t> : detail::ArithmeticScalar<int64_t, int64_t> {};
template <> struct Scalar<uint64_t> : detail::ArithmeticScalar<uint64_t, uint64_t> {};
template <> struct Scalar<double> : detail::ArithmeticScalar<double, double> {};

//! float: the wire bits, but a signalling NaN (quiet bit clear) reads quieted, its
//! sign and the rest of its payload kept (docs/format.md 1): the value every
//! language reads, as the widening to a double makes it in those that hold a
//! float as one. So floats are not `raw`: a run of them is read one by one.
template <>
struct Scalar<float> {
    static constexpr bool defined = true;
    static constexpr std::size_t size = 4;
    static constexpr bool raw = false;
    static void put(uint8_t* p, float value) noexcept { store<float>(p, value); }
    static float get(const uint8_t* p) noexcept {
        float value = load<float>(p);
        if (FBE_UNLIKELY(value != value)) { // a NaN: its bits with the quiet bit set
            const uint32_t bits = load<uint32_t>(p) | 0x00400000u;
            std::memcpy(&value, &bits, sizeof(value));
        }
        return value;
    }
};

template <typename E>
struct Scalar<E, std::enable_if_t<std::is_enum_v<E>>> : detail::ArithmeticScalar<E, std::underlying_type_t<E>> {};

//! decimal: u64 low magnitude, u32 high magnitude, u32 flags (docs/format.md 2.4).
//! put() stores the value without trailing fraction zeros (1.50 as 1.5), the
//! one form every writer stores; get() takes flags that valid_flags() accepted
//! (the codecs of both models check them first: get_checked()).
template <>
struct Scalar<decimal_t> {
    static constexpr bool defined = true;
    static constexpr std::size_t size = 16;
    static constexpr bool raw = false;
    static void put(uint8_t* p, const decimal_t& value) noexcept {
        const decimal_t wire = value.normalized();
        store<uint64_t>(p, wire.lo());
        store<uint32_t>(p + 8, wire.hi());
        store<uint32_t>(p + 12, wire.flags());
    }
    static decimal_t get(const uint8_t* p) noexcept {
        return decimal_t::wire(load<uint64_t>(p), load<uint32_t>(p + 8), load<uint32_t>(p + 12));
    }
    //! get() when the flags are a scale 0..28 and a sign; else false.
    static bool get_checked(const uint8_t* p, decimal_t& value) noexcept {
        if (FBE_UNLIKELY(!decimal_t::valid_flags(load<uint32_t>(p + 12))))
            return false;
        value = get(p);
        return true;
    }
    //! Why the flags at `p` are refused, after "decimal at offset N: "
    //! ("scale 29 above 28", "flags 0x00010001: reserved bits set").
    static std::string flags_error(const uint8_t* p) {
        char buffer[48];
        const char* problem = decimal_t::flags_error(load<uint32_t>(p + 12), buffer);
        return problem != nullptr ? problem + 8 : ""; // without its "decimal "
    }
};

//! uuid: the 16 bytes in canonical textual order (docs/format.md 2.3).
template <>
struct Scalar<uuid_t> {
    static constexpr bool defined = true;
    static constexpr std::size_t size = 16;
    static constexpr bool raw = false;
    static void put(uint8_t* p, const uuid_t& value) noexcept { std::memcpy(p, value.data().data(), 16); }
    static uuid_t get(const uint8_t* p) noexcept {
        uuid_t result;
        std::memcpy(result.data().data(), p, 16);
        return result;
    }
};

} // namespace FBE
