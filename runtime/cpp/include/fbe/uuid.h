// Fast Binary Encoding C++ runtime: uuid_t and timestamps.
//
// A uuid is 16 bytes in canonical textual order (docs/format.md 2.3): byte i is
// the i-th pair of hex digits of "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".

#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>

namespace FBE {

//! Current UTC time in nanoseconds since the Unix epoch (schema constant `utc`).
inline uint64_t utc() noexcept {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
}

class uuid_t {
public:
    using bytes_type = std::array<uint8_t, 16>;

    //! The nil uuid (all zeros).
    constexpr uuid_t() noexcept = default;
    constexpr explicit uuid_t(const bytes_type& bytes) noexcept : _data(bytes) {}

    //! Parses text the lenient way of the original (docs/format.md 2.3): '-', '{'
    //! and '}' are skipped anywhere, the rest is read as hex pairs (either
    //! case), reading stops after 16 bytes, a short text leaves the remaining
    //! bytes zero. Throws std::invalid_argument on a non-hex digit.
    explicit uuid_t(std::string_view text) { parse(text); }
    explicit uuid_t(const char* text) { parse(text); }
    explicit uuid_t(const std::string& text) { parse(text); }

    static constexpr uuid_t nil() noexcept { return uuid_t(); }

    //! A time-based (version 1) uuid: 100 ns ticks since 1582-10-15, a random
    //! clock sequence and a random node id with the multicast bit set (no MAC
    //! address leaks). Successive calls in one process never repeat.
    static uuid_t sequential() {
        static std::mutex mutex;
        static uint64_t last_ticks = 0;
        static uint16_t clock_seq = static_cast<uint16_t>(random_u64());
        static const uint64_t node = (random_u64() & 0xFFFFFFFFFFFFULL) | 0x010000000000ULL;
        uint64_t ticks = utc() / 100 + 0x01B21DD213814000ULL;
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (ticks <= last_ticks)
                ticks = last_ticks + 1;
            last_ticks = ticks;
        }
        bytes_type b{};
        const uint32_t time_low = static_cast<uint32_t>(ticks);
        const uint16_t time_mid = static_cast<uint16_t>(ticks >> 32);
        const uint16_t time_hi = static_cast<uint16_t>(((ticks >> 48) & 0x0FFF) | 0x1000);
        const uint16_t seq = static_cast<uint16_t>((clock_seq & 0x3FFF) | 0x8000);
        for (std::size_t i = 0; i < 4; ++i)
            b[i] = static_cast<uint8_t>(time_low >> (24 - 8 * i));
        b[4] = static_cast<uint8_t>(time_mid >> 8);
        b[5] = static_cast<uint8_t>(time_mid);
        b[6] = static_cast<uint8_t>(time_hi >> 8);
        b[7] = static_cast<uint8_t>(time_hi);
        b[8] = static_cast<uint8_t>(seq >> 8);
        b[9] = static_cast<uint8_t>(seq);
        for (std::size_t i = 0; i < 6; ++i)
            b[10 + i] = static_cast<uint8_t>(node >> (40 - 8 * i));
        return uuid_t(b);
    }

    //! A random (version 4) uuid.
    static uuid_t random() {
        bytes_type b{};
        const uint64_t hi = random_u64(), lo = random_u64();
        for (std::size_t i = 0; i < 8; ++i) {
            b[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
            b[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
        }
        b[6] = static_cast<uint8_t>((b[6] & 0x0F) | 0x40);
        b[8] = static_cast<uint8_t>((b[8] & 0x3F) | 0x80);
        return uuid_t(b);
    }

    const bytes_type& data() const noexcept { return _data; }
    bytes_type& data() noexcept { return _data; }

    bool is_nil() const noexcept {
        for (uint8_t b : _data)
            if (b != 0)
                return false;
        return true;
    }

    //! Canonical lowercase text with dashes.
    std::string string() const {
        static constexpr char hex[] = "0123456789abcdef";
        std::string s;
        s.reserve(36);
        for (std::size_t i = 0; i < 16; ++i) {
            if (i == 4 || i == 6 || i == 8 || i == 10)
                s.push_back('-');
            s.push_back(hex[_data[i] >> 4]);
            s.push_back(hex[_data[i] & 0x0F]);
        }
        return s;
    }

    friend bool operator==(const uuid_t& a, const uuid_t& b) noexcept { return a._data == b._data; }
    friend bool operator!=(const uuid_t& a, const uuid_t& b) noexcept { return a._data != b._data; }
    friend bool operator<(const uuid_t& a, const uuid_t& b) noexcept { return a._data < b._data; }
    friend bool operator<=(const uuid_t& a, const uuid_t& b) noexcept { return a._data <= b._data; }
    friend bool operator>(const uuid_t& a, const uuid_t& b) noexcept { return a._data > b._data; }
    friend bool operator>=(const uuid_t& a, const uuid_t& b) noexcept { return a._data >= b._data; }

    friend std::ostream& operator<<(std::ostream& os, const uuid_t& value) { return os << value.string(); }

    void swap(uuid_t& other) noexcept { _data.swap(other._data); }
    friend void swap(uuid_t& a, uuid_t& b) noexcept { a.swap(b); }

    std::size_t hash() const noexcept {
        std::size_t h = 14695981039346656037ULL;
        for (uint8_t b : _data)
            h = (h ^ b) * 1099511628211ULL;
        return h;
    }

private:
    bytes_type _data{};

    static uint64_t random_u64() {
        thread_local std::mt19937_64 engine{[] {
            std::random_device device;
            return (static_cast<uint64_t>(device()) << 32) ^ device() ^
                   static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
        }()};
        return engine();
    }

    static int hex_value(char c) noexcept {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    void parse(std::string_view text) {
        std::size_t count = 0;
        int high = -1;
        for (char c : text) {
            if (count == 16)
                break;
            if (c == '-' || c == '{' || c == '}')
                continue;
            const int v = hex_value(c);
            if (v < 0)
                throw std::invalid_argument("invalid uuid: '" + std::string(text) + "'");
            if (high < 0) {
                high = v;
            } else {
                _data[count++] = static_cast<uint8_t>((high << 4) | v);
                high = -1;
            }
        }
    }
};

} // namespace FBE

template <>
struct std::hash<FBE::uuid_t> {
    std::size_t operator()(const FBE::uuid_t& value) const noexcept { return value.hash(); }
};
