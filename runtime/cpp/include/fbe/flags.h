// Fast Binary Encoding C++ runtime: the result of a flags operator.
//
// FBE_ENUM_FLAGS (text.h) gives a flags enum `| & ^ ~`; they return
// Flags<E>, as the original's do, so a test of bits reads as a bool and the
// result still assigns to the enum:
//
//     if (account.state & proto::State::good) ...      // explicit operator bool
//     account.state = proto::State::good | proto::State::ready;   // operator E
//     REQUIRE((state | proto::State::good));

#pragma once

#include <type_traits>

namespace FBE {

template <typename E>
class Flags {
    static_assert(std::is_enum_v<E>, "Flags<E> holds the bits of an enum");

public:
    using underlying_type = std::underlying_type_t<E>;

    constexpr Flags() noexcept = default;
    constexpr Flags(E value) noexcept : _value(value) {} // NOLINT: implicit, as the original's
    //! From the bits of an operator (integer promotion makes them an int).
    template <typename U, std::enable_if_t<std::is_integral_v<U>, int> = 0>
    constexpr Flags(U bits) noexcept : _value(static_cast<E>(static_cast<underlying_type>(bits))) {} // NOLINT

    //! Any bit set.
    constexpr explicit operator bool() const noexcept { return bits() != 0; }
    constexpr bool operator!() const noexcept { return bits() == 0; }
    constexpr operator E() const noexcept { return _value; } // NOLINT: assigns back to the enum

    constexpr E value() const noexcept { return _value; }
    constexpr underlying_type bits() const noexcept { return static_cast<underlying_type>(_value); }
    constexpr underlying_type underlying() const noexcept { return bits(); }

private:
    E _value{};
};

} // namespace FBE
