// Fast Binary Encoding C++ runtime: the final (compact) model (docs/format.md 4
// and 5.2). Values are written back to back without offsets or headers.
//
// Generated code specialises FBody<T> for every struct (size, write, read,
// verify over the fields in order). Reading checks every length and count
// against the remaining bytes; a count may not exceed what the remaining
// bytes can hold (one byte per element at least, or the element's fixed
// size), so allocations stay proportional to the buffer. A vector whose
// elements all have one size (scalars, structs of scalars) is checked once
// as a whole and its elements read without further checks. Errors: the
// first error wins (model.h).

#pragma once

#include "fbe/model.h"

#include <cassert>
#include <tuple>
#include <type_traits>
#include <utility>

namespace FBE {

namespace detail {
// Error paths of the readers (model.h: the first error wins).
FBE_COLD inline bool final_beyond(std::string* error, const char* what, std::size_t position, std::size_t size) {
    return record_error(error, what, position, "beyond the end of the buffer (" + std::to_string(size) + " bytes)");
}
FBE_COLD inline bool depth_exceeded(std::string* error, std::size_t position, unsigned max_depth) {
    return record_error(error, "struct", position, "nesting deeper than " + std::to_string(max_depth));
}
} // namespace detail

template <typename T>
struct FBody;

namespace detail {
//! Limits::budget out of line (FinalDecoder works it out when first needed).
FBE_NOINLINE inline uint64_t budget_of(const Limits& limits, uint64_t input_size) noexcept {
    return limits.budget(input_size);
}
} // namespace detail

//! Sequential read state of the final model. Errors go to `*error`.
class FinalDecoder {
public:
    template <typename T>
    using Body = FBody<T>;

    FinalDecoder(const uint8_t* bytes, std::size_t length, std::size_t position, std::string* error_out,
                 unsigned max_depth_in = kMaxDepth) noexcept
        : data(bytes), size(length), pos(position), depth_left(max_depth_in), error(error_out),
          max_depth(max_depth_in) {}

    const uint8_t* data;
    std::size_t size;
    std::size_t pos;
    //! How many more struct levels may be entered (Limits::max_depth).
    unsigned depth_left;
    std::string* error;
    //! Deepest struct nesting read, for the error.
    unsigned max_depth;
    //! The decode budget (docs/limits.md 3; Limits::budget of the root's
    //! size), counted from above. Every value read takes at least its share
    //! of the final minimum size in the buffer, so what a read makes costs
    //! at most the bytes it consumed, which need no counting (`pos - 8`),
    //! but for a struct whose own fields take no bytes (all its fields are
    //! structs: it costs 1; a struct that takes no bytes at all: 32), which
    //! verify() charges here (charge_struct; read(), best effort, only
    //! those that take no bytes). FinalModel counts again exactly
    //! (ExactFinalDecoder) when this count exceeds the budget.
    //! deserialize() under the usual limits leaves it 0 with `budget_limits`
    //! set, and it is worked out when first compared (within_budget()): the
    //! usual read of a type that charges nothing never computes it.
    mutable uint64_t budget = UINT64_MAX;
    mutable const Limits* budget_limits = nullptr;
    uint64_t spent = 0;

    std::size_t remaining() const noexcept { return size - pos; }

    //! Charges a value that takes no bytes; false (with "<what> at offset
    //! <pos>: decode budget exceeded") when what was read and charged goes
    //! beyond the budget.
    FBE_INLINE bool charge_no_bytes(uint64_t cost, const char* what) {
        spent += cost;
        return FBE_LIKELY(within_budget()) || detail::budget_exceeded(error, what, pos, budget);
    }
    //! A struct value about to be read: see `spent`.
    template <typename T>
    FBE_INLINE bool charge_struct() {
        if constexpr (FBody<T>::min_size == 0 || FBody<T>::cost == 1)
            return charge_no_bytes(FBody<T>::cost, "struct");
        return true;
    }
    //! Whether each value is charged exactly (ExactFinalDecoder): else strings
    //! and collections are paid by their bytes, and the codecs charge nothing.
    static constexpr bool exact = false;
    //! Whether what was read and charged is within the budget.
    FBE_INLINE bool within_budget() const {
        if (FBE_LIKELY(spent + (pos - 8) <= budget))
            return true;
        if (budget_limits == nullptr)
            return false;
        budget = detail::budget_of(*budget_limits, size);
        budget_limits = nullptr;
        return spent + (pos - 8) <= budget;
    }

    //! True when `n` more bytes are available; records an error otherwise.
    FBE_INLINE bool need(std::size_t n, const char* what) {
        if (FBE_LIKELY(n <= size - pos))
            return true;
        return fail(what);
    }

    //! Records "<what> at offset <pos>: beyond the end of the buffer" (the first error only).
    FBE_INLINE bool fail(const char* what) const { return detail::final_beyond(error, what, pos, size); }
    FBE_INLINE bool fail(const char* what, const std::string& problem) const {
        return detail::record_error(error, what, pos, problem);
    }

    //! Prefixes the error with the struct and field it happened in.
    FBE_INLINE bool fail_in(const char* type, const char* field) const {
        return detail::prefix_error(error, type, field);
    }

    //! Takes back how far a copy of this decoder got (call_apart).
    FBE_INLINE void take_progress(const FinalDecoder& copy) noexcept {
        pos = copy.pos;
        spent = copy.spent;
        budget = copy.budget;
        budget_limits = copy.budget_limits;
    }
};

//! The decoder of the exact count (docs/limits.md 3): verify() charging each
//! value as every runtime charges it, in the same order: a struct when it is
//! entered, a string's length once it is read, a collection's elements once
//! its count is; false at the first charge beyond the budget. FinalModel
//! runs it when FinalDecoder's count from above exceeds the budget (or
//! verify fails): its verdict and error are verify's then.
class ExactFinalDecoder : public FinalDecoder {
public:
    using FinalDecoder::FinalDecoder;
    static constexpr bool exact = true;

