// Fast Binary Encoding C++ runtime: the versioned ("standard") model
// (docs/format.md 3 and 5.1).
//
// Generated code specialises VBody<T> for every struct: the body size, type
// id and four straight-line functions over the struct's fields at offsets
// fixed at generation time (extra, write, read, verify). Everything else,
// the slot codecs of every type and the Model class, lives here.
//
// Writing: Model::serialize computes the whole size once (VBody::extra),
// grows the buffer once, then writes front to back with a bump allocator;
// allocation order follows docs/format.md 3.5, so the bytes equal the original's.
//
// Reading (deserialize and verify) never trusts the buffer:
// * every offset, size and count is checked against the buffer before use;
// * out-of-line blocks must come in the order the writer allocates them
//   (depth first, each block after the previous one). A buffer whose
//   offsets point backwards, into themselves or share one block with
//   another slot is rejected, so every byte is decoded at most once and the
//   decoded size is bounded by the buffer size;
// * counts must fit: n element slots need n * slot-size bytes;
// * struct nesting is limited to Limits::max_depth (kMaxDepth by default);
// * a struct slot with offset 0 is malformed, and every value made is
//   charged against the decode budget (docs/limits.md);
// * deserialize() succeeds exactly when verify() does: same checks, same
//   charges (type ids of every struct body included).
// Errors name the type and field: "proto.Account.orders: proto.Order.symbol: ...";
// the first error wins (model.h).

#pragma once

#include "fbe/model.h"

#include <cassert>
#include <tuple>
#include <type_traits>
#include <utility>

namespace FBE {

//! Writes one root; `end` is the bump-allocation cursor, relative to `data`
//! (the root start). The buffer is already large enough.
struct Encoder {
    uint8_t* data;
    std::size_t end;

    std::size_t allocate(std::size_t size) noexcept {
        const std::size_t position = end;
        end += size;
        return position;
    }
};

namespace detail {
// Error paths of the readers (model.h: the first error wins).
inline std::string backwards(std::size_t mark) {
    return "offset points backwards, into its own slot or at data already read (next block may start at " +
           std::to_string(mark) + ")";
}
FBE_COLD inline bool claim_failed(std::string* error, const char* what, std::size_t position, std::size_t mark,
                                  std::size_t size) {
    if (position < mark)
        return record_error(error, what, position, backwards(mark));
    return record_error(error, what, position, "beyond the end of the buffer (" + std::to_string(size) + " bytes)");
}
FBE_COLD inline bool count_failed(std::string* error, const char* what, std::size_t position, std::size_t unit,
                                  uint32_t count, std::size_t room) {
    return record_error(error, what, position,
                     (unit == 1 ? "length " : "count ") + std::to_string(count) + " needs more than the " +
                         std::to_string(room) + " bytes left in the buffer");
}
FBE_COLD inline bool enter_failed(std::string* error, const uint8_t* data, std::size_t position, std::size_t mark,
                                  std::size_t size, unsigned depth, unsigned max_depth, uint32_t type_id) {
    if (depth > max_depth)
        return record_error(error, "struct", position, "nesting deeper than " + std::to_string(max_depth));
    if (position < mark)
        return record_error(error, "struct", position, backwards(mark));
    if (position > size || size - position < 8)
        return record_error(error, "struct", position,
                         "header beyond the end of the buffer (" + std::to_string(size) + " bytes)");
    const uint32_t body_size = load_u32(data + position);
    if (body_size < 8)
        return record_error(error, "struct", position, "body size " + std::to_string(body_size) + " below 8");
    if (uint64_t(position) + body_size > size)
        return record_error(error, "struct", position,
                            "body size " + std::to_string(body_size) + " beyond the end of the buffer (" +
                                std::to_string(size) + " bytes)");
    return record_error(error, "struct", position,
                        "type id " + std::to_string(load_u32(data + position + 4)) + ", expected " +
                            std::to_string(type_id));
}
} // namespace detail

template <typename T>
struct VBody;

//! Read state shared by deserialize and verify. Errors go to `*error`.
class Decoder {
public:
    template <typename T>
    using Body = VBody<T>;

    //! `limits_in` must outlive the decoder (the model's own limits).
    Decoder(const uint8_t* bytes, std::size_t length, std::string* error_out, const Limits& limits_in) noexcept
        : data(bytes), size(length), error(error_out), limits(&limits_in) {}

    const uint8_t* data;
    std::size_t size;
    std::size_t mark = 8;   //!< end of the last out-of-line block claimed
    std::string* error;
    const Limits* limits;
    //! How many more struct levels may be entered (Limits::max_depth).
    unsigned depth_left = limits->max_depth;
    //! The decode budget (docs/limits.md 3), counted from above. A value
    //! read from the buffer costs at most the bytes it occupies there (slots
    //! and bodies are never smaller than the final minimum sizes), and every
    //! block is claimed at most once, so the values read cost at most
    //! `mark - 8`: that is what this decoder counts for them, at no cost on
    //! the usual path. What a buffer asks for beyond its bytes, an older
    //! writer's short body (the struct and the defaults of the fields it
    //! lacks) and a struct that costs more than its body (charge_struct), is
    //! charged here, checked against the budget right away (charge_checked),
    //! and the total once more at the end (within_budget). That total is at
    //! least the exact charge every runtime makes; when it exceeds the
    //! budget, Model counts again exactly (ExactDecoder), so C++ accepts
    //! exactly what the others accept.
    uint64_t spent = 0;

    //! Records "<what> at offset <position>: <problem>" (unless an error is
    //! recorded already); always returns false.
    FBE_INLINE bool fail(const char* what, std::size_t position, const char* problem) const {
        return detail::record_error(error, what, position, problem);
    }

    //! Prefixes the error with the struct and field it happened in.
    FBE_INLINE bool fail_in(const char* type, const char* field) const { return detail::prefix_error(error, type, field); }

    // Positions are a base inside the buffer plus a u32 offset; the sums
    // below are computed in 64 bits, so they cannot wrap (not even where
    // size_t has 32 bits) and `end <= size` alone bounds a block.

    //! Claims the out-of-line block [position, position + length).
    FBE_INLINE bool claim(std::size_t position, std::size_t length, const char* what) {
        const uint64_t end = uint64_t(position) + length;
        if (FBE_LIKELY(position >= mark && end <= size)) {
            mark = std::size_t(end);
            return true;
        }
        return detail::claim_failed(error, what, position, mark, size);
    }

    //! Claims a counted block: u32 count, then count * unit bytes.
    FBE_INLINE bool claim_counted(std::size_t position, std::size_t unit, uint32_t& count, const char* what) {
        if (FBE_LIKELY(position >= mark && uint64_t(position) + 4 <= size)) {
            count = load_u32(data + position);
            if (unit == 1) {
                const uint64_t end = uint64_t(position) + 4 + count;
                if (FBE_LIKELY(end <= size)) {
                    mark = std::size_t(end);
                    return true;
                }
            } else {
                const std::size_t room = size - position - 4;
                if (FBE_LIKELY(unit == 0 || count <= room / unit)) {
                    mark = position + 4 + count * unit;
                    return true;
                }
            }
            return detail::count_failed(error, what, position, unit, count, size - position - 4);
        }
        return detail::claim_failed(error, what, position, mark, size);
    }

