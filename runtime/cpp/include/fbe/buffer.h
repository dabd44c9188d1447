// Fast Binary Encoding C++ runtime: buffers and the bytes type.
//
// WriteBuffer  - growable output buffer, reused between serializations.
// ReadBuffer   - a view over memory owned by the caller (never copies).
// buffer_t     - the C++ type of the schema type `bytes`.

#pragma once

#include "fbe/common.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace FBE {

//! The schema type `bytes`: a byte vector with the printing of the original
//! (`bytes[N]`).
class buffer_t : public std::vector<uint8_t> {
public:
    using std::vector<uint8_t>::vector;
    buffer_t() = default;
    buffer_t(const std::vector<uint8_t>& other) : std::vector<uint8_t>(other) {} // NOLINT
    buffer_t(std::vector<uint8_t>&& other) noexcept : std::vector<uint8_t>(std::move(other)) {} // NOLINT
    explicit buffer_t(std::string_view text) : std::vector<uint8_t>(text.begin(), text.end()) {}

    std::string string() const { return std::string(begin(), end()); }

    friend std::ostream& operator<<(std::ostream& os, const buffer_t& value) {
        return os << "bytes[" << value.size() << "]";
    }
};

namespace detail {
//! Copies `size` bytes; short copies (the usual strings of a message) are a
//! few loads and stores that stay within [src, src + size), longer ones
//! memcpy.
FBE_INLINE void copy_bytes(void* dst, const uint8_t* src, std::size_t size) noexcept {
    auto* out = static_cast<uint8_t*>(dst);
    if (size >= 8) {
        if (size > 16) {
            std::memcpy(out, src, size);
            return;
        }
        uint64_t head, tail;
        std::memcpy(&head, src, 8);
        std::memcpy(&tail, src + size - 8, 8);
        std::memcpy(out, &head, 8);
        std::memcpy(out + size - 8, &tail, 8);
    } else if (size >= 4) {
        uint32_t head, tail;
        std::memcpy(&head, src, 4);
        std::memcpy(&tail, src + size - 4, 4);
        std::memcpy(out, &head, 4);
        std::memcpy(out + size - 4, &tail, 4);
    } else if (size != 0) {
        out[0] = src[0];
        out[size / 2] = src[size / 2];
        out[size - 1] = src[size - 1];
    }
}
} // namespace detail

namespace detail {
inline void assign_grown(std::string& value, const uint8_t* data, std::size_t size) {
    value.assign(reinterpret_cast<const char*>(data), size);
}
inline void assign_grown(buffer_t& value, const uint8_t* data, std::size_t size) {
    value.assign(data, data + size);
}
} // namespace detail

//! Replaces the content of a string or bytes value with `size` bytes, in the
//! memory the value already holds when it is large enough (a reused object
//! keeps its capacity).
FBE_INLINE void assign_bytes(std::string& value, const uint8_t* data, std::size_t size) {
    const std::size_t old = value.size();
    if (FBE_LIKELY(size <= old)) {
        if (size != old)
            value.erase(size); // before the copy, whose stores would make the compiler reload the size
        detail::copy_bytes(&value[0], data, size);
    } else {
        detail::assign_grown(value, data, size);
    }
}
FBE_INLINE void assign_bytes(buffer_t& value, const uint8_t* data, std::size_t size) {
    if (size <= value.size()) {
        value.erase(value.begin() + static_cast<std::ptrdiff_t>(size), value.end());
        detail::copy_bytes(value.data(), data, size);
    } else {
        detail::assign_grown(value, data, size);
    }
}

namespace detail {
//! True where the 16 bytes at std::string::data() always belong to the
//! string: libstdc++ (C++11 ABI) keeps a string of up to 15 characters in a
//! 16-byte buffer inside the object and allocates capacity() + 1 bytes for a
//! longer one, so capacity() is never below 15 (C++23's resize_and_overwrite
//! hands out the same storage).
#if defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
constexpr bool kStringHolds16 = true;
#else
constexpr bool kStringHolds16 = false;
#endif
} // namespace detail

//! assign_bytes() where `readable` (>= size) bytes can be read at `data`:
//! with libstdc++, a string of at most 15 bytes with 16 readable is one
//! 16-byte copy into the string's own storage, then its length and
//! terminator are set; the bytes past the terminator are storage the
//! string owns and ignores. Everywhere else, assign_bytes().
FBE_INLINE void assign_bytes(std::string& value, const uint8_t* data, std::size_t size, std::size_t readable) {
    if constexpr (detail::kStringHolds16) {
        if (FBE_LIKELY(size <= 15 && readable >= 16)) {
            if (size != value.size())
                value.resize(size); // sets the length; a longer string is zero-filled first, then overwritten
            char* out = &value[0];
            std::memcpy(out, data, 16);
            out[size] = '\0';
            return;
        }
    }
    assign_bytes(value, data, size);
}
FBE_INLINE void assign_bytes(buffer_t& value, const uint8_t* data, std::size_t size, std::size_t /*readable*/) {
    assign_bytes(value, data, size);
}

//! A growable output buffer. `allocate(n)` appends n uninitialised bytes and
//! returns their position; memory is kept between uses (`reset()` only
//! forgets the content), so a long-lived model allocates once.
class WriteBuffer {
public:
    WriteBuffer() = default;
    explicit WriteBuffer(std::size_t capacity) { reserve(capacity); }
    //! A copy of `size` bytes at `data`, the field models' origin at
    //! `offset` (the original's FBEBuffer(data, size, offset), which writes
    //! into the caller's memory instead).
    explicit WriteBuffer(const void* data, std::size_t size, std::size_t offset = 0) {
        attach(data, size);
        _offset = offset;
    }
    WriteBuffer(const WriteBuffer& other) { attach(other.data(), other.size()); }
    WriteBuffer(WriteBuffer&& other) noexcept { swap(other); }
    WriteBuffer& operator=(const WriteBuffer& other) {
        if (this != &other)
            attach(other.data(), other.size());
        return *this;
    }
    WriteBuffer& operator=(WriteBuffer&& other) noexcept {
        swap(other);
        return *this;
    }
    ~WriteBuffer() = default;