    FBE_INLINE bool charge_checked(uint64_t cost, const char* what) {
        spent += cost;
        return FBE_LIKELY(spent <= budget) || detail::budget_exceeded(error, what, pos, budget);
    }
    template <typename T>
    FBE_INLINE bool charge_struct() {
        return charge_checked(FBody<T>::cost, "struct");
    }
    FBE_INLINE bool charge_exact(uint64_t cost, const char* what) { return charge_checked(cost, what); }
};

//! Specialised by generated code for every struct:
//!   static constexpr uint32_t type_id;
//!   static constexpr bool inlined;            // read/verify are FBE_INLINE
//!   static constexpr std::size_t fixed_size;  // bytes of every value, 0 if they vary
//!   static constexpr std::size_t min_size;    // the fewest bytes a value takes
//!   static constexpr uint64_t cost;           // what a value costs the decode budget (docs/limits.md 3)
//!   size(const T&), write(uint8_t*, const T&) (may store kWriteSlack bytes past its end) and, only if
//!   fixed_size != 0, read_fixed(const uint8_t*, T&) (unchecked) from its base
//!   detail::FFields<T, the data members...>;
//!   static bool read(FinalDecoder&, T&);      // best effort, see FinalModel
//!   template <class D> static bool verify(D&);  // D: FinalDecoder or ExactFinalDecoder
//! and the fast path of read (docs/cpp.md, "How reading works"): for a
//! non-recursive struct of scalars, strings, bytes, optionals and such
//! structs,
//!   static bool read_fast(const uint8_t*& p, const uint8_t* end, std::size_t rest, T&);
//! which requires `end - p >= min_size + rest`, reads the value at `p`
//! leaving at least `rest` bytes before `end` and returns false (recording
//! nothing) if it does not fit; for a run of such fields within another
//! struct, read_fast_<first>_to_<last> alike.
template <typename T>
struct FBody;

//! FCodec<T>: size(value), write(p, value) -> end (kWriteSlack bytes of room after end), read(d, value), verify(d);
//! min_size: the fewest bytes any value takes. share: the type's share of its
//! struct's decode cost, item_cost: what one element of a collection costs
//! (docs/limits.md 3, the IR's decode_share and element_cost). fixed_size: the bytes every
//! value takes, or 0 when values differ in size (a string, a sequence, a
//! struct with such a field); codecs with fixed_size != 0 also have
//! read_fixed(p, value), which reads the value at `p` without any check:
//! the caller has checked that the fixed_size bytes are in the buffer.
template <typename T> struct FScalar;
template <typename T> struct FBlob;
template <typename T> struct FStruct;
template <typename T> struct FOptional;
template <typename T, std::size_t N> struct FArray;
template <typename C, typename T> struct FSequence;
template <typename M, typename K, typename V> struct FMapping;

//! The final format's codecs, for CodecOf (model.h).
struct Final {
    template <typename T> using Scalar = FScalar<T>;
    template <typename T> using Blob = FBlob<T>;
    template <typename T> using Struct = FStruct<T>;
    template <typename T> using Optional = FOptional<T>;
    template <typename T, std::size_t N> using Array = FArray<T, N>;
    template <typename C, typename T> using Sequence = FSequence<C, T>;
    template <typename M, typename K, typename V> using Mapping = FMapping<M, K, V>;
};

template <typename T>
using FCodec = typename CodecOf<Final, T>::type;

template <typename T>
struct FScalar {
    static constexpr std::size_t min_size = Scalar<T>::size;
    static constexpr bool fixed = true;
    static constexpr std::size_t fixed_size = Scalar<T>::size;
    static constexpr uint64_t share = Scalar<T>::size;
    static constexpr uint64_t item_cost = share;
    static constexpr std::size_t size(const T&) noexcept { return Scalar<T>::size; }
    static uint8_t* write(uint8_t* p, const T& value) noexcept {
        Scalar<T>::put(p, value);
        return p + Scalar<T>::size;
    }
    FBE_INLINE static bool read(FinalDecoder& d, T& value) {
        if (!d.need(Scalar<T>::size, "value"))
            return false;
        value = Scalar<T>::get(d.data + d.pos);
        d.pos += Scalar<T>::size;
        return true;
    }
    FBE_INLINE static void read_fixed(const uint8_t* p, T& value) noexcept { value = Scalar<T>::get(p); }
    FBE_INLINE static bool verify(FinalDecoder& d) {
        if (!d.need(Scalar<T>::size, "value"))
            return false;
        d.pos += Scalar<T>::size;
        return true;
    }
    //! Fast path (see FBody<T>::read_fast); `end - p >= min_size + rest` holds.
    FBE_INLINE static bool read_fast(const uint8_t*& p, const uint8_t* /*end*/, std::size_t /*rest*/, T& value) {
        value = Scalar<T>::get(p);
        p += Scalar<T>::size;
        return true;
    }
};

//! decimal: 16 bytes (`fixed`), but no unchecked read_fixed (fixed_size 0):
//! every reader checks that the flags are a scale 0..28 and a sign
//! (docs/format.md 2.4), so structs holding one have no read_fixed either.
template <>
struct FScalar<decimal_t> {
    static constexpr std::size_t min_size = 16;
    static constexpr bool fixed = true;
    static constexpr std::size_t fixed_size = 0;
    static constexpr uint64_t share = 16;
    static constexpr uint64_t item_cost = 16;
    static constexpr std::size_t size(const decimal_t&) noexcept { return 16; }
    static uint8_t* write(uint8_t* p, const decimal_t& value) noexcept {
        Scalar<decimal_t>::put(p, value);
        return p + 16;
    }
    FBE_INLINE static bool read(FinalDecoder& d, decimal_t& value) {
        if (!d.need(16, "value"))
            return false;
        if (FBE_UNLIKELY(!Scalar<decimal_t>::get_checked(d.data + d.pos, value)))
            return refused(d);
        d.pos += 16;
        return true;
    }
    FBE_INLINE static bool verify(FinalDecoder& d) {
        if (!d.need(16, "value"))
            return false;
        if (FBE_UNLIKELY(!decimal_t::valid_flags(load_u32(d.data + d.pos + 12))))
            return refused(d);
        d.pos += 16;
        return true;
    }
    //! Fast path (see FBody<T>::read_fast): false, recording nothing, on refused flags.
    FBE_INLINE static bool read_fast(const uint8_t*& p, const uint8_t* /*end*/, std::size_t /*rest*/,
                                     decimal_t& value) {
        if (FBE_UNLIKELY(!Scalar<decimal_t>::get_checked(p, value)))
            return false;
        p += 16;
        return true;
    }
    FBE_COLD static bool refused(FinalDecoder& d) {
        return d.fail("decimal", Scalar<decimal_t>::flags_error(d.data + d.pos));
    }
};

//! Bytes a writer (FBody<T>::write, FCodec<T>::write) may store past the end
//! of what it writes: FinalModel::serialize() leaves them free after the root.
inline constexpr std::size_t kWriteSlack = 16;

template <typename T>
struct FBlob {
    static constexpr std::size_t min_size = 4;
    static constexpr bool fixed = false;
    static constexpr std::size_t fixed_size = 0;
    static constexpr uint64_t share = 4;
    static constexpr uint64_t item_cost = 4;
    static std::size_t size(const T& value) noexcept { return 4 + value.size(); }
    static uint8_t* write(uint8_t* p, const T& value) noexcept {
        const std::size_t size = value.size();
        store_u32(p, size);
        if constexpr (std::is_same_v<T, std::string> && detail::kStringHolds16) {
            // A string of at most 15 bytes is one 16-byte copy from its own
            // storage (kStringHolds16), no call: what lands past it is written
            // over by the next value or falls in the slack (kWriteSlack).
            if (FBE_LIKELY(size <= 15)) {
                std::memcpy(p + 4, value.data(), 16);
                return p + 4 + size;
            }
        }
        if (size != 0)
            std::memcpy(p + 4, value.data(), size);
        return p + 4 + size;
    }
    FBE_INLINE static bool read(FinalDecoder& d, T& value) {
        if (!d.need(4, "string length"))
            return false;
        const uint32_t size = load_u32(d.data + d.pos);
        if (size > d.remaining() - 4)
            return d.fail("string data");
        const uint8_t* begin = d.data + d.pos + 4;
        assign_bytes(value, begin, size);
        d.pos += 4 + std::size_t(size);
        return true;
    }
    template <class D>
    FBE_INLINE static bool verify(D& d) {
        if (!d.need(4, "string length"))
            return false;
        const uint32_t size = load_u32(d.data + d.pos);
        if (size > d.remaining() - 4)
            return d.fail("string data");
        if constexpr (D::exact)
            if (!d.charge_exact(size, "string"))
                return false;
        d.pos += 4 + std::size_t(size);
        return true;
    }
    //! Fast path (see FBody<T>::read_fast): `end - p >= 4 + rest` holds,
    //! so the length is in the buffer; one check for the data. The bytes
    //! readable after the length are at least `rest` (a constant where the
    //! caller is inlined), so where the fields after the string take 16
    //! bytes or more its 16-byte copy needs no check of its own, nor the
    //! readable bytes counted; else they are counted once for both.
    FBE_INLINE static bool read_fast(const uint8_t*& p, const uint8_t* end, std::size_t rest, T& value) {
        const std::size_t size = load_u32(p);
        if (rest >= 16) {
            if (FBE_UNLIKELY(std::size_t(end - p) < 4 + rest + size))
                return false;
            assign_bytes(value, p + 4, size, rest);
        } else {
            const std::size_t readable = std::size_t(end - p) - 4;
            if (FBE_UNLIKELY(size > readable - rest))
                return false;
            assign_bytes(value, p + 4, size, readable);
        }
        p += 4 + size;
        return true;
    }
};

template <typename T>
struct FStruct {
    // min_size stays 0 even for a struct of fixed size: a count the bytes
    // cannot hold is then read element by element as far as they go, as
    // the best-effort reading of the original does.
    static constexpr std::size_t min_size = 0;
    static constexpr bool fixed = false;
    static constexpr std::size_t fixed_size = FBody<T>::fixed_size;
    static constexpr uint64_t share = 0;     // charged as a struct of its own
    static constexpr uint64_t item_cost = 0;
    static std::size_t size(const T& value) noexcept { return FBody<T>::size(value); }
    static uint8_t* write(uint8_t* p, const T& value) noexcept { return FBody<T>::write(p, value); }
    FBE_INLINE static bool read(FinalDecoder& d, T& value) {
        if (d.depth_left == 0)
            return detail::depth_exceeded(d.error, d.pos, d.max_depth);
        if constexpr (FBody<T>::min_size == 0)
            if (!d.charge_no_bytes(FBody<T>::cost, "struct"))
                return false;
        --d.depth_left;
        const bool ok = read_body<T>(d, value);
        ++d.depth_left;
        return ok;
    }
    // A struct of fixed size holds scalars and structs of fixed size only:
    // no strings, collections or optionals, so no nesting to count.
    FBE_INLINE static void read_fixed(const uint8_t* p, T& value) noexcept { FBody<T>::read_fixed(p, value); }
    template <class D>
    FBE_INLINE static bool verify(D& d) {
        if (d.depth_left == 0)
            return detail::depth_exceeded(d.error, d.pos, d.max_depth);
        if (!d.template charge_struct<T>())
            return false;
        --d.depth_left;
        const bool ok = verify_body<T>(d);
        ++d.depth_left;
        return ok;
    }
    //! Fast path of a struct that has one (FBody<T>::read_fast), from
    //! anywhere: checks the struct's fewest bytes first.
    FBE_INLINE static bool read_fast(const uint8_t*& p, const uint8_t* end, std::size_t rest, T& value) {
        return FBE_LIKELY(std::size_t(end - p) >= FBody<T>::min_size + rest) && FBody<T>::read_fast(p, end, rest, value);
    }
};

namespace detail {
//! A codec's fast read (FBody<T>::read_fast) where the caller has checked
//! that `end - p >= min_size + rest`: a struct's own fewest bytes
//! (FStruct::min_size is 0), so its read_fast checks them no second time.
//! Tells the compiler that `n` counts bytes of a buffer (below 2^63), so that
//! a field's size added to it cannot wrap: FBlob::read_fast's `rest >= 16`
//! is then known where the fields after a string take 16 bytes or more.
FBE_INLINE void assume_bytes([[maybe_unused]] std::size_t n) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    if (n > (SIZE_MAX >> 1))
        __builtin_unreachable();
#endif
}

template <typename E>
struct FastItem {
    static constexpr std::size_t min_size = E::min_size;
    template <typename T>
    FBE_INLINE static bool read(const uint8_t*& p, const uint8_t* end, std::size_t rest, T& value) {
        return E::read_fast(p, end, rest, value);
    }
};
template <typename T>
struct FastItem<FStruct<T>> {
    static constexpr std::size_t min_size = FBody<T>::min_size;
    FBE_INLINE static bool read(const uint8_t*& p, const uint8_t* end, std::size_t rest, T& value) {
        return FBody<T>::read_fast(p, end, rest, value);
    }
};
} // namespace detail

