// Fast Binary Encoding C++ runtime: what the versioned model (versioned.h)
// and the final model (final.h) share.
//
// * One codec lookup: CodecOf<Format, T> maps a C++ type to the codec of
//   its kind (scalar, string/bytes, struct, optional, array, sequence,
//   mapping) in one format; VCodec<T> and FCodec<T> are that lookup.
// * One error policy for every reader (docs/cpp.md, "Reading untrusted
//   buffers"): the first error wins. It is recorded where it happens as
//   "<what> at offset <n>: <problem>", and each struct it unwinds through
//   puts "<type>.<field>: " in front, so error() names the type and field
//   path, then the offset and the problem. Nothing recorded later replaces
//   it.
// * One way to call a struct body out of line (call_apart, read_body,
//   verify_body) that keeps the decoder in registers.
// * One model base: the buffer, attach/reset and error() of Model and
//   FinalModel.

#pragma once

#include "fbe/buffer.h"
#include "fbe/common.h"
#include "fbe/scalar.h"

#include <array>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace FBE {

//! The codec of C++ type T in a format. A format (struct Versioned in
//! versioned.h, struct Final in final.h) names its codec templates Scalar,
//! Blob, Struct, Optional, Array, Sequence and Mapping; class types that
//! are none of the others are structs.
template <class Format, typename T, typename Enable = void>
struct CodecOf {
    using type = typename Format::template Struct<T>;
};
template <class Format, typename T>
struct CodecOf<Format, T, std::enable_if_t<is_scalar_v<T>>> {
    using type = typename Format::template Scalar<T>;
};
template <class Format>
struct CodecOf<Format, std::string> {
    using type = typename Format::template Blob<std::string>;
};
template <class Format>
struct CodecOf<Format, buffer_t> {
    using type = typename Format::template Blob<buffer_t>;
};
template <class Format, typename T>
struct CodecOf<Format, std::optional<T>> {
    using type = typename Format::template Optional<T>;
};
template <class Format, typename T, std::size_t N>
struct CodecOf<Format, std::array<T, N>> {
    using type = typename Format::template Array<T, N>;
};
template <class Format, typename T>
struct CodecOf<Format, std::vector<T>> {
    using type = typename Format::template Sequence<std::vector<T>, T>;
};
template <class Format, typename T>
struct CodecOf<Format, std::list<T>> {
    using type = typename Format::template Sequence<std::list<T>, T>;
};
template <class Format, typename T>
struct CodecOf<Format, std::set<T>> {
    using type = typename Format::template Sequence<std::set<T>, T>;
};
template <class Format, typename K, typename V>
struct CodecOf<Format, std::map<K, V>> {
    using type = typename Format::template Mapping<std::map<K, V>, K, V>;
};
template <class Format, typename K, typename V>
struct CodecOf<Format, std::unordered_map<K, V>> {
    using type = typename Format::template Mapping<std::unordered_map<K, V>, K, V>;
};

namespace detail {
// Error paths of the readers, out of line and away from the hot code. They
// take what they report by value, so a decoder never escapes and its state
// can live in registers.

//! Records "<what> at offset <position>: <problem>" unless an error is
//! already recorded (the first error wins); always returns false.
FBE_COLD inline bool record_error(std::string* error, const char* what, std::size_t position,
                                  const std::string& problem) {
    if (error->empty())
        *error = std::string(what) + " at offset " + std::to_string(position) + ": " + problem;
    return false;
}
FBE_COLD inline bool record_error(std::string* error, const char* what, std::size_t position, const char* problem) {
    return record_error(error, what, position, std::string(problem));
}
//! "<what> at offset <position>: decode budget exceeded (<budget> bytes)", `what` "<what>.<field>" with a field.
FBE_COLD inline bool budget_exceeded(std::string* error, const char* what, std::size_t position, uint64_t budget,
                                     const char* field = nullptr) {
    const std::string problem = "decode budget exceeded (" + std::to_string(budget) + " bytes)";
    return record_error(error, field ? (std::string(what) + "." + field).c_str() : what, position, problem);
}
//! A set, map or hash whose buffer holds the same key twice (docs/limits.md
//! 4): refused by deserialize() and verify() alike, so that no reader keeps
//! "the first" or "the last" of them. Always returns false.
FBE_COLD inline bool duplicate_key(std::string* error, const char* what, std::size_t position) {
    return record_error(error, what, position, "duplicate key: two entries read as the same key");
}
//! The keys verify() collects from a set, map or hash `C` with keys `K`, to
//! refuse two that read the same as deserialize() does, at the same key: the
//! same notion of "the same key" as the container deserialize() fills
//! (operator<, or hash and == for a hash). Our writers write sets and maps in
//! key order, so the keys usually come strictly increasing: then a vector of
//! them and one comparison per key prove them distinct; at the first key out
//! of order they move into a std::set.
template <typename C, typename K>
class KeyCheck {
public:
    //! False when `key` reads the same as a key added before.
    bool add(K&& key) {
        if (_sorted) {
            if (_keys.empty() || _keys.back() < key) {
                _keys.push_back(std::move(key));
                return true;
            }
            _sorted = false;
            _all.insert(std::make_move_iterator(_keys.begin()), std::make_move_iterator(_keys.end()));
            _keys.clear();
        }
        return _all.insert(std::move(key)).second;
    }

private:
    std::vector<K> _keys;
    std::set<K> _all;
    bool _sorted = true;
};
template <typename K, typename V>
class KeyCheck<std::unordered_map<K, V>, K> {
public:
    bool add(K&& key) { return _seen.insert(std::move(key)).second; }

private:
    std::unordered_set<K> _seen;
};
//! Puts the struct and field the recorded error happened in in front of it
//! (called by each struct the failure unwinds through); returns false.
FBE_COLD inline bool prefix_error(std::string* error, const char* type, const char* field) {
    error->insert(0, std::string(type) + "." + field + ": ");
    return false;
}
} // namespace detail