    //! Enters the struct body the slot's offset points to: one level
    //! deeper, the header and body in the buffer, the type id `type_id`.
    //! The usual body, `body_size` bytes (this schema's), is one comparison
    //! of its header.
    template <uint32_t type_id, uint32_t body_size>
    FBE_INLINE bool enter(std::size_t position, uint32_t& found_size) {
        if (FBE_LIKELY(depth_left != 0 && position >= mark && uint64_t(position) + body_size <= size)) {
            const uint64_t header = load<uint64_t>(data + position);
            if (FBE_LIKELY(header == (uint64_t(type_id) << 32 | body_size))) {
                --depth_left;
                found_size = body_size;
                mark = position + body_size;
                return true;
            }
        }
        return enter_other(position, type_id, found_size);
    }
    //! enter() of any other body: a newer or older writer's, or malformed.
    FBE_INLINE bool enter_other(std::size_t position, uint32_t type_id, uint32_t& found_size) {
        if (FBE_LIKELY(depth_left != 0 && position >= mark && uint64_t(position) + 8 <= size)) {
            found_size = load_u32(data + position);
            const uint64_t end = uint64_t(position) + found_size;
            if (FBE_LIKELY(found_size >= 8 && end <= size && load_u32(data + position + 4) == type_id)) {
                --depth_left;
                mark = std::size_t(end);
                return true;
            }
        }
        return detail::enter_failed(error, data, position, mark, size, limits->max_depth - depth_left + 1,
                                    limits->max_depth, type_id);
    }
    void leave() noexcept { ++depth_left; }

    //! Charges values the buffer does not hold (see `spent`); false (with
    //! "<what> at offset <position>: decode budget exceeded", `what`
    //! "<what>.<field>" with a field) beyond the budget.
    FBE_INLINE bool charge_checked(uint64_t cost, const char* what, std::size_t position,
                                   const char* field = nullptr) {
        spent += cost;
        return within_budget(what, position, field);
    }
    //! A struct value entered at `position`: its bytes pay for it, unless it
    //! costs more than its body (a struct that takes no bytes in the final
    //! model costs 32, its body 8): then the difference.
    template <typename T>
    FBE_INLINE bool charge_struct(std::size_t position) {
        if constexpr (VBody<T>::cost > VBody<T>::body_size)
            return charge_checked(VBody<T>::cost - VBody<T>::body_size, "struct", position);
        return true;
    }
    //! Whether each value is charged exactly (ExactDecoder): else strings and
    //! collections are paid by their bytes, and the codecs charge nothing.
    static constexpr bool exact = false;
    //! An older writer's body: the struct (`cost`) and the defaults of the
    //! fields it lacks, which its few bytes do not pay for, named after the
    //! struct `type` and the `field` (or none) detail::lacking_field picks.
    FBE_INLINE bool charge_older(uint64_t cost, uint64_t defaults, const char* type, const char* field,
                                 std::size_t position) {
        return charge_checked(cost + defaults, type, position, field);
    }
    //! False (with the error) when what was read and charged exceeds the
    //! budget. The usual case, nothing charged and a budget of at least
    //! the input size, takes one test.
    FBE_INLINE bool within_budget(const char* what, std::size_t position, const char* field = nullptr) const {
        return FBE_LIKELY(spent == 0 && limits->budget_factor >= 1) ||
               spent + (mark - 8) <= limits->budget(size) ||
               detail::budget_exceeded(error, what, position, limits->budget(size), field);
    }

    //! Takes back how far a copy of this decoder got (call_apart).
    FBE_INLINE void take_progress(const Decoder& copy) noexcept {
        mark = copy.mark;
        spent = copy.spent;
    }
};

//! The decoder of the exact count (docs/limits.md 3): verify() charging
//! each value as every runtime charges it, in the same order: a struct when
//! it is entered, a string's length once it is claimed, a collection's
//! elements once its count is, the defaults of an older body; false at the
//! first charge beyond the budget. Model runs it when Decoder's count from
//! above exceeds the budget (or the read fails): its verdict and error are
//! the read's then.
class ExactDecoder : public Decoder {
public:
    ExactDecoder(const uint8_t* bytes, std::size_t length, std::string* error_out, const Limits& limits_in) noexcept
        : Decoder(bytes, length, error_out, limits_in), budget(limits_in.budget(length)) {}

    uint64_t budget;
    static constexpr bool exact = true;