template <typename T>
struct FOptional {
    using E = FCodec<T>;
    static constexpr std::size_t min_size = 1;
    static constexpr bool fixed = false;
    static constexpr std::size_t fixed_size = 0;
    static constexpr uint64_t share = 1;     // the flag; the value is charged as what it is
    static constexpr uint64_t item_cost = 1;
    static std::size_t size(const std::optional<T>& value) noexcept { return value ? 1 + E::size(*value) : 1; }
    static uint8_t* write(uint8_t* p, const std::optional<T>& value) noexcept {
        if (!value) {
            *p = 0;
            return p + 1;
        }
        *p = 1;
        return E::write(p + 1, *value);
    }
    FBE_INLINE static bool read(FinalDecoder& d, std::optional<T>& value) {
        if (!d.need(1, "optional flag"))
            return false;
        if (d.data[d.pos++] == 0) {
            value.reset();
            return true;
        }
        if (!value)
            value.emplace();
        return E::read(d, *value);
    }
    template <class D>
    FBE_INLINE static bool verify(D& d) {
        if (!d.need(1, "optional flag"))
            return false;
        return d.data[d.pos++] == 0 || E::verify(d);
    }
    //! Fast path (see FBody<T>::read_fast): `end - p >= 1 + rest` holds,
    //! so the flag is in the buffer.
    FBE_INLINE static bool read_fast(const uint8_t*& p, const uint8_t* end, std::size_t rest, std::optional<T>& value) {
        if (*p++ == 0) {
            value.reset();
            return true;
        }
        if (FBE_UNLIKELY(std::size_t(end - p) < detail::FastItem<E>::min_size + rest))
            return false;
        if (!value)
            value.emplace();
        return detail::FastItem<E>::read(p, end, rest, *value);
    }
};