    bool empty() const noexcept { return _size == 0; }
    const uint8_t* data() const noexcept { return _data.get(); }
    uint8_t* data() noexcept { return _data.get(); }
    std::size_t size() const noexcept { return _size; }
    //! Where the size is kept: the end a field model that is no field of a
    //! struct checks its slot against (field_model.h).
    const std::size_t* size_bound() const noexcept { return &_size; }
    std::size_t capacity() const noexcept { return _capacity; }

    //! Replaces the content with a copy of the given bytes.
    void attach(const void* data, std::size_t size) {
        _size = _offset = 0;
        reserve(size);
        if (size != 0)
            std::memcpy(_data.get(), data, size);
        _size = size;
    }
    void attach(const std::vector<uint8_t>& bytes) { attach(bytes.data(), bytes.size()); }

    //! Makes room for `capacity` bytes in total without changing the size.
    void reserve(std::size_t capacity) {
        if (capacity <= _capacity)
            return;
        std::size_t grown = _capacity + _capacity / 2;
        if (grown < capacity)
            grown = capacity;
        std::unique_ptr<uint8_t[]> fresh(new uint8_t[grown]);
        if (_size != 0)
            std::memcpy(fresh.get(), _data.get(), _size);
        _data = std::move(fresh);
        _capacity = grown;
    }

    //! Appends `size` bytes (content unspecified) and returns their position;
    //! with `slack`, that many more bytes of room follow them (a writer may
    //! store past the end of what it appends there).
    std::size_t allocate(std::size_t size, std::size_t slack = 0) {
        const std::size_t position = _size;
        reserve(_size + size + slack);
        _size += size;
        return position;
    }

    //! Sets the size; new bytes are zero.
    void resize(std::size_t size) {
        reserve(size);
        if (size > _size)
            std::memset(_data.get() + _size, 0, size - _size);
        _size = size;
    }

    //! Removes `size` bytes at `offset`, moving the tail down.
    void remove(std::size_t offset, std::size_t size) noexcept {
        if (offset >= _size)
            return;
        if (size > _size - offset)
            size = _size - offset;
        std::memmove(_data.get() + offset, _data.get() + offset + size, _size - offset - size);
        _size -= size;
    }

    //! Forgets the content, keeps the memory.
    void reset() noexcept { _size = _offset = 0; }
    void clear() noexcept { _size = _offset = 0; }

    //! The origin of the field models (field_model.h): the position their
    //! offsets count from, moved by a struct's set_begin()/get_begin().
    std::size_t offset() const noexcept { return _offset; }
    void shift(std::size_t size) noexcept { _offset += size; }
    void unshift(std::size_t size) noexcept { _offset -= size; }

    void swap(WriteBuffer& other) noexcept {
        std::swap(_data, other._data);
        std::swap(_size, other._size);
        std::swap(_capacity, other._capacity);
        std::swap(_offset, other._offset);
    }

private:
    std::unique_ptr<uint8_t[]> _data;
    std::size_t _size = 0;
    std::size_t _capacity = 0;
    std::size_t _offset = 0;
};

//! The original's one buffer class, to read and to write: here the
//! buffer models write to (a copy when made from caller memory).
using FBEBuffer = WriteBuffer;

//! A read-only view over bytes owned by the caller.
class ReadBuffer {
public:
    ReadBuffer() = default;
    ReadBuffer(const void* data, std::size_t size, std::size_t offset = 0) { attach(data, size, offset); }

    bool empty() const noexcept { return _size == 0; }
    const uint8_t* data() const noexcept { return _data; }
    std::size_t size() const noexcept { return _size; }
    //! Where the size is kept, as WriteBuffer's.
    const std::size_t* size_bound() const noexcept { return &_size; }

    //! Views `size - offset` bytes starting at `data + offset`.
    void attach(const void* data, std::size_t size, std::size_t offset = 0) noexcept {
        if (offset > size)
            offset = size;
        _data = static_cast<const uint8_t*>(data) + (data ? offset : 0);
        _size = data ? size - offset : 0;
        _offset = 0;
    }
    void attach(const std::vector<uint8_t>& bytes, std::size_t offset = 0) noexcept {
        attach(bytes.data(), bytes.size(), offset);
    }
    void attach(const WriteBuffer& buffer, std::size_t offset = 0) noexcept {
        attach(buffer.data(), buffer.size(), offset);
    }
    void attach(const ReadBuffer& buffer, std::size_t offset = 0) noexcept {
        attach(buffer.data(), buffer.size(), offset);
    }

    void reset() noexcept {
        _data = nullptr;
        _size = _offset = 0;
    }

    //! The origin of the field models, as WriteBuffer's.
    std::size_t offset() const noexcept { return _offset; }
    void shift(std::size_t size) noexcept { _offset += size; }
    void unshift(std::size_t size) noexcept { _offset -= size; }

private:
    const uint8_t* _data = nullptr;
    std::size_t _size = 0;
    std::size_t _offset = 0;
};

} // namespace FBE

template <>
struct std::hash<FBE::buffer_t> {
    std::size_t operator()(const FBE::buffer_t& value) const noexcept {
        return std::hash<std::string_view>()(
            std::string_view(reinterpret_cast<const char*>(value.data()), value.size()));
    }
};