    FBE_INLINE bool charge_checked(uint64_t cost, const char* what, std::size_t position) {
        spent += cost;
        return FBE_LIKELY(spent <= budget) || detail::budget_exceeded(error, what, position, budget);
    }
    template <typename T>
    FBE_INLINE bool charge_struct(std::size_t position) {
        return charge_checked(VBody<T>::cost, "struct", position);
    }
    FBE_INLINE bool charge_exact(uint64_t cost, const char* what, std::size_t position) {
        return charge_checked(cost, what, position);
    }
    //! The struct was charged when it was entered.
    FBE_INLINE bool charge_older(uint64_t /*cost*/, uint64_t defaults, const char* type, const char* field,
                                 std::size_t position) {
        spent += defaults;
        return FBE_LIKELY(spent <= budget) || detail::budget_exceeded(error, type, position, budget, field);
    }
};

//! Specialised by generated code for every struct:
//!   static constexpr uint32_t type_id, body_size;
//!   static constexpr bool fixed_fields;             // no field points out of the body
//!   static constexpr uint64_t cost;                 // what a value costs the decode budget
//!   using base = B;                                 // a derived struct's base
//!   static constexpr const char* name;              // the struct's schema name
//!   static constexpr auto fields;                   // its own fields: a tuple of detail::Slot
//! and from its base detail::VFields<T, Inlined>, over `fields`: extra(const T&)
//! (out-of-line bytes of the fields), write(Encoder&, std::size_t body, const T&),
//! read(Decoder&, std::size_t body, uint32_t size, T&),
//! template <class D> verify(D&, std::size_t body, uint32_t size), and the
//! constant `inlined` (read/verify are FBE_INLINE). An older writer's shorter
//! body takes detail::read_older/verify_older (below), charged by the fields'
//! default costs (detail::charge_older). verify() and the codecs' verify()
//! take any decoder D: Decoder, or ExactDecoder for the exact count.
template <typename T>
struct VBody;

//! VCodec<T>: the slot codec of a C++ type in the versioned model.
//!   inline_size; extra(value); write(e, base, slot, value);
//!   read(d, base, slot, value); verify(d, base, slot);
//!   share: the type's share of its struct's decode cost, and item_cost:
//!   what one element of a collection costs (docs/limits.md 3, the IR's
//!   decode_share and element_cost).
//! `slot` is absolute and lies inside the buffer (the caller checked it);
//! `base` is the position offsets are relative to (docs/format.md 3.1).
//! Class types that are none of the others are structs (CodecOf, model.h).
template <typename T> struct VScalar;
template <typename T> struct VBlob;
template <typename T> struct VStruct;
template <typename T> struct VOptional;
template <typename T, std::size_t N> struct VArray;
template <typename C, typename T> struct VSequence;
template <typename M, typename K, typename V> struct VMapping;

//! The versioned format's codecs, for CodecOf.
struct Versioned {
    template <typename T> using Scalar = VScalar<T>;
    template <typename T> using Blob = VBlob<T>;
    template <typename T> using Struct = VStruct<T>;
    template <typename T> using Optional = VOptional<T>;
    template <typename T, std::size_t N> using Array = VArray<T, N>;
    template <typename C, typename T> using Sequence = VSequence<C, T>;
    template <typename M, typename K, typename V> using Mapping = VMapping<M, K, V>;
};

template <typename T>
using VCodec = typename CodecOf<Versioned, T>::type;

template <typename T>
struct VScalar {
    static constexpr std::size_t inline_size = Scalar<T>::size;
    static constexpr bool fixed = true;
    static constexpr uint64_t share = Scalar<T>::size;
    static constexpr uint64_t item_cost = share;
    static constexpr std::size_t extra(const T&) noexcept { return 0; }
    static void write(Encoder& e, std::size_t, std::size_t slot, const T& value) noexcept {
        Scalar<T>::put(e.data + slot, value);
    }
    FBE_INLINE static bool read(Decoder& d, std::size_t, std::size_t slot, T& value) noexcept {
        value = Scalar<T>::get(d.data + slot);
        return true;
    }
    FBE_INLINE static bool verify(Decoder&, std::size_t, std::size_t) noexcept { return true; }
};

//! decimal: a scalar whose reader refuses flags beyond a scale 0..28 and the
//! sign (docs/format.md 2.4), so not `fixed`: arrays and collections read and
//! verify each element, and structs holding one are not `fixed_fields`.
template <>
struct VScalar<decimal_t> {
    static constexpr std::size_t inline_size = 16;
    static constexpr bool fixed = false;
    static constexpr uint64_t share = 16;
    static constexpr uint64_t item_cost = 16;
    static constexpr std::size_t extra(const decimal_t&) noexcept { return 0; }
    static void write(Encoder& e, std::size_t, std::size_t slot, const decimal_t& value) noexcept {
        Scalar<decimal_t>::put(e.data + slot, value);
    }
    FBE_INLINE static bool read(Decoder& d, std::size_t, std::size_t slot, decimal_t& value) {
        return FBE_LIKELY(Scalar<decimal_t>::get_checked(d.data + slot, value)) || refused(d, slot);
    }
    FBE_INLINE static bool verify(Decoder& d, std::size_t, std::size_t slot) {
        return FBE_LIKELY(decimal_t::valid_flags(load_u32(d.data + slot + 12))) || refused(d, slot);
    }
    FBE_COLD static bool refused(Decoder& d, std::size_t slot) {
        return detail::record_error(d.error, "decimal", slot, Scalar<decimal_t>::flags_error(d.data + slot));
    }
};

//! string and bytes: offset -> u32 length + bytes (docs/format.md 3.4).
template <typename T>
struct VBlob {
    static constexpr std::size_t inline_size = 4;
    static constexpr bool fixed = false;
    static constexpr uint64_t share = 4;
    static constexpr uint64_t item_cost = 4;
    static std::size_t extra(const T& value) noexcept { return 4 + value.size(); }
    static void write(Encoder& e, std::size_t base, std::size_t slot, const T& value) noexcept {
        const std::size_t size = value.size();
        const std::size_t position = e.allocate(4 + size);
        store_u32(e.data + slot, position - base);
        store_u32(e.data + position, size);
        if (size != 0)
            std::memcpy(e.data + position + 4, value.data(), size);
    }
    FBE_INLINE static bool read(Decoder& d, std::size_t base, std::size_t slot, T& value) {
        const uint32_t offset = load_u32(d.data + slot);
        if (offset == 0) {
            value.clear();
            return true;
        }
        uint32_t size = 0;
        if (!d.claim_counted(base + offset, 1, size, "string"))
            return false;
        const uint8_t* begin = d.data + base + offset + 4;
        assign_bytes(value, begin, size);
        return true;
    }
    template <class D>
    FBE_INLINE static bool verify(D& d, std::size_t base, std::size_t slot) {
        const uint32_t offset = load_u32(d.data + slot);
        if (offset == 0)
            return true;
        uint32_t size = 0;
        if (!d.claim_counted(base + offset, 1, size, "string"))
            return false;
        if constexpr (D::exact)
            return d.charge_exact(size, "string", base + offset);
        return true;
    }
};

//! struct: offset -> body (docs/format.md 3.3).
template <typename T>
struct VStruct {
    static constexpr std::size_t inline_size = 4;
    static constexpr bool fixed = false;
    static constexpr uint64_t share = 0;     // charged as a struct of its own
    static constexpr uint64_t item_cost = 0;
    static std::size_t extra(const T& value) noexcept { return VBody<T>::body_size + VBody<T>::extra(value); }
    static void write(Encoder& e, std::size_t base, std::size_t slot, const T& value) noexcept {
        const std::size_t body = e.allocate(VBody<T>::body_size);
        store_u32(e.data + slot, body - base);
        store_u32(e.data + body, VBody<T>::body_size);
        store_u32(e.data + body + 4, VBody<T>::type_id);
        VBody<T>::write(e, body, value);
    }
    FBE_INLINE static bool read(Decoder& d, std::size_t base, std::size_t slot, T& value) {
        const uint32_t offset = load_u32(d.data + slot);
        if (offset == 0) {
            // Malformed, as verify() says (docs/limits.md 2; the original
            // made a default value, so a few bytes could ask for millions).
            return d.fail("struct", slot, "offset is 0");
        }
        uint32_t size = 0;
        if (!d.enter<VBody<T>::type_id, VBody<T>::body_size>(base + offset, size))
            return false;
        const bool ok = d.template charge_struct<T>(base + offset) && read_body<T>(d, base + offset, size, value);
        d.leave();
        return ok;
    }
    //! read() of an element of a collection, which has counted the depth
    //! for all its elements (VSequence). The usual body, written by this
    //! schema, takes one test per bound: it starts at or after the mark
    //! (offset 0 points before it), it lies within the buffer, and its
    //! header is this schema's body size and T's type id (one comparison);
    //! then every field is read without further checks (VBody::read).
    //! Anything else (offset 0, an older or newer writer's body, malformed
    //! input) goes through read().
    FBE_INLINE static bool read_item(Decoder& d, std::size_t base, std::size_t slot, T& value) {
        constexpr uint32_t body_size = VBody<T>::body_size;
        const std::size_t body = base + load_u32(d.data + slot);
        if (FBE_LIKELY(VBody<T>::cost <= body_size && body >= d.mark && uint64_t(body) + body_size <= d.size &&
                       load<uint64_t>(d.data + body) == (uint64_t(VBody<T>::type_id) << 32 | body_size))) {
            d.mark = body + body_size;
            return read_body<T>(d, body, body_size, value);
        }
        return call_apart(d, [&](Decoder& c) { return read_apart(c, base, slot, value); });
    }
    FBE_NOINLINE static bool read_apart(Decoder& d, std::size_t base, std::size_t slot, T& value) {
        ++d.depth_left; // read() counts it again (d is the caller's copy)
        return read(d, base, slot, value);
    }
    template <class D>
    FBE_INLINE static bool verify(D& d, std::size_t base, std::size_t slot) {
        const uint32_t offset = load_u32(d.data + slot);
        if (offset == 0)
            return d.fail("struct", slot, "offset is 0");
        uint32_t size = 0;
        if (!d.template enter<VBody<T>::type_id, VBody<T>::body_size>(base + offset, size))
            return false;
        const bool ok = d.template charge_struct<T>(base + offset) && verify_body<T>(d, base + offset, size);
        d.leave();
        return ok;
    }
};

//! T?: u8 has_value + u32 offset -> value slot; the value slot is the base
//! of the value (docs/format.md 3.4). An absent optional reads as null.
template <typename T>
struct VOptional {
    using E = VCodec<T>;
    static constexpr std::size_t inline_size = 5;
    static constexpr bool fixed = false;
    static constexpr uint64_t share = 1;     // the flag; the value is charged as what it is
    static constexpr uint64_t item_cost = 1;
    static std::size_t extra(const std::optional<T>& value) noexcept {
        return value ? E::inline_size + E::extra(*value) : 0;
    }
    static void write(Encoder& e, std::size_t base, std::size_t slot, const std::optional<T>& value) noexcept {
        if (value) {
            const std::size_t position = e.allocate(E::inline_size);
            e.data[slot] = 1;
            store_u32(e.data + slot + 1, position - base);
            E::write(e, position, position, *value);
        } else {
            e.data[slot] = 0;
            store_u32(e.data + slot + 1, 0);
        }
    }
    FBE_INLINE static bool read(Decoder& d, std::size_t base, std::size_t slot, std::optional<T>& value) {
        if (d.data[slot] == 0) {
            value.reset();
            return true;
        }
        const uint32_t offset = load_u32(d.data + slot + 1);
        if (offset == 0)
            return d.fail("optional", slot, "present with offset 0");
        if (!d.claim(base + offset, E::inline_size, "optional value"))
            return false;
        if (!value)
            value.emplace();
        return E::read(d, base + offset, base + offset, *value);
    }
    template <class D>
    FBE_INLINE static bool verify(D& d, std::size_t base, std::size_t slot) {
        if (d.data[slot] == 0)
            return true;
        const uint32_t offset = load_u32(d.data + slot + 1);
        if (offset == 0)
            return d.fail("optional", slot, "present with offset 0");
        if (!d.claim(base + offset, E::inline_size, "optional value"))
            return false;
        return E::verify(d, base + offset, base + offset);
    }
};

//! T[N]: N slots in place.
template <typename T, std::size_t N>
struct VArray {
    using E = VCodec<T>;
    static constexpr std::size_t inline_size = N * E::inline_size;
    static constexpr bool fixed = E::fixed;
    static constexpr uint64_t share = N * E::share;
    static constexpr uint64_t item_cost = share > 1 ? share : 1;
    static std::size_t extra(const std::array<T, N>& value) noexcept {
        std::size_t total = 0;
        if constexpr (!E::fixed)
            for (const auto& item : value)
                total += E::extra(item);
        return total;
    }
    static void write(Encoder& e, std::size_t base, std::size_t slot, const std::array<T, N>& value) noexcept {
        for (std::size_t i = 0; i < N; ++i)
            E::write(e, base, slot + i * E::inline_size, value[i]);
    }
    FBE_INLINE static bool read(Decoder& d, std::size_t base, std::size_t slot, std::array<T, N>& value) {
        for (std::size_t i = 0; i < N; ++i)
            if (!E::read(d, base, slot + i * E::inline_size, value[i]))
                return false;
        return true;
    }
    template <class D>
    FBE_INLINE static bool verify(D& d, std::size_t base, std::size_t slot) {
        if constexpr (!E::fixed)
            for (std::size_t i = 0; i < N; ++i)
                if (!E::verify(d, base, slot + i * E::inline_size))
                    return false;
        return true;
    }
};

//! verify() of a key of a set, map or hash (`what`): the key, then the key
//! itself (read from where it was verified, which cannot fail then) for
//! `seen`; the same key twice fails here, as deserialize() does.
template <typename KC, typename K, typename Check, class D>
bool verify_key(D& d, std::size_t base, std::size_t slot, Check& seen, const char* what) {
    const Decoder before = d;
    if (!KC::verify(d, base, slot))
        return false;
    Decoder again = before;
    detail::Scratch<K> key;
    KC::read(again, base, slot, *key);
    return seen.add(std::move(*key)) || detail::duplicate_key(d.error, what, slot);
}

//! vector, list, set: offset -> u32 count + count slots; elements use the
//! same base as the slot (docs/format.md 3.4).
template <typename C, typename T>
struct VSequence {
    using E = VCodec<T>;
    static constexpr std::size_t inline_size = 4;
    static constexpr bool fixed = false;
    static constexpr uint64_t share = 4;
    static constexpr uint64_t item_cost = 4;
    static std::size_t extra(const C& value) noexcept {
        std::size_t total = 4 + value.size() * E::inline_size;
        if constexpr (!E::fixed)
            for (const auto& item : value)
                total += E::extra(item);
        return total;
    }
    static void write(Encoder& e, std::size_t base, std::size_t slot, const C& value) noexcept {
        const std::size_t count = value.size();
        const std::size_t position = e.allocate(4 + count * E::inline_size);
        store_u32(e.data + slot, position - base);
        store_u32(e.data + position, count);
        std::size_t item_slot = position + 4;
        for (const auto& item : value) {
            E::write(e, base, item_slot, item);
            item_slot += E::inline_size;
        }
    }
    FBE_INLINE static bool read(Decoder& d, std::size_t base, std::size_t slot, C& value) {
        const uint32_t offset = load_u32(d.data + slot);
        if constexpr (std::is_same_v<C, std::vector<T>> && !std::is_same_v<T, bool>) {
            // A reused vector keeps its elements (and their strings' and
            // vectors' memory): the first elements are read in place.
            if (offset == 0) {
                value.clear();
                return true;
            }
            uint32_t count = 0;
            if (!d.claim_counted(base + offset, E::inline_size, count, "collection")) {
                value.clear();
                return false;
            }
            const std::size_t item_slot = base + offset + 4;
            if constexpr (E::fixed) {
                // Values in the slots (scalars, arrays of them), all of which
                // claim_counted() found in the buffer: read without checks,
                // in a loop the compiler can vectorise.
                if (FBE_LIKELY(count * sizeof(T) <= kReserveFactor * d.size)) {
                    if (value.size() != count) // a reused vector usually has the size already
                        value.resize(count);
                    T* items = value.data();
                    if constexpr (Scalar<T>::raw) {
                        if (count != 0)
                            std::memcpy(static_cast<void*>(items), d.data + item_slot, count * sizeof(T));
                    } else {
                        for (std::size_t i = 0; i < count; ++i)
                            E::read(d, base, item_slot + i * E::inline_size, items[i]);
                    }
                    return true;
                }
            }
            if constexpr (std::is_base_of_v<VStruct<T>, E>) {
                // Every element is a struct one level deeper: the depth is
                // counted once for all of them (VStruct::read_item).
                if (FBE_LIKELY(d.depth_left != 0)) {
                    if constexpr (VBody<T>::fixed_fields)
                        if (FBE_LIKELY(read_packed(d, base, item_slot, count, value)))
                            return true;
                    --d.depth_left;
                    const bool ok = read_items<true>(d, base, item_slot, count, value);
                    d.leave();
                    return ok;
                }
            }
            return read_items<false>(d, base, item_slot, count, value);
        }
        value.clear();
        if (offset == 0)
            return true;
        uint32_t count = 0;
        if (!d.claim_counted(base + offset, E::inline_size, count, "collection"))
            return false;
        std::size_t item_slot = base + offset + 4;
        if constexpr (std::is_same_v<C, std::vector<T>>)
            if (count * sizeof(T) <= kReserveFactor * d.size) // count * slot size bytes are in the buffer
                value.reserve(count);
        for (uint32_t i = 0; i < count; ++i, item_slot += E::inline_size) {
            if constexpr (std::is_same_v<C, std::set<T>> || std::is_same_v<T, bool>) {
                detail::Scratch<T> item;
                if (!E::read(d, base, item_slot, *item))
                    return false;
                value.insert(value.end(), std::move(*item));
                if constexpr (std::is_same_v<C, std::set<T>>)
                    if (FBE_UNLIKELY(value.size() != i + 1))
                        return detail::duplicate_key(d.error, "set", item_slot);
            } else {
                if (!verified_first<false>(d, base, item_slot) || !E::read(d, base, item_slot, value.emplace_back()))
                    return false;
            }
        }
        return true;
    }
    //! The packed layout's offsets (read_packed, verify_packed): the mark
    //! minus base, then body_size more each time (u32: the callers have
    //! checked that they stay below 2^32), compared in one pass without
    //! branches, which the compiler vectorises; 0 when all match.
    template <class D>
    FBE_INLINE static uint32_t offset_mismatch(const D& d, std::size_t base, std::size_t item_slot, uint32_t count) {
        const uint8_t* slots = d.data + item_slot;
        uint32_t expected = uint32_t(d.mark - base);
        uint32_t mismatch = 0;
        for (std::size_t i = 0; i < count; ++i, expected += uint32_t(VBody<T>::body_size))
            mismatch |= load_u32(slots + i * E::inline_size) ^ expected;
        return mismatch;
    }
    //! Struct elements whose fields all lie in the body, laid out as the
    //! writer does (docs/format.md 3.5): the bodies back to back from the mark,
    //! each of exactly this schema's size. The buffer holding all of them is
    //! checked once; then each element only needs its offset and size field
    //! to match that layout, which covers every bound read() would check.
    //! The offsets are compared in one pass (a loop without branches, which
    //! the compiler vectorises), the size fields while the fields are read.
    //! Any other layout (a gap, offset 0, another writer's body size)
    //! returns false; the caller then reads every element again the general
    //! way, so what this pass stored does not matter.
    FBE_INLINE static bool read_packed(Decoder& d, std::size_t base, std::size_t item_slot, uint32_t count,
                                       std::vector<T>& value) {
        constexpr std::size_t body_size = VBody<T>::body_size;
        if constexpr (VBody<T>::cost > body_size)
            return false; // each is charged more than its bytes: read()
        const std::size_t first = d.mark;
        if (count > (d.size - first) / body_size || count * sizeof(T) > kReserveFactor * d.size ||
            first - base + std::size_t(count) * body_size > UINT32_MAX)
            return false;
        if (offset_mismatch(d, base, item_slot, count) != 0)
            return false;
        if (value.size() != count) // a reused vector usually has the size already
            value.resize(count);
        T* items = value.data();
        // Each header, body size and type id, compared as one u64.
        constexpr uint64_t header = uint64_t(VBody<T>::type_id) << 32 | body_size;
        uint64_t header_mismatch = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t body = first + i * body_size;
            header_mismatch |= load<uint64_t>(d.data + body) ^ header;
            read_body<T>(d, body, uint32_t(body_size), items[i]);
        }
        if (header_mismatch != 0)
            return false;
        d.mark = first + count * body_size;
        return true;
    }
    //! Reads `count` elements into a vector: in place into the elements a
    //! reused vector already has (keeping their strings' and vectors'
    //! memory), then appended. Structs take VStruct::read_item when the
    //! caller has counted their depth (`counted`).
    template <bool counted>
    FBE_INLINE static bool read_item(Decoder& d, std::size_t base, std::size_t slot, T& item) {
        if constexpr (counted)
            return E::read_item(d, base, slot, item);
        else
            return E::read(d, base, slot, item);
    }
    template <bool counted>
    FBE_INLINE static bool read_items(Decoder& d, std::size_t base, std::size_t item_slot, uint32_t count,
                                      std::vector<T>& value) {
        if (value.size() > count)
            value.erase(value.begin() + std::ptrdiff_t(count), value.end());
        const std::size_t reused = value.size();
        T* items = value.data(); // held in a register: element stores cannot move it
        for (std::size_t i = 0; i < reused; ++i, item_slot += E::inline_size)
            if (!read_item<counted>(d, base, item_slot, items[i])) {
                value.erase(value.begin() + std::ptrdiff_t(i + 1), value.end());
                return false;
            }
        if (reused == count)
            return true;
        if (count * sizeof(T) <= kReserveFactor * d.size) // count * slot size bytes are in the buffer
            value.reserve(count);
        for (std::size_t i = reused; i < count; ++i, item_slot += E::inline_size)
            if (!verified_first<counted>(d, base, item_slot) ||
                !read_item<counted>(d, base, item_slot, value.emplace_back()))
                return false;
        return true;
    }
    //! An element of a type larger than 4 KiB (a struct holding big fixed
    //! arrays) is made only once its bytes verify, on a copy of the decoder:
    //! one the budget refuses fails there as its read would, before the
    //! value is allocated (docs/limits.md 3). Smaller ones: nothing to do.
    template <bool counted>
    FBE_INLINE static bool verified_first(const Decoder& d, std::size_t base, std::size_t slot) {
        if constexpr (sizeof(T) > 4096) {
            Decoder copy = d;
            if constexpr (counted)
                ++copy.depth_left; // verify() counts the element's level itself
            return E::verify(copy, base, slot);
        }
        return true;
    }
    template <class D>
    FBE_INLINE static bool verify(D& d, std::size_t base, std::size_t slot) {
        const uint32_t offset = load_u32(d.data + slot);
        if (offset == 0)
            return true;
        uint32_t count = 0;
        if (!d.claim_counted(base + offset, E::inline_size, count, "collection"))
            return false;
        if constexpr (D::exact)
            if (!d.charge_exact(count * E::item_cost, "collection", base + offset))
                return false;
        if constexpr (std::is_same_v<C, std::set<T>>) {
            // What deserialize() refuses: the same element twice.
            detail::KeyCheck<C, T> seen;
            std::size_t item_slot = base + offset + 4;
            for (uint32_t i = 0; i < count; ++i, item_slot += E::inline_size)
                if (!verify_key<E, T>(d, base, item_slot, seen, "set"))
                    return false;
        } else if constexpr (!E::fixed) {
            std::size_t item_slot = base + offset + 4;
            if constexpr (std::is_base_of_v<VStruct<T>, E> && !D::exact) {
                if constexpr (VBody<T>::fixed_fields) {
                    bool ok = true;
                    if (FBE_LIKELY(verify_packed(d, base, item_slot, count, ok)))
                        return ok;
                }
            }
            for (uint32_t i = 0; i < count; ++i, item_slot += E::inline_size)
                if (!E::verify(d, base, item_slot))
                    return false;
        }
        return true;
    }
    //! verify() of struct elements laid out as read_packed() takes them: the
    //! bodies back to back from the mark, each of exactly this schema's size
    //! and type id. The offsets are compared in one pass (vectorised), the
    //! headers in another; then each body's own checks run as
    //! VStruct::verify() runs them, the mark at its end: the same verdict and
    //! error as the general way, which takes any other layout (false, the
    //! decoder untouched). `ok` is the verdict when this returns true.
    template <class D>
    FBE_INLINE static bool verify_packed(D& d, std::size_t base, std::size_t item_slot, uint32_t count, bool& ok) {
        constexpr std::size_t body_size = VBody<T>::body_size;
        if constexpr (VBody<T>::cost > body_size)
            return false; // each is charged more than its bytes: VStruct::verify
        const std::size_t first = d.mark;
        if (d.depth_left == 0 || count > (d.size - first) / body_size ||
            first - base + std::size_t(count) * body_size > UINT32_MAX)
            return false;
        const uint32_t mismatch = offset_mismatch(d, base, item_slot, count);
        constexpr uint64_t header = uint64_t(VBody<T>::type_id) << 32 | body_size;
        uint64_t header_mismatch = 0;
        for (std::size_t i = 0; i < count; ++i)
            header_mismatch |= load<uint64_t>(d.data + first + i * body_size) ^ header;
        if ((mismatch | header_mismatch) != 0)
            return false;
        --d.depth_left;
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t body = first + i * body_size;
            d.mark = body + body_size;
            if (!verify_body<T>(d, body, uint32_t(body_size))) {
                ok = false;
                break;
            }
        }
        d.leave();
        return true;
    }
};