template <typename T, std::size_t N>
struct FArray {
    using E = FCodec<T>;
    static constexpr std::size_t min_size = N * E::min_size;
    static constexpr bool fixed = E::fixed;
    static constexpr std::size_t fixed_size = N * E::fixed_size;
    static constexpr uint64_t share = N * E::share;
    static constexpr uint64_t item_cost = share > 1 ? share : 1;
    static std::size_t size(const std::array<T, N>& value) noexcept {
        if constexpr (E::fixed)
            return N * E::min_size;
        std::size_t total = 0;
        for (const auto& item : value)
            total += E::size(item);
        return total;
    }
    static uint8_t* write(uint8_t* p, const std::array<T, N>& value) noexcept {
        for (const auto& item : value)
            p = E::write(p, item);
        return p;
    }
    FBE_INLINE static bool read(FinalDecoder& d, std::array<T, N>& value) {
        for (auto& item : value)
            if (!E::read(d, item))
                return false;
        return true;
    }
    FBE_INLINE static void read_fixed(const uint8_t* p, std::array<T, N>& value) noexcept {
        for (std::size_t i = 0; i < N; ++i)
            E::read_fixed(p + i * E::fixed_size, value[i]);
    }
    template <class D>
    FBE_INLINE static bool verify(D& d) {
        for (std::size_t i = 0; i < N; ++i)
            if (!E::verify(d))
                return false;
        return true;
    }
};

namespace detail {
FBE_COLD inline bool final_count_failed(std::string* error, std::size_t position, uint32_t count, std::size_t room) {
    return record_error(error, "count", position,
                       std::to_string(count) + " elements need more than the " + std::to_string(room) +
                           " bytes left in the buffer");
}

//! Whether the elements of codec E take no bytes at all (structs of final
//! minimum size 0): their count is bounded by the decode budget, which
//! charges each of them, not by the bytes left.
template <typename E>
struct takes_no_bytes : std::false_type {};
template <typename T>
struct takes_no_bytes<FStruct<T>> : std::bool_constant<FBody<T>::min_size == 0> {};

//! Reads a u32 count that the remaining bytes can justify (any count when
//! `no_bytes`: elements that take no bytes, each charged to the budget).
FBE_INLINE bool final_count(FinalDecoder& d, std::size_t min_item, uint32_t& count, bool no_bytes = false) {
    if (!d.need(4, "count"))
        return false;
    count = load_u32(d.data + d.pos);
    const std::size_t room = d.remaining() - 4;
    if (!no_bytes && count > (min_item != 0 ? room / min_item : room))
        return final_count_failed(d.error, d.pos, count, room);
    d.pos += 4;
    return true;
}
} // namespace detail

//! verify() of a key of a set, map or hash: the key, then the key itself
//! (read from where it was verified, which cannot fail then) for `seen`.
template <typename KC, typename K, typename Check, class D>
bool final_verify_key(D& d, Check& seen, const char* what) {
    FinalDecoder again = d;
    if (!KC::verify(d))
        return false;
    const std::size_t at = again.pos;
    detail::Scratch<K> key;
    KC::read(again, *key);
    return seen.add(std::move(*key)) || detail::duplicate_key(d.error, what, at);
}