//! Calls `f` with a copy of the decoder and takes back how far the copy
//! got (Decoder::take_progress). Calls that are not inlined get the copy,
//! so the decoder itself never has its address taken and the compiler
//! keeps it in registers.
template <typename D, typename F>
FBE_INLINE bool call_apart(D& d, F&& f) {
    D c = d;
    const bool ok = f(c);
    d.take_progress(c);
    return ok;
}

//! The generated body reader of struct T (D::Body<T>: VBody<T> or
//! FBody<T>) with the arguments of that format, inline or through a copy
//! of the decoder (Body<T>::inlined).
template <typename T, typename D, typename... Args>
FBE_INLINE bool read_body(D& d, Args&&... args) {
    using Body = typename D::template Body<T>;
    if constexpr (Body::inlined)
        return Body::read(d, args...);
    else
        return call_apart(d, [&](D& c) { return Body::read(c, args...); });
}
template <typename T, typename D, typename... Args>
FBE_INLINE bool verify_body(D& d, Args&&... args) {
    using Body = typename D::template Body<T>;
    if constexpr (Body::inlined)
        return Body::verify(d, args...);
    else
        return call_apart(d, [&](D& c) { return Body::verify(c, args...); });
}

//! What Model and FinalModel share: the buffer (WriteBuffer to serialize,
//! or to read a copy; ReadBuffer to read caller memory without copying),
//! attach/reset, the reader's limits(), and error(), the reason the last
//! verify() or deserialize() failed (empty after a success).
template <typename T, typename TBuffer>
class ModelBase {
public:
    using value_type = T;
    using buffer_type = TBuffer;

    TBuffer& buffer() noexcept { return _buffer; }
    const TBuffer& buffer() const noexcept { return _buffer; }

    void attach(const void* data, std::size_t size) { _buffer.attach(data, size); }
    void attach(const std::vector<uint8_t>& bytes) { _buffer.attach(bytes.data(), bytes.size()); }
    template <typename B, typename = decltype(std::declval<const B&>().data())>
    void attach(const B& buffer) { _buffer.attach(buffer.data(), buffer.size()); }

    void reset() noexcept { _buffer.reset(); }

    //! Why the last verify() or deserialize() failed, or why serialize()
    //! refused a value (docs/limits.md 1).
    const std::string& error() const noexcept { return _error; }

    //! The limits verify() and deserialize() apply (docs/limits.md).
    const Limits& limits() const noexcept { return _limits; }
    void limits(const Limits& limits) noexcept {
        _limits = limits;
        _usual = limits.max_depth == kMaxDepth && limits.budget_factor >= 1;
    }

protected:
    //! Starts a read: clears the error; false (with the error) when the
    //! buffer cannot hold a root header.
    FBE_INLINE bool begin_read() const {
        _error.clear();
        return FBE_LIKELY(_buffer.size() >= 8) || fail_short();
    }
    //! verify(): the root size must be at least `least` and fit the buffer.
    FBE_INLINE bool root_fits(uint32_t total, uint32_t least) const {
        return FBE_LIKELY(total >= least && total <= _buffer.size()) || fail_root(total);
    }
    //! The default depth limit and a decode budget of at least the input's
    //! size (one test: the readers' usual path).
    FBE_INLINE bool usual_limits() const noexcept { return _usual; }
    //! serialize() of a type that can nest without a bound (Nesting<T>):
    //! false, with error(), when `value` nests deeper than kMaxDepth.
    bool writable(const T& value) const {
        _error.clear();
        return Nesting<T>::within(value, 1, _error);
    }
    //! serialize(): a root of `total` bytes fits the format's 32-bit sizes
    //! and offsets; when it does not (a string, bytes or collection beyond
    //! 4 GiB), false with error(): nothing is written.
    FBE_INLINE bool sized(std::size_t total) const {
        return FBE_LIKELY(total <= UINT32_MAX) || fail_size(total);
    }
    FBE_COLD bool fail_size(std::size_t total) const {
        _error = "cannot write a root of " + std::to_string(total) +
                 " bytes: the format's sizes and offsets are 32-bit (at most 4 GiB)";
        return false;
    }
    FBE_COLD bool fail_short() const {
        _error = "buffer shorter than a root header (8 bytes)";
        return false;
    }
    //! `reader` (a model over a ReadBuffer) attached to the root at `root`
    //! of this buffer, with this model's limits (the models' next()); false,
    //! with error(), when the buffer ends before it.
    template <class Reader>
    bool at_root(std::size_t root, Reader& reader) const {
        if (root > _buffer.size()) {
            _error = "no root at " + std::to_string(root) + ": the buffer has " + std::to_string(_buffer.size()) +
                     " bytes";
            return false;
        }
        reader.attach(_buffer.data() + root, _buffer.size() - root);
        reader.limits(_limits);
        return true;
    }
    //! What `reader` (at_root) returned, its error() this model's.
    template <class Reader, typename R>
    R took(const Reader& reader, R result) const {
        _error = reader.error();
        return result;
    }
    FBE_COLD bool fail_root(uint32_t total) const {
        _error = "root size " + std::to_string(total) + " does not fit the buffer (" +
                 std::to_string(_buffer.size()) + " bytes)";
        return false;
    }

    TBuffer _buffer;
    mutable std::string _error;
    Limits _limits;
    bool _usual = true;
};

} // namespace FBE