//! map and hash: offset -> u32 count + count (key slot, value slot) pairs.
template <typename M, typename K, typename V>
struct VMapping {
    using KC = VCodec<K>;
    using VC = VCodec<V>;
    static constexpr std::size_t pair_size = KC::inline_size + VC::inline_size;
    static constexpr std::size_t inline_size = 4;
    static constexpr bool fixed = false;
    static constexpr uint64_t share = 4;
    static constexpr uint64_t item_cost = 4;
    static std::size_t extra(const M& value) noexcept {
        std::size_t total = 4 + value.size() * pair_size;
        if constexpr (!KC::fixed || !VC::fixed)
            for (const auto& [k, v] : value)
                total += KC::extra(k) + VC::extra(v);
        return total;
    }
    static void write(Encoder& e, std::size_t base, std::size_t slot, const M& value) noexcept {
        const std::size_t count = value.size();
        const std::size_t position = e.allocate(4 + count * pair_size);
        store_u32(e.data + slot, position - base);
        store_u32(e.data + position, count);
        std::size_t pair = position + 4;
        for (const auto& [k, v] : value) {
            KC::write(e, base, pair, k);
            VC::write(e, base, pair + KC::inline_size, v);
            pair += pair_size;
        }
    }
    static bool read(Decoder& d, std::size_t base, std::size_t slot, M& value) {
        value.clear();
        const uint32_t offset = load_u32(d.data + slot);
        if (offset == 0)
            return true;
        uint32_t count = 0;
        if (!d.claim_counted(base + offset, pair_size, count, "map"))
            return false;
        std::size_t pair = base + offset + 4;
        for (uint32_t i = 0; i < count; ++i, pair += pair_size) {
            detail::Scratch<K> key;
            if (!KC::read(d, base, pair, *key))
                return false;
            if constexpr (sizeof(V) > 4096) {
                // a value larger than 4 KiB is made only once its bytes verify (as VSequence's elements)
                if (FBE_UNLIKELY(value.find(*key) != value.end()))
                    return detail::duplicate_key(d.error, "map", pair);
                auto copy = d;
                if (!VC::verify(copy, base, pair + KC::inline_size))
                    return false;
            }
            auto it = value.emplace_hint(value.end(), std::piecewise_construct, std::forward_as_tuple(std::move(*key)),
                                         std::forward_as_tuple());
            if (FBE_UNLIKELY(value.size() != i + 1))
                return detail::duplicate_key(d.error, "map", pair);
            if (!VC::read(d, base, pair + KC::inline_size, it->second))
                return false;
        }
        return true;
    }
    template <class D>
    static bool verify(D& d, std::size_t base, std::size_t slot) {
        const uint32_t offset = load_u32(d.data + slot);
        if (offset == 0)
            return true;
        uint32_t count = 0;
        if (!d.claim_counted(base + offset, pair_size, count, "map"))
            return false;
        if constexpr (D::exact)
            if (!d.charge_exact(count * (KC::item_cost + VC::item_cost), "map", base + offset))
                return false;
        // What deserialize() refuses: the same key twice.
        detail::KeyCheck<M, K> seen;
        std::size_t pair = base + offset + 4;
        for (uint32_t i = 0; i < count; ++i, pair += pair_size)
            if (!verify_key<KC, K>(d, base, pair, seen, "map") || !VC::verify(d, base, pair + KC::inline_size))
                return false;
        return true;
    }
};