template <typename C, typename T>
struct FSequence {
    using E = FCodec<T>;
    static constexpr std::size_t min_size = 4;
    static constexpr bool fixed = false;
    static constexpr std::size_t fixed_size = 0;
    static constexpr uint64_t share = 4;
    static constexpr uint64_t item_cost = 4;
    static std::size_t size(const C& value) noexcept {
        if constexpr (E::fixed)
            return 4 + value.size() * E::min_size;
        std::size_t total = 4;
        for (const auto& item : value)
            total += E::size(item);
        return total;
    }
    static uint8_t* write(uint8_t* p, const C& value) noexcept {
        store_u32(p, value.size());
        p += 4;
        for (const auto& item : value)
            p = E::write(p, item);
        return p;
    }
    FBE_INLINE static bool read(FinalDecoder& d, C& value) {
        if constexpr (std::is_same_v<C, std::vector<T>> && !std::is_same_v<T, bool>) {
            // A reused vector keeps its elements (and their strings' and
            // vectors' memory): the first elements are read in place.
            uint32_t count = 0;
            if (!detail::final_count(d, E::min_size, count, detail::takes_no_bytes<E>::value)) {
                value.clear();
                return false;
            }
            if constexpr (E::fixed_size != 0) {
                // Elements of one size: when the buffer holds all of them
                // (and the vector's memory stays within kReserveFactor x the
                // buffer), this one test covers every element, read without
                // checks in a loop the compiler can vectorise. Otherwise the
                // loop below reads as far as the bytes go.
                if (FBE_LIKELY(count <= d.remaining() / E::fixed_size &&
                               count * sizeof(T) <= kReserveFactor * d.size)) {
                    if (value.size() != count) // a reused vector usually has the size already
                        value.resize(count);
                    read_run(d.data + d.pos, value.data(), count);
                    d.pos += count * E::fixed_size;
                    return true;
                }
            }
            if (value.size() > count)
                value.erase(value.begin() + std::ptrdiff_t(count), value.end());
            const std::size_t reused = value.size();
            T* items = value.data(); // held in a register: element stores cannot move it
            for (std::size_t i = 0; i < reused; ++i)
                if (!E::read(d, items[i])) {
                    value.erase(value.begin() + std::ptrdiff_t(i + 1), value.end());
                    return false;
                }
            if (reused == count)
                return true;
            if (count * sizeof(T) <= kReserveFactor * d.size)
                value.reserve(count);
            for (std::size_t i = reused; i < count; ++i)
                if (!verified_first(d) || !E::read(d, value.emplace_back()))
                    return false;
            return true;
        }
        value.clear();
        uint32_t count = 0;
        if (!detail::final_count(d, E::min_size, count, detail::takes_no_bytes<E>::value))
            return false;
        if constexpr (std::is_same_v<C, std::vector<T>>)
            if (count * sizeof(T) <= kReserveFactor * d.size)
                value.reserve(count);
        for (uint32_t i = 0; i < count; ++i) {
            if constexpr (std::is_same_v<C, std::set<T>> || std::is_same_v<T, bool>) {
                const std::size_t at = d.pos;
                detail::Scratch<T> item;
                if (!E::read(d, *item))
                    return false;
                value.insert(value.end(), std::move(*item));
                if constexpr (std::is_same_v<C, std::set<T>>)
                    if (FBE_UNLIKELY(value.size() != i + 1))
                        return detail::duplicate_key(d.error, "set", at);
            } else {
                if (!verified_first(d) || !E::read(d, value.emplace_back()))
                    return false;
            }
        }
        return true;
    }
    //! Fast path (see FBody<T>::read_fast) of a vector (not of bool) whose
    //! elements have one and take bytes: `end - p >= 4 + rest` holds, so the
    //! count is in the buffer. One check that the elements' fewest bytes and
    //! `rest` are, and that the vector's memory stays within kReserveFactor x
    //! the bytes left (what verified_first guards against cannot happen: no
    //! element is charged to the budget), then each element is read leaving
    //! the fewest bytes of the elements after it: scalars of one size as one
    //! run, a string or a struct with one check per length. A reused vector
    //! is read in place.
    FBE_INLINE static bool read_fast(const uint8_t*& p, const uint8_t* end, std::size_t rest, C& value) {
        static_assert(std::is_same_v<C, std::vector<T>> && !std::is_same_v<T, bool>, "a vector of values");
        using I = detail::FastItem<E>;
        static_assert(I::min_size != 0, "elements that take bytes: their count is bounded by the bytes left");
        const std::size_t count = load_u32(p);
        p += 4;
        const std::size_t room = std::size_t(end - p) - rest;
        if (FBE_UNLIKELY(count * I::min_size > room))
            return false;
        if constexpr (sizeof(T) > kReserveFactor * I::min_size) // else the check above covers it
            if (FBE_UNLIKELY(count * sizeof(T) > kReserveFactor * room))
                return false;
        // The size compared as the end of the elements (no division), in
        // integers: a vector without memory has no pointer to add to.
        T* item = value.data();
        const std::uintptr_t stop = reinterpret_cast<std::uintptr_t>(item) + count * sizeof(T);
        if (stop != reinterpret_cast<std::uintptr_t>(item + value.size())) {
            value.resize(count);
            item = value.data();
        }
        if constexpr (E::fixed_size != 0) {
            read_run(p, item, count);
            p += count * E::fixed_size;
        } else {
            std::size_t left = count * I::min_size + rest;
            for (T* const last = item + count; item != last; ++item) {
                left -= I::min_size;
                detail::assume_bytes(left);
                if (!I::read(p, end, left, *item))
                    return false;
            }
        }
        return true;
    }
    //! An element of a type larger than 4 KiB (a struct holding big fixed
    //! arrays) is made only once its bytes verify, on a copy of the decoder:
    //! one the budget refuses fails there as its read would, before the
    //! value is allocated (docs/limits.md 3). Smaller ones: nothing to do.
    FBE_INLINE static bool verified_first(const FinalDecoder& d) {
        if constexpr (sizeof(T) > 4096) {
            FinalDecoder copy = d;
            return E::verify(copy);
        }
        return true;
    }
    //! Reads `count` values of fixed size at `p` (the caller has checked
    //! they are in the buffer): one memcpy for raw scalars, else a loop.
    FBE_INLINE static void read_run(const uint8_t* p, T* items, std::size_t count) noexcept {
        if constexpr (Scalar<T>::raw) {
            if (count != 0)
                std::memcpy(static_cast<void*>(items), p, count * sizeof(T));
        } else {
            for (std::size_t i = 0; i < count; ++i)
                E::read_fixed(p + i * E::fixed_size, items[i]);
        }
    }
    template <class D>
    FBE_INLINE static bool verify(D& d) {
        uint32_t count = 0;
        if (!detail::final_count(d, E::min_size, count, detail::takes_no_bytes<E>::value))
            return false;
        if constexpr (D::exact)
            if (!d.charge_exact(count * E::item_cost, "count"))
                return false;
        if constexpr (std::is_same_v<C, std::set<T>>) {
            // What deserialize() refuses: the same element twice.
            detail::KeyCheck<C, T> seen;
            for (uint32_t i = 0; i < count; ++i)
                if (!final_verify_key<E, T>(d, seen, "set"))
                    return false;
            return true;
        }
        for (uint32_t i = 0; i < count; ++i)
            if (!E::verify(d))
                return false;
        return true;
    }
};

