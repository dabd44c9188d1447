// Fast Binary Encoding C++ runtime: what every generated struct does over its
// members. The generated ==, <, std::hash and swap name the members (pointers to
// data members: `&Order::id`) and call these; the text form is FBE::print_struct
// (text.h).

#pragma once

#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

namespace FBE {

//! Whether every member is equal in `a` and `b` (true without members).
template <typename T, typename... M>
bool equal_members(const T& a, const T& b, M... members) noexcept {
    return (... && (a.*members == b.*members));
}

//! Whether `a` comes before `b`, member by member in order (false without members).
template <typename T>
bool less_members(const T& /*a*/, const T& /*b*/) noexcept {
    return false;
}
template <typename T, typename M, typename... Rest>
bool less_members(const T& a, const T& b, M first, Rest... rest) noexcept {
    if (a.*first < b.*first)
        return true;
    if (b.*first < a.*first)
        return false;
    return less_members(a, b, rest...);
}

//! The hash of the members: 17, then result * 31 + std::hash of each, in order.
template <typename T, typename... M>
std::size_t hash_members(const T& value, M... members) noexcept {
    std::size_t result = 17;
    ((result = result * 31 + std::hash<std::decay_t<decltype(value.*members)>>()(value.*members)), ...);
    return result;
}

//! Swaps each member of `a` with the same member of `b` (std::swap, or the member type's own swap).
template <typename T, typename... M>
void swap_members(T& a, T& b, M... members) noexcept {
    using std::swap;
    (swap(a.*members, b.*members), ...);
}

} // namespace FBE