namespace detail {
//! A field of a struct's body (VBody<T>::fields): the data member, the slot's offset in the body, the field's
//! name, what its default costs beyond the struct's own charge (the default struct values it holds: an older
//! writer's body that lacks it pays for them, docs/limits.md 3), and its slot codec. The slot ends at
//! offset + Codec::inline_size.
template <typename T, typename M>
struct Slot {
    using Codec = VCodec<M>;
    M T::*member;
    uint32_t offset;
    const char* name;
    uint64_t defaults;
};
template <typename T, typename M>
constexpr Slot<T, M> slot(M T::*member, uint32_t offset, const char* name, uint64_t defaults = 0) noexcept {
    return {member, offset, name, defaults};
}
template <typename S>
using CodecOfSlot = typename std::decay_t<S>::Codec;

//! The base struct of T (VBody<T>::base), or void.
template <typename Body, typename = void>
struct BaseOf {
    using type = void;
};
template <typename Body>
struct BaseOf<Body, std::void_t<typename Body::base>> {
    using type = typename Body::base;
};

template <typename T>
FBE_NOINLINE bool read_older(Decoder& d, std::size_t body, uint32_t size, T& value);     // (below)
template <typename T, class D>
FBE_NOINLINE bool verify_older(D& d, std::size_t body, uint32_t size);     // (below)

//! The number of a struct's own fields (VBody<T>::fields).
template <typename T>
constexpr std::size_t field_count = std::tuple_size_v<std::decay_t<decltype(VBody<T>::fields)>>;

//! The own fields of verify_fields from the I-th on, in order: each whose codec checks something (not
//! `fixed`), named after the struct and field when it fails.
template <typename T, std::size_t I, class D>
FBE_INLINE bool verify_from(D& d, std::size_t body) {
    if constexpr (I == field_count<T>) {
        return true;
    } else {
        constexpr auto& slot = std::get<I>(VBody<T>::fields);
        using C = CodecOfSlot<decltype(slot)>;
        if constexpr (!C::fixed)
            if (!C::verify(d, body, body + slot.offset))
                return d.fail_in(VBody<T>::name, slot.name);
        return verify_from<T, I + 1>(d, body);
    }
}

//! The type of the I-th own field's data member, and whether it is read without a check (a scalar, not a
//! decimal, whose flags are checked).
template <typename T, std::size_t I>
using SlotMember = std::decay_t<decltype(std::declval<T&>().*std::get<I>(VBody<T>::fields).member)>;
template <typename T, std::size_t I>
constexpr bool unchecked_scalar() {
    if constexpr (I < field_count<T>)
        return is_scalar_v<SlotMember<T, I>> && !std::is_same_v<SlotMember<T, I>, decimal_t>;
    else
        return false;
}

//! The run of unchecked scalars from the I-th own field on: each loaded before any is stored, as `value` may
//! alias the bytes as far as the compiler knows (only then may it merge neighbouring loads and stores).
template <typename T, std::size_t I>
FBE_INLINE void read_scalars(const Decoder& d, std::size_t body, T& value) {
    constexpr auto& slot = std::get<I>(VBody<T>::fields);
    const auto loaded = Scalar<SlotMember<T, I>>::get(d.data + body + slot.offset);
    if constexpr (unchecked_scalar<T, I + 1>())
        read_scalars<T, I + 1>(d, body, value);
    value.*slot.member = loaded;
}
//! The index of the first own field from I on that is not an unchecked scalar.
template <typename T, std::size_t I>
constexpr std::size_t after_scalars() {
    if constexpr (unchecked_scalar<T, I>())
        return after_scalars<T, I + 1>();
    else
        return I;
}

//! The own fields of read_fields from the I-th on, each at its offset without a size check (the body lies in
//! the buffer): runs of unchecked scalars through read_scalars, the others named after the struct and field
//! when they fail.
template <typename T, std::size_t I>
FBE_INLINE bool read_from(Decoder& d, std::size_t body, T& value) {
    if constexpr (I == field_count<T>) {
        return true;
    } else if constexpr (unchecked_scalar<T, I>()) {
        read_scalars<T, I>(d, body, value);
        return read_from<T, after_scalars<T, I>()>(d, body, value);
    } else {
        constexpr auto& slot = std::get<I>(VBody<T>::fields);
        using C = CodecOfSlot<decltype(slot)>;
        if (!C::read(d, body, body + slot.offset, value.*slot.member))
            return d.fail_in(VBody<T>::name, slot.name);
        return read_from<T, I + 1>(d, body, value);
    }
}

//! read() of a struct's body over its table VBody<T>::fields (docs/format.md 3.6): an older writer's shorter
//! body out of line (read_older), else the base's fields, then its own (read_from).
template <typename T>
FBE_INLINE bool read_fields(Decoder& d, std::size_t body, uint32_t size, T& value) {
    using B = typename BaseOf<VBody<T>>::type;
    if constexpr (std::is_void_v<B> && field_count<T> == 0) {
        return true;
    } else {
        if (FBE_UNLIKELY(size < VBody<T>::body_size))
            return call_apart(d, [&](Decoder& c) { return read_older<T>(c, body, size, value); });
        if constexpr (!std::is_void_v<B>)
            if (!read_body<B>(d, body, size, value))
                return false;
        return read_from<T, 0>(d, body, value);
    }
}

//! verify() of a struct's body over its table VBody<T>::fields (docs/format.md 5.1): an older writer's shorter
//! body out of line (verify_older), else the base's fields, then its own (verify_from).
template <typename T, class D>
FBE_INLINE bool verify_fields(D& d, std::size_t body, uint32_t size) {
    using B = typename BaseOf<VBody<T>>::type;
    if constexpr (std::is_void_v<B> && field_count<T> == 0) {
        return true;
    } else {
        if (FBE_UNLIKELY(size < VBody<T>::body_size))
            return call_apart(d, [&](D& c) { return verify_older<T>(c, body, size); });
        if constexpr (!std::is_void_v<B>)
            if (!verify_body<B>(d, body, size))
                return false;
        return verify_from<T, 0>(d, body);
    }
}

//! VBody<T>::read and verify through read_fields and verify_fields: forced inline where the generator inlines
//! the struct's readers (`inlined`, the cheap ones), ordinary inline functions otherwise.
template <typename T, bool Inlined>
struct VReaders {
    static constexpr bool inlined = false;
    static bool read(Decoder& d, std::size_t body, uint32_t size, T& value) {
        return read_fields<T>(d, body, size, value);
    }
    template <class D>
    static bool verify(D& d, std::size_t body, uint32_t size) {
        return verify_fields<T>(d, body, size);
    }
};
template <typename T>
struct VReaders<T, true> {
    static constexpr bool inlined = true;
    FBE_INLINE static bool read(Decoder& d, std::size_t body, uint32_t size, T& value) {
        return read_fields<T>(d, body, size, value);
    }
    template <class D>
    FBE_INLINE static bool verify(D& d, std::size_t body, uint32_t size) {
        return verify_fields<T>(d, body, size);
    }
};

//! The writer and readers of a struct's body over its table VBody<T>::fields (the generated VBody<T> derives
//! from it): the base's fields first, then each own field's slot at its offset, in order (docs/format.md 3.5).
template <typename T, bool Inlined>
struct VFields : VReaders<T, Inlined> {
    //! The bytes of out-of-line data of the fields.
    static std::size_t extra(const T& value) noexcept {
        return std::apply([&](const auto&... slot) {
            return (base_extra(value) + ... + CodecOfSlot<decltype(slot)>::extra(value.*slot.member));
        }, VBody<T>::fields);
    }
    static void write(Encoder& e, std::size_t body, const T& value) noexcept {
        using B = typename BaseOf<VBody<T>>::type;
        if constexpr (!std::is_void_v<B>)
            VBody<B>::write(e, body, value);
        std::apply([&](const auto&... slot) {
            (CodecOfSlot<decltype(slot)>::write(e, body, body + slot.offset, value.*slot.member), ...);
        }, VBody<T>::fields);
    }

private:
    static std::size_t base_extra(const T& value) noexcept {
        using B = typename BaseOf<VBody<T>>::type;
        if constexpr (std::is_void_v<B>)
            return 0;
        else
            return VBody<B>::extra(value);
    }
};

//! What the defaults of the fields a body of `size` bytes lacks cost beyond the struct (docs/limits.md 3): those
//! of all the base's fields when it lacks the base's, and of each own field whose slot ends after `size`.
template <typename T>
constexpr uint64_t lacking_defaults(uint32_t size) noexcept {
    uint64_t defaults = 0;
    using B = typename BaseOf<VBody<T>>::type;
    if constexpr (!std::is_void_v<B>)
        if (size < VBody<B>::body_size)
            defaults = lacking_defaults<B>(0);
    std::apply([&](const auto&... slot) {
        ((defaults += size < slot.offset + CodecOfSlot<decltype(slot)>::inline_size ? slot.defaults : 0), ...);
    }, VBody<T>::fields);
    return defaults;
}

//! The first field of a struct, inherited ones first (nullptr without fields).
template <typename T>
constexpr const char* first_field() noexcept {
    using B = typename BaseOf<VBody<T>>::type;
    if constexpr (!std::is_void_v<B>)
        if (first_field<B>())
            return first_field<B>();
    if constexpr (field_count<T> != 0)
        return std::get<0>(VBody<T>::fields).name;
    return nullptr;
}

//! The field the charge of a body of `size` bytes is named after (docs/limits.md 3): the first it lacks (the
//! base's fields as the first field of all), the last when it lacks none of them; none (nullptr: the struct's
//! name alone) when the defaults of its fields cost nothing.
template <typename T>
constexpr const char* lacking_field(uint32_t size) noexcept {
    if (lacking_defaults<T>(0) == 0)
        return nullptr;
    using B = typename BaseOf<VBody<T>>::type;
    if constexpr (!std::is_void_v<B>)
        if (size < VBody<B>::body_size)
            return first_field<T>();
    const char* name = first_field<T>();
    bool found = false;
    std::apply([&](const auto&... slot) {
        ((found || (name = slot.name, found = size < slot.offset + CodecOfSlot<decltype(slot)>::inline_size)), ...);
    }, VBody<T>::fields);
    return name;
}

//! An older writer's body of `size` bytes (read_older, verify_older): charges the struct and the defaults of
//! the fields it lacks on `d`, named after the struct and lacking_field, and checks the budget.
template <typename T, class D>
bool charge_older(D& d, std::size_t body, uint32_t size) {
    return d.charge_older(VBody<T>::cost, lacking_defaults<T>(size), VBody<T>::name, lacking_field<T>(size), body);
}

//! The body of an older writer, shorter than this schema's (VBody<T>::read's out-of-line path): charges what it
//! lacks (charge_older), gives `value` its schema defaults, then reads the fields the body holds: the base's
//! fields all or none, each own field when the body holds its slot (docs/format.md 3.6).
template <typename T>
FBE_NOINLINE bool read_older(Decoder& d, std::size_t body, uint32_t size, T& value) {
    if (!charge_older<T>(d, body, size))
        return false;
    assign_default(value);
    using B = typename BaseOf<VBody<T>>::type;
    if constexpr (!std::is_void_v<B>)
        if (size >= VBody<B>::body_size && !read_body<B>(d, body, size, value))
            return false;
    const auto field = [&](const auto& slot) {
        using C = CodecOfSlot<decltype(slot)>;
        return size < slot.offset + C::inline_size || C::read(d, body, body + slot.offset, value.*slot.member) ||
               d.fail_in(VBody<T>::name, slot.name);
    };
    return std::apply([&](const auto&... slots) { return (field(slots) && ...); }, VBody<T>::fields);
}

//! verify() of an older writer's body: charges what it lacks as read_older does (the same error at the same
//! place), then verifies the fields the body holds.
template <typename T, class D>
FBE_NOINLINE bool verify_older(D& d, std::size_t body, uint32_t size) {
    if (!charge_older<T>(d, body, size))
        return false;
    using B = typename BaseOf<VBody<T>>::type;
    if constexpr (!std::is_void_v<B>)
        if (size >= VBody<B>::body_size && !verify_body<B>(d, body, size))
            return false;
    const auto field = [&](const auto& slot) {
        using C = CodecOfSlot<decltype(slot)>;
        if constexpr (C::fixed)     // (nothing to check)
            return true;
        else
            return size < slot.offset + C::inline_size || C::verify(d, body, body + slot.offset) ||
                   d.fail_in(VBody<T>::name, slot.name);
    };
    return std::apply([&](const auto&... slots) { return (field(slots) && ...); }, VBody<T>::fields);
}
} // namespace detail