template <typename M, typename K, typename V>
struct FMapping {
    using KC = FCodec<K>;
    using VC = FCodec<V>;
    static constexpr std::size_t min_size = 4;
    static constexpr bool fixed = false;
    static constexpr std::size_t fixed_size = 0;
    static constexpr uint64_t share = 4;
    static constexpr uint64_t item_cost = 4;
    static std::size_t size(const M& value) noexcept {
        if constexpr (KC::fixed && VC::fixed)
            return 4 + value.size() * (KC::min_size + VC::min_size);
        std::size_t total = 4;
        for (const auto& [k, v] : value)
            total += KC::size(k) + VC::size(v);
        return total;
    }
    static uint8_t* write(uint8_t* p, const M& value) noexcept {
        store_u32(p, value.size());
        p += 4;
        for (const auto& [k, v] : value) {
            p = KC::write(p, k);
            p = VC::write(p, v);
        }
        return p;
    }
    static bool read(FinalDecoder& d, M& value) {
        value.clear();
        uint32_t count = 0;
        if (!detail::final_count(d, KC::min_size + VC::min_size, count,
                                  detail::takes_no_bytes<KC>::value && detail::takes_no_bytes<VC>::value))
            return false;
        for (uint32_t i = 0; i < count; ++i) {
            const std::size_t at = d.pos;
            detail::Scratch<K> key;
            if (!KC::read(d, *key))
                return false;
            if constexpr (sizeof(V) > 4096) {
                // a value larger than 4 KiB is made only once its bytes verify (as VSequence's elements)
                if (FBE_UNLIKELY(value.find(*key) != value.end()))
                    return detail::duplicate_key(d.error, "map", at);
                auto copy = d;
                if (!VC::verify(copy))
                    return false;
            }
            auto it = value.emplace_hint(value.end(), std::piecewise_construct, std::forward_as_tuple(std::move(*key)),
                                         std::forward_as_tuple());
            if (FBE_UNLIKELY(value.size() != i + 1))
                return detail::duplicate_key(d.error, "map", at);
            if (!VC::read(d, it->second))
                return false;
        }
        return true;
    }
    template <class D>
    static bool verify(D& d) {
        uint32_t count = 0;
        if (!detail::final_count(d, KC::min_size + VC::min_size, count,
                                  detail::takes_no_bytes<KC>::value && detail::takes_no_bytes<VC>::value))
            return false;
        if constexpr (D::exact)
            if (!d.charge_exact(count * (KC::item_cost + VC::item_cost), "count"))
                return false;
        // What deserialize() refuses: the same key twice.
        detail::KeyCheck<M, K> seen;
        for (uint32_t i = 0; i < count; ++i)
            if (!final_verify_key<KC, K>(d, seen, "map") || !VC::verify(d))
                return false;
        return true;
    }
};

namespace detail {
//! The type of the data member a member pointer points to, and the struct that declares it.
template <typename P>
struct MemberOf;
template <typename C, typename M>
struct MemberOf<M C::*> {
    using type = M;
    using owner = C;
};
template <typename P>
using FCodecOfMember = FCodec<typename MemberOf<std::decay_t<P>>::type>;

//! The fields of a run (the plan's: consecutive fields of fixed size whose readers check nothing) from the I-th of
//! `Members` on, at `p`, one after the other, without checks: the arrays read in place, the scalars each loaded
//! before any is stored, as `value` may alias the bytes as far as the compiler knows (only then may it merge
//! neighbouring loads and stores).
template <std::size_t I, auto... Members, typename T>
FBE_INLINE void read_run_from(const uint8_t* p, T& value) noexcept {
    if constexpr (I < sizeof...(Members)) {
        constexpr auto member = std::get<I>(std::make_tuple(Members...));
        using M = typename MemberOf<std::decay_t<decltype(member)>>::type;
        if constexpr (is_scalar_v<M>) {
            const M loaded = Scalar<M>::get(p);
            read_run_from<I + 1, Members...>(p + Scalar<M>::size, value);
            value.*member = loaded;
        } else {
            FCodec<M>::read_fixed(p, value.*member);
            read_run_from<I + 1, Members...>(p + FCodec<M>::fixed_size, value);
        }
    }
}
//! The fields of a run at `p` (read_run_from); the caller has checked that their bytes are in the buffer.
template <auto... Members, typename T>
FBE_INLINE void read_run(const uint8_t* p, T& value) noexcept {
    read_run_from<0, Members...>(p, value);
}

//! Gives the data member `Member` of `value` its schema default: that member of a value the default constructor of
//! the struct that declares it makes (on the heap, as a struct may be large). Out of line: a read's failure path.
template <auto Member, typename T>
FBE_COLD void assign_member_default(T& value) {
    value.*Member = std::move(std::make_unique<typename MemberOf<decltype(Member)>::owner>().get()->*Member);
}

//! Reads the field of the data member `Member` of `value` best effort (FBody<T>::read's way, docs/cpp.md): when it
//! cannot be read, it takes its schema default (assign_member_default) and the result is false.
template <auto Member, typename T>
FBE_INLINE bool read_or_default(FinalDecoder& d, T& value) {
    if (FBE_LIKELY(FCodecOfMember<decltype(Member)>::read(d, value.*Member)))
        return true;
    assign_member_default<Member>(value);
    return false;
}

//! The writer of a struct's final value over its data members `Members`, inherited ones first (the generated
//! FBody<T> derives from it): the fields one after the other (docs/format.md 4.2), and the out-of-line path of
//! FBody<T>::read, which reads each again best effort.
template <typename T, auto... Members>
struct FFields {
    static std::size_t size(const T& value) noexcept {
        return (std::size_t(0) + ... + FCodecOfMember<decltype(Members)>::size(value.*Members));
    }
    static uint8_t* write(uint8_t* p, const T& value) noexcept {
        ((p = FCodecOfMember<decltype(Members)>::write(p, value.*Members)), ...);
        return p;
    }
    //! The fields of a struct of fixed size (FBody<T>::fixed_size != 0) at `p`, one after the other, without
    //! checks: the vector that holds it has checked its elements are in the buffer.
    FBE_INLINE static void read_fixed(const uint8_t* p, T& value) noexcept {
        static_assert(FBody<T>::fixed_size != 0, "read_fixed of a struct without a fixed size");
        ((read_member<Members>(p, value), p += FCodecOfMember<decltype(Members)>::fixed_size), ...);
    }
    //! Every field read again, best effort, after FBody<T>::read's fast path found something that did not fit: a
    //! field that cannot be read takes its schema default (read_or_default); false if any could not.
    FBE_NOINLINE static bool read_each(FinalDecoder& d, T& value) {
        bool ok = true;
        ((ok &= read_or_default<Members>(d, value)), ...);
        return ok;
    }

private:
    template <auto Member>
    FBE_INLINE static void read_member(const uint8_t* p, T& value) noexcept {
        if constexpr (FCodecOfMember<decltype(Member)>::fixed_size != 0)     // (an empty struct or array: nothing)
            FCodecOfMember<decltype(Member)>::read_fixed(p, value.*Member);
    }
};
} // namespace detail

//! The final model of a root struct T (docs/format.md 4.1): u32 size, u32 type
//! id, the fields. (FinalModel of a type that is not a struct is the
//! original's final field model, below.)
template <typename T, typename TBuffer = WriteBuffer, typename Enable = void>
class FinalModel : public ModelBase<T, TBuffer> {
    using ModelBase<T, TBuffer>::_buffer;
    using ModelBase<T, TBuffer>::_error;

public:
    static constexpr uint32_t fbe_type() noexcept { return FBody<T>::type_id; }

    //! The original's next(): moves the model on by `size`, the size of the
    //! root just written or read, so deserialize() and verify() read the
    //! root that follows it. serialize() appends at the end of the buffer
    //! wherever the model stands. The final format has no offsets, so the
    //! roots are the original's bytes wherever they lie.
    void next(std::size_t size) noexcept { _root += size; }

    //! Appends the root of `value` to the buffer; returns its size. A value
    //! whose structs nest deeper than kMaxDepth (possible only for recursive
    //! types) is refused: nothing is appended, 0 is returned and error()
    //! names the type and field (docs/limits.md 1); so is a root beyond the
    //! format's 32-bit sizes (4 GiB).
    std::size_t serialize(const T& value) {
        if constexpr (!Nesting<T>::bounded) {
            if (!this->writable(value))
                return 0;
        }
        const std::size_t total = 8 + FBody<T>::size(value);
        if (!this->sized(total))
            return 0;
        const std::size_t root = _buffer.allocate(total, kWriteSlack);
        uint8_t* p = _buffer.data() + root;
        store_u32(p, total);
        store_u32(p + 4, FBody<T>::type_id);
        [[maybe_unused]] const uint8_t* end = FBody<T>::write(p + 8, value);
        assert(end == p + total);
        return total;
    }

    //! Reads the root at the start of the buffer, best effort like the
    //! original: a field that cannot be read takes its schema default and
    //! the rest is read from the same position. Returns 8 + the bytes
    //! consumed (0 when the buffer has no root header); error() tells what
    //! failed. Use verify() first on untrusted input.
    std::size_t deserialize(T& value) const {
        if (FBE_UNLIKELY(_root != 0))
            return deserialize_next(value);
        // The usual case: the default limits, and a root whose size field
        // lies within the buffer and covers the type's fewest bytes, so the
        // body's fast path needs no check of its own for them. The default
        // depth limit is then a constant, so the compiler drops the depth
        // checks the schema cannot reach, and the budget is at least the
        // input's size, which the bytes read cannot exceed (usual_limits).
        // (error() is cleared first: a store of a char could be to anything.)
        this->_error.clear();
        constexpr std::size_t least = 8 + FBody<T>::min_size;
        const std::size_t size = _buffer.size();
        if (FBE_LIKELY(this->usual_limits() && size >= least)) {
            const uint32_t total = load_u32(_buffer.data());
            if (FBE_LIKELY(total >= least && total <= size))
                return read_root<true>(value, total, kMaxDepth);
        }
        return deserialize_other(value);
    }