//! The versioned model of a root struct T (docs/format.md 3.2). With
//! TBuffer = WriteBuffer it serializes (appending one root per call, each
//! root self-relative) and can also attach a copy of bytes to read; with
//! TBuffer = ReadBuffer it reads caller memory without copying.
template <typename T, typename TBuffer = WriteBuffer>
class Model : public ModelBase<T, TBuffer> {
    using ModelBase<T, TBuffer>::_buffer;
    using ModelBase<T, TBuffer>::_error;

public:
    static constexpr uint32_t fbe_type() noexcept { return VBody<T>::type_id; }

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
        constexpr std::size_t body_size = VBody<T>::body_size;
        const std::size_t total = 8 + body_size + VBody<T>::extra(value);
        if (!this->sized(total))
            return 0;
        const std::size_t root = _buffer.allocate(total);
        Encoder e{_buffer.data() + root, 8 + body_size};
        store_u32(e.data, total);
        store_u32(e.data + 4, 8);
        store_u32(e.data + 8, body_size);
        store_u32(e.data + 12, VBody<T>::type_id);
        VBody<T>::write(e, 8, value);
        assert(e.end == total);
        return total;
    }

    //! Reads the root at the start of the buffer into `value`. Returns the
    //! root's total size (as the original), or 0 when the buffer is
    //! malformed (see error()); fields then hold what was read so far.
    std::size_t deserialize(T& value) const {
        if (!this->begin_read())
            return 0;
        // The checks of verify(), so that deserialize() succeeds exactly
        // when verify() does (docs/limits.md 4).
        const uint8_t* data = _buffer.data();
        const uint32_t total = load_u32(data);
        if (!this->root_fits(total, 16))
            return 0;
        Decoder d(data, total, &_error, this->_limits);
        if (FBE_LIKELY(VCodec<T>::read(d, 0, 4, value) && d.within_budget("root", 0)))
            return total;
        return read_counted(value);
    }

    //! Checks the root at the start of the buffer (docs/format.md 5.1, stricter
    //! where the original misses malformed input, see docs/cpp.md).
    bool verify() const {
        if (!this->begin_read())
            return false;
        const uint8_t* data = _buffer.data();
        const uint32_t total = load_u32(data);
        if (!this->root_fits(total, 16))
            return false;
        Decoder d(data, total, &_error, this->_limits);
        if (FBE_LIKELY(VCodec<T>::verify(d, 0, 4) && d.within_budget("root", 0)))
            return true;
        return counted();
    }

private:
    //! The exact count (ExactDecoder) of a root whose read or verify failed,
    //! which may be the count from above exceeding the budget where the
    //! exact charges do not (docs/limits.md 3): true when it fits, else
    //! false with the error of the first charge beyond the budget, or of
    //! the malformed input.
    FBE_NOINLINE bool counted() const {
        const uint32_t total = load_u32(_buffer.data()); // the root's size, which the read checked
        _error.clear();
        ExactDecoder d(_buffer.data(), total, &_error, this->_limits);
        return VCodec<T>::verify(d, 0, 4);
    }
    //! deserialize() after a failed read: the exact count decides; when it
    //! fits, the read again with the budget it has proven paid.
    FBE_NOINLINE std::size_t read_counted(T& value) const {
        if (!counted())
            return 0;
        const uint32_t total = load_u32(_buffer.data());
        Limits paid = this->_limits;
        paid.budget_slack = UINT64_MAX;
        Decoder d(_buffer.data(), total, &_error, paid);
        return VCodec<T>::read(d, 0, 4, value) ? total : 0;
    }
};

} // namespace FBE