    //! Checks the root (docs/format.md 5.2): the type id, every field in bounds,
    //! and the size field equal to the bytes the fields cover.
    bool verify() const {
        if (FBE_UNLIKELY(_root != 0))
            return verify_next();
        if (!this->begin_read())
            return false;
        const uint32_t total = load_u32(_buffer.data());
        if (!this->root_fits(total, 8))
            return false;
        if (load_u32(_buffer.data() + 4) != FBody<T>::type_id) {
            _error = "unexpected root type id " + std::to_string(load_u32(_buffer.data() + 4));
            return false;
        }
        if (FBE_LIKELY(this->usual_limits()))
            return verify_root<true>(total, kMaxDepth);
        return verify_root<false>(total, this->_limits.max_depth);
    }

private:
    //! deserialize() and verify() of the root next() moved the model to.
    FBE_NOINLINE std::size_t deserialize_next(T& value) const {
        FinalModel<T, ReadBuffer> reader;
        return this->at_root(_root, reader) ? this->took(reader, reader.deserialize(value)) : 0;
    }
    FBE_NOINLINE bool verify_next() const {
        FinalModel<T, ReadBuffer> reader;
        return this->at_root(_root, reader) && this->took(reader, reader.verify());
    }
    //! deserialize() of every other case, out of line so that the usual
    //! read is the only one inlined into deserialize(): other limits, a
    //! buffer shorter than a root header (0), a root size field that does
    //! not fit (the buffer's size is read then: best effort) or one shorter
    //! than the type's fewest bytes.
    FBE_NOINLINE std::size_t deserialize_other(T& value) const {
        if (!this->begin_read())
            return 0;
        const std::size_t size = _buffer.size();
        const uint32_t total = load_u32(_buffer.data());
        const std::size_t length = (total >= 8 && total < size) ? total : size;
        return read_root<false>(value, length, this->_limits.max_depth);
    }
    //! Under the usual limits (`usual`) only what is charged (structs that
    //! take no bytes, or whose fields are all structs) can exceed the budget.
    template <bool usual>
    FBE_INLINE std::size_t read_root(T& value, std::size_t length, unsigned max_depth) const {
        FinalDecoder d(_buffer.data(), length, 8, &_error, max_depth);
        if constexpr (usual) { // worked out when first needed (FinalDecoder::budget)
            d.budget = 0;
            d.budget_limits = &this->_limits;
        } else {
            d.budget = this->_limits.budget(length);
        }
        FCodec<T>::read(d, value); // the root is level 1, as in verify()
        if (FBE_UNLIKELY(!usual || d.spent != 0) && !d.within_budget())
            return read_counted(value, length, max_depth, d.pos);
        return d.pos;
    }
    template <bool usual>
    FBE_INLINE bool verify_root(uint32_t total, unsigned max_depth) const {
        FinalDecoder d(_buffer.data(), total, 8, &_error, max_depth);
        d.budget = this->_limits.budget(total);
        if (FBE_LIKELY(FCodec<T>::verify(d) && d.pos == total && ((usual && d.spent == 0) || d.within_budget())))
            return true;
        return counted(); // (total and max_depth are the verify's: the root's size, the limits')
    }
    //! The exact count (ExactFinalDecoder) of a root that verify() refused,
    //! which may be the count from above exceeding the budget where the
    //! exact charges do not (docs/limits.md 3): true when it fits, else false
    //! with the error of the first charge beyond the budget, or of the
    //! malformed input.
    FBE_NOINLINE bool counted() const {
        return counted(load_u32(_buffer.data()), this->_limits.max_depth);
    }
    FBE_NOINLINE bool counted(std::size_t total, unsigned max_depth) const {
        _error.clear();
        ExactFinalDecoder d(_buffer.data(), total, 8, &_error, max_depth);
        d.budget = this->_limits.budget(total);
        if (!FCodec<T>::verify(d))
            return false;
        if (d.pos != total) {
            _error = "root size " + std::to_string(total) + " differs from the " + std::to_string(d.pos) +
                     " bytes its fields cover";
            return false;
        }
        return true;
    }
    //! deserialize() beyond the count from above: the exact count decides;
    //! when it fits, the read again with the budget it has proven paid.
    FBE_NOINLINE std::size_t read_counted(T& value, std::size_t length, unsigned max_depth, std::size_t read) const {
        if (!counted(length, max_depth))
            return read;
        FinalDecoder d(_buffer.data(), length, 8, &_error, max_depth);
        FCodec<T>::read(d, value);
        return d.pos;
    }

    std::size_t _root = 0; //!< where next() moved the model: the root deserialize() and verify() read
};

//! The original's final field model of a value that is not a struct, as its
//! tests spell it (`FBE::FinalModel<FBE::decimal_t> model(buffer, offset)`):
//! the value at `offset` from the buffer's origin (TBuffer::offset()) in the
//! final format (docs/format.md 4). get() returns the bytes it read, or 0
//! when the value is not there or is malformed (the value is then T());
//! set() writes over bytes the buffer already holds, as the original's does
//! (allocate fbe_allocation_size(value) of them first), and returns the
//! bytes written, or 0 (writing nothing) when they do not fit; verify()
//! returns the bytes the value takes, or SIZE_MAX, as the original's. Reads
//! check everything against the buffer and the default limits
//! (docs/limits.md), as deserialize() does. A struct's FinalModel is the
//! root model above: read or write a struct through it.
template <typename T, typename TBuffer>
class FinalModel<T, TBuffer, std::enable_if_t<!std::is_same_v<FCodec<T>, FStruct<T>>>> {
public:
    FinalModel(TBuffer& buffer, std::size_t offset) noexcept : _buffer(&buffer), _offset(offset) {}

    //! The value's offset from the buffer's origin.
    std::size_t fbe_offset() const noexcept { return _offset; }
    void fbe_shift(std::size_t size) noexcept { _offset += size; }
    void fbe_unshift(std::size_t size) noexcept { _offset -= size; }
    //! The bytes `value` takes.
    static std::size_t fbe_allocation_size(const T& value) { return FCodec<T>::size(value); }

    std::size_t verify() const {
        std::string error;
        const std::size_t position = _buffer->offset() + _offset;
        if (position > _buffer->size())
            return SIZE_MAX;
        ExactFinalDecoder d(_buffer->data(), _buffer->size(), position, &error);
        d.budget = Limits().budget(_buffer->size() - position);
        return FCodec<T>::verify(d) ? d.pos - position : SIZE_MAX;
    }
    //! Verified first, so what the value makes is paid for (docs/limits.md 3).
    std::size_t get(T& value) const {
        const std::size_t size = verify();
        if (size == SIZE_MAX) {
            value = T();
            return 0;
        }
        std::string error;
        FinalDecoder d(_buffer->data(), _buffer->size(), _buffer->offset() + _offset, &error);
        FCodec<T>::read(d, value);
        return size;
    }
    std::size_t set(const T& value) {
        const std::size_t size = FCodec<T>::size(value);
        const std::size_t position = _buffer->offset() + _offset;
        if (position > _buffer->size() || _buffer->size() - position < size)
            return 0;
        if constexpr (FCodec<T>::fixed) {
            FCodec<T>::write(_buffer->data() + position, value);
        } else {
            // The writers may store kWriteSlack bytes past the value.
            std::vector<uint8_t> bytes(size + kWriteSlack);
            FCodec<T>::write(bytes.data(), value);
            std::memcpy(_buffer->data() + position, bytes.data(), size);
        }
        return size;
    }

private:
    TBuffer* _buffer;
    std::size_t _offset;
};

} // namespace FBE
