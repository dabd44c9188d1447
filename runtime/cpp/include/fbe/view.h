// Fast Binary Encoding C++ runtime: views, the fast read-only way through a
// versioned root in place (docs/cpp.md "Views").
//
// A view is a value: the root's bytes (a pointer and a size), the position
// of what it shows and the origin its offsets count from (the body of the
// struct or the block of the optional that holds it), checked when the view
// is made. Nothing is
// reached through a pointer to a buffer or a model, so a view lives in
// registers and a field's read is one comparison and one load:
//
//     FBE::View<graph::Graph> graph = FBE::view<graph::Graph>(data, size);
//     auto nodes = graph.nodes();                  // View<std::vector<graph::Node>>
//     for (std::size_t i = 0; i < nodes.size(); ++i)
//         sum += nodes[i].value_();                // View<graph::Node>, then int64_t
//
// A scalar field reads as its value, a string as a std::string_view, and
// every other type as its View<T>. What the buffer does not hold (an absent
// field, an older writer's shorter body, an offset, a count or a body that
// does not lie in the root, a body of another type) reads as the field's
// default, an empty collection or an absent struct: a view never reads
// outside the root's bytes, verified or not. A view does not check what
// verify() checks of the whole root (the order of the blocks, the budget),
// so it gives deserialize()'s values for a root that verify() accepts.
// get(value) of any view is deserialize()'s reader (VCodec<T>::read) from
// the view's slot, with its checks and the default limits.
//
// Generated code specialises View<S> for every struct S
// (<package>_field_models.h) on top of StructView<S>: one accessor per own
// field, parent() for the base's fields.

#pragma once

#include "fbe/versioned.h"

#include <iterator>
#include <string_view>
#include <type_traits>
#include <utility>

namespace FBE {

//! `Verified`: made by verified_view() of a root verify() accepts, whose
//! reads skip the checks that verify() has made once (see below).
template <typename T, bool Verified = false>
class View;

//! The view of a verified root and what is reached from it.
template <typename T>
using VerifiedView = View<T, true>;

template <typename T>
View<T> view(const uint8_t* data, std::size_t size) noexcept;

namespace detail {

//! get() of a whole value at a slot of a root (offsets count from `data`):
//! the versioned reader, its out-of-line data anywhere after the slot.
template <typename T>
bool read_slot(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot, T& value) {
    std::string error;
    const Limits limits;
    Decoder d(data, size, &error, limits);
    d.mark = slot + VCodec<T>::inline_size;
    return VCodec<T>::read(d, origin, slot, value) && d.within_budget("field", slot);
}

//! What reading an item or a field of type T gives: the value of a fixed-size
//! type, a std::string_view of a string, else a View<T, Verified>.
template <typename T, bool Verified = false, typename Enable = void>
struct ViewOf {
    using type = View<T, Verified>;
    static constexpr std::size_t size = VCodec<T>::inline_size;
    //! `slot`: `size` bytes that lie in the root; its offsets count from `origin`.
    static type at(const uint8_t* data, std::size_t root_size, std::size_t origin, std::size_t slot) noexcept {
        return type(data, root_size, origin, slot);
    }
    static type absent(const uint8_t* data, std::size_t root_size) noexcept { return type(data, root_size); }
};

//! A field's default: the value, or what a function returns (a default
//! made when read, or one not cheap to make: decimal, uuid, utc).
template <typename T, typename D>
T default_of(const D& defaults) {
    if constexpr (std::is_invocable_v<const D&>)
        return defaults();
    else
        return T(defaults);
}

template <typename T, bool Verified>
struct ViewOf<T, Verified, std::enable_if_t<Scalar<T>::defined>> {
    using type = T;
    static constexpr std::size_t size = Scalar<T>::size;
    template <typename D = T>
    static T at(const uint8_t* data, std::size_t, std::size_t, std::size_t slot, const D& defaults = D()) noexcept {
        if constexpr (std::is_same_v<T, decimal_t>) {
            T value;
            return Scalar<T>::get_checked(data + slot, value) ? value : default_of<T>(defaults);
        } else {
            return Scalar<T>::get(data + slot);
        }
    }
    template <typename D = T>
    static T absent(const uint8_t*, std::size_t, const D& defaults = D()) noexcept {
        return default_of<T>(defaults);
    }
};

//! A string's bytes: empty when the slot holds 0 (or the bytes are not in
//! the root; verified: they are).
template <bool Verified>
struct ViewOf<std::string, Verified> {
    using type = std::string_view;
    static constexpr std::size_t size = 4;
    static std::string_view at(const uint8_t* data, std::size_t root_size, std::size_t origin, std::size_t slot,
                               std::string_view defaults = {}) noexcept {
        const uint32_t offset = load_u32(data + slot);
        if (offset == 0)
            return {};
        const std::size_t at = origin + offset;
        if (!Verified && at + 4 > root_size)
            return defaults;
        const uint32_t length = load_u32(data + at);
        if (!Verified && length > root_size - at - 4)
            return defaults;
        return std::string_view(reinterpret_cast<const char*>(data + at + 4), length);
    }
    static std::string_view absent(const uint8_t*, std::size_t, std::string_view defaults = {}) noexcept {
        return defaults;
    }
};

template <typename T, bool Verified = false>
using view_t = typename ViewOf<T, Verified>::type;

//! A verified item view made from its slot's offset, which the collection
//! loaded (SequenceView::operator[]).
struct OffsetLoaded {};

//! Where a struct's body is and its size ({0, 0}: none).
struct BodyFound {
    std::size_t at;
    uint32_t size;
};

//! The body at `at` when its header lies in the root (`size` bytes), its
//! size fits the root and its type is `type_id`; else none. Out of line:
//! StructView finds the usual body without it.
FBE_NOINLINE inline BodyFound find_body(const uint8_t* data, std::size_t size, std::size_t at,
                                        uint32_t type_id) noexcept {
    if (at + 8 <= size) {
        const uint32_t body = load_u32(data + at);
        if (body <= size - at && load_u32(data + at + 4) == type_id)
            return {at, body};
    }
    return {0, 0};
}

//! Iterator of a collection view: the position of an item's slot, moved on
//! by the item's size (every item from begin() to end() lies in the root,
//! which the collection's view checked once). Items of a fixed-size type
//! (`InPlace`): a pointer to the slot, which is all their read needs.
template <typename Item, bool Verified, std::size_t ItemSize = ViewOf<Item>::size,
          bool InPlace = Scalar<Item>::defined>
class ViewIterator {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = view_t<Item, Verified>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;

    ViewIterator(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : _data(data), _size(size), _origin(origin), _slot(slot) {}
    value_type operator*() const noexcept { return ViewOf<Item, Verified>::at(_data, _size, _origin, _slot); }
    ViewIterator& operator++() noexcept {
        _slot += ItemSize;
        return *this;
    }
    ViewIterator operator++(int) noexcept {
        ViewIterator before = *this;
        _slot += ItemSize;
        return before;
    }
    bool operator==(const ViewIterator& other) const noexcept { return _slot == other._slot; }
    bool operator!=(const ViewIterator& other) const noexcept { return _slot != other._slot; }

private:
    const uint8_t* _data;
    std::size_t _size;
    std::size_t _origin;
    std::size_t _slot;
};

template <typename Item, bool Verified, std::size_t ItemSize>
class ViewIterator<Item, Verified, ItemSize, true> {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Item;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;

    ViewIterator(const uint8_t* data, std::size_t, std::size_t, std::size_t slot) noexcept : _at(data + slot) {}
    value_type operator*() const noexcept { return ViewOf<Item, Verified>::at(_at, 0, 0, 0); }
    ViewIterator& operator++() noexcept {
        _at += ItemSize;
        return *this;
    }
    ViewIterator operator++(int) noexcept {
        ViewIterator before = *this;
        _at += ItemSize;
        return before;
    }
    bool operator==(const ViewIterator& other) const noexcept { return _at == other._at; }
    bool operator!=(const ViewIterator& other) const noexcept { return _at != other._at; }

private:
    const uint8_t* _at;
};

} // namespace detail

//! What every view has: the root's bytes, the slot it shows (`kAbsent` when
//! there is none), and get(value) through deserialize()'s reader.
template <typename T>
class ViewBase {
public:
    static constexpr std::size_t kAbsent = ~std::size_t(0);

    //! The view of nothing (an absent field).
    ViewBase() noexcept = default;
    ViewBase(const uint8_t* data, std::size_t size, std::size_t origin = 0, std::size_t slot = kAbsent) noexcept
        : _data(data), _size(size), _origin(origin), _slot(slot) {}

    //! Reads the whole value (deserialize()'s reader); a slot that is not
    //! there or a malformed value stores `defaults` and returns false.
    bool get(T& value, const T& defaults = T()) const {
        if (_slot != kAbsent && detail::read_slot(_data, _size, _origin, _slot, value))
            return true;
        value = defaults;
        return false;
    }
    //! The slot's position in the root (kAbsent: none).
    std::size_t fbe_offset() const noexcept { return _slot; }

protected:
    const uint8_t* _data = nullptr;
    std::size_t _size = 0;
    std::size_t _origin = 0; //!< where the slot's offsets count from
    std::size_t _slot = kAbsent;
};

//! What a view's read of a T gives, the result type of every generated View<S>'s accessor: the value of a
//! scalar (a primitive but string and bytes, an enum, flags), std::string_view of a string, else View<T>.
template <typename T, bool Verified = false>
using ViewResult = detail::view_t<T, Verified>;

//! What the generated View<S> of a struct S builds on: the body found (its
//! position and size, 0 when none was found) and the reads of its fields.
template <typename S, bool Verified = false>
class StructView : public ViewBase<S> {
public:
    StructView() noexcept = default;
    //! The view of no body.
    StructView(const uint8_t* data, std::size_t size) noexcept : ViewBase<S>(data, size) {}
    //! The body the slot points to, when its header lies in the root, its
    //! size fits the root and its type is S's; else no body.
    //! The usual body (the schema's size and S's type, in the root) is
    //! found by one bounds check and one compare of its 8-byte header; any
    //! other (longer, shorter, absent, of another type) by detail::find_body.
    //! Verified: the body is there, of S's type and at least the schema's
    //! size (verified_view() made sure of it), so nothing is checked.
    StructView(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<S>(data, size, origin, slot) {
        const uint32_t offset = load_u32(data + slot);
        if constexpr (Verified) {
            _body = origin + offset;
            _body_size = VBody<S>::body_size; // or more: the fields past the schema's are not read
        } else {
            constexpr uint32_t full = VBody<S>::body_size;
            constexpr uint64_t header = uint64_t(VBody<S>::type_id) << 32 | full;
            // origin <= size: the offsets beyond `last` put the body's end past
            // the root's (one compare, `last` the same for every item of a vector).
            const std::ptrdiff_t last = std::ptrdiff_t(size - origin) - std::ptrdiff_t(full);
            if (FBE_LIKELY(std::ptrdiff_t(offset) <= last && load<uint64_t>(data + origin + offset) == header)) {
                _body = origin + offset;
                _body_size = full;
            } else {
                const detail::BodyFound found = detail::find_body(data, size, origin + offset, VBody<S>::type_id);
                _body = found.at;
                _body_size = found.size;
            }
        }
    }

    //! Verified: the body at `offset` from `origin`, the offset the slot holds.
    StructView(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot, uint32_t offset,
               detail::OffsetLoaded) noexcept
        : ViewBase<S>(data, size, origin, slot), _body(origin + offset), _body_size(VBody<S>::body_size) {
        static_assert(Verified, "only a verified view trusts the offset");
    }

    //! True when the body was found (every field then reads from it).
    bool has_value() const noexcept { return _body_size >= 8; }
    explicit operator bool() const noexcept { return has_value(); }
    static constexpr uint32_t fbe_type() noexcept { return VBody<S>::type_id; }
    //! The body's position in the root and its size (0: none found).
    std::size_t fbe_body() const noexcept { return _body; }
    uint32_t fbe_body_size() const noexcept {
        if constexpr (Verified)
            return has_value() ? load_u32(this->_data + _body) : 0;
        return _body_size;
    }

protected:
    //! The view of a base's fields in a derived struct's body.
    template <typename B>
    View<B, Verified> fbe_part() const noexcept {
        View<B, Verified> part(this->_data, this->_size);
        part._body = _body;
        part._body_size = _body_size;
        return part;
    }
    //! The field of type T whose slot is at `offset` in the body: read when
    //! the body holds the slot (an older writer's may not), else absent.
    //! Verified, `_body_size` is the schema's (a body was found) or 0, known
    //! where the view was made, so the compiler drops the compare.
    template <typename T, typename... Defaults>
    detail::view_t<T, Verified> fbe_field(std::size_t offset, const Defaults&... defaults) const noexcept {
        using Of = detail::ViewOf<T, Verified>;
        if (offset + Of::size <= _body_size)
            return Of::at(this->_data, this->_size, _body, _body + offset, defaults...);
        return Of::absent(this->_data, this->_size, defaults...);
    }

    template <typename, bool>
    friend class View;
    template <typename, bool>
    friend class StructView;

    std::size_t _body = 0;
    uint32_t _body_size = 0;
};

//! Vectors, lists and sets: size() and operator[] (the item's view or value).
template <typename T, typename Item, bool Verified, std::size_t ItemSize = detail::ViewOf<Item>::size>
class CollectionView : public ViewBase<T> {
public:
    CollectionView() noexcept = default;
    CollectionView(const uint8_t* data, std::size_t size) noexcept : ViewBase<T>(data, size) {}
    //! The items the slot points to, when the count and the items lie in the
    //! root (verified: they do); else none.
    CollectionView(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<T>(data, size, origin, slot) {
        const uint32_t offset = load_u32(data + slot);
        const std::size_t at = origin + offset;
        if (offset != 0 && (Verified || at + 4 <= size)) {
            const uint32_t count = load_u32(data + at);
            if (Verified || uint64_t(count) * ItemSize <= size - at - 4) {
                _items = at + 4;
                _count = count;
                _first = data + _items;
            }
        }
    }

    std::size_t size() const noexcept { return _count; }
    bool empty() const noexcept { return _count == 0; }

protected:
    std::size_t _items = 0;
    std::size_t _count = 0;
    const uint8_t* _first = nullptr; //!< the first item's slot

};

template <typename C, typename T, bool Verified>
class SequenceView : public CollectionView<C, T, Verified> {
public:
    using CollectionView<C, T, Verified>::CollectionView;
    using iterator = detail::ViewIterator<T, Verified>;

    //! Item `index`: its view or value; absent beyond the items.
    detail::view_t<T, Verified> operator[](std::size_t index) const noexcept {
        using Of = detail::ViewOf<T, Verified>;
        if (index < this->_count) {
            if constexpr (Verified && std::is_base_of_v<StructView<T, true>, detail::view_t<T, true>>) {
                // The offset loaded from the first slot's pointer, the same
                // for every index: a loop over items keeps it in a register
                // and loads each offset with one instruction.
                const std::size_t slot = this->_items + index * Of::size;
                return View<T, true>(this->_data, this->_size, this->_origin, slot,
                                     load_u32(this->_first + index * Of::size), detail::OffsetLoaded());
            }
            return Of::at(this->_data, this->_size, this->_origin, this->_items + index * Of::size);
        }
        return Of::absent(this->_data, this->_size);
    }
    iterator begin() const noexcept { return iterator(this->_data, this->_size, this->_origin, this->_items); }
    iterator end() const noexcept {
        return iterator(this->_data, this->_size, this->_origin, this->_items + this->_count * detail::ViewOf<T>::size);
    }
};

template <typename T, bool Verified>
class View<std::vector<T>, Verified> : public SequenceView<std::vector<T>, T, Verified> {
public:
    using SequenceView<std::vector<T>, T, Verified>::SequenceView;
};
template <typename T, bool Verified>
class View<std::list<T>, Verified> : public SequenceView<std::list<T>, T, Verified> {
public:
    using SequenceView<std::list<T>, T, Verified>::SequenceView;
};
template <typename T, bool Verified>
class View<std::set<T>, Verified> : public SequenceView<std::set<T>, T, Verified> {
public:
    using SequenceView<std::set<T>, T, Verified>::SequenceView;
};

//! Maps and hashes: operator[] gives the (key, value) pair of item `index`.
template <typename M, typename K, typename V, bool Verified>
class MappingView : public CollectionView<M, K, Verified, detail::ViewOf<K>::size + detail::ViewOf<V>::size> {
    using Base = CollectionView<M, K, Verified, detail::ViewOf<K>::size + detail::ViewOf<V>::size>;

public:
    using Base::Base;
    using pair_type = std::pair<detail::view_t<K, Verified>, detail::view_t<V, Verified>>;

    pair_type operator[](std::size_t index) const noexcept {
        using KOf = detail::ViewOf<K, Verified>;
        using VOf = detail::ViewOf<V, Verified>;
        if (index < this->_count) {
            const std::size_t at = this->_items + index * (KOf::size + VOf::size);
            return pair_type(KOf::at(this->_data, this->_size, this->_origin, at),
                             VOf::at(this->_data, this->_size, this->_origin, at + KOf::size));
        }
        return pair_type(KOf::absent(this->_data, this->_size), VOf::absent(this->_data, this->_size));
    }
};

template <typename K, typename V, bool Verified>
class View<std::map<K, V>, Verified> : public MappingView<std::map<K, V>, K, V, Verified> {
public:
    using MappingView<std::map<K, V>, K, V, Verified>::MappingView;
};
template <typename K, typename V, bool Verified>
class View<std::unordered_map<K, V>, Verified> : public MappingView<std::unordered_map<K, V>, K, V, Verified> {
public:
    using MappingView<std::unordered_map<K, V>, K, V, Verified>::MappingView;
};

//! T[N]: the N slots in place.
template <typename T, std::size_t N, bool Verified>
class View<std::array<T, N>, Verified> : public ViewBase<std::array<T, N>> {
public:
    using ViewBase<std::array<T, N>>::ViewBase;

    static constexpr std::size_t size() noexcept { return N; }
    detail::view_t<T, Verified> operator[](std::size_t index) const noexcept {
        using Of = detail::ViewOf<T, Verified>;
        if (this->_slot != this->kAbsent && index < N)
            return Of::at(this->_data, this->_size, this->_origin, this->_slot + index * Of::size);
        return Of::absent(this->_data, this->_size);
    }
};

//! T?: a flag and the offset of the value's slot.
template <typename T, bool Verified>
class View<std::optional<T>, Verified> : public ViewBase<std::optional<T>> {
public:
    View() noexcept = default;
    View(const uint8_t* data, std::size_t size) noexcept : ViewBase<std::optional<T>>(data, size) {}
    //! Present when the flag is set and the value's slot lies in the root
    //! (verified: it does).
    View(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<std::optional<T>>(data, size, origin, slot) {
        const uint32_t offset = load_u32(data + slot + 1);
        const std::size_t at = origin + offset;
        if (data[slot] != 0 && offset != 0 && (Verified || at + detail::ViewOf<T>::size <= size))
            _value = at;
    }

    bool has_value() const noexcept { return _value != 0; }
    explicit operator bool() const noexcept { return has_value(); }
    //! The value's view or value (absent when there is none); its offsets
    //! count from its block.
    detail::view_t<T, Verified> value() const noexcept {
        using Of = detail::ViewOf<T, Verified>;
        if (_value != 0)
            return Of::at(this->_data, this->_size, _value, _value);
        return Of::absent(this->_data, this->_size);
    }

private:
    std::size_t _value = 0;
};

//! bytes: data() and size() of the bytes in place (empty when not in the root).
template <bool Verified>
class View<buffer_t, Verified> : public ViewBase<buffer_t> {
public:
    View() noexcept = default;
    View(const uint8_t* data, std::size_t size) noexcept : ViewBase<buffer_t>(data, size) {}
    View(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<buffer_t>(data, size, origin, slot) {
        const std::string_view bytes = detail::ViewOf<std::string, Verified>::at(data, size, origin, slot);
        _bytes = reinterpret_cast<const uint8_t*>(bytes.data());
        _length = bytes.size();
    }

    const uint8_t* data() const noexcept { return _bytes; }
    std::size_t size() const noexcept { return _length; }
    bool empty() const noexcept { return _length == 0; }

private:
    const uint8_t* _bytes = nullptr;
    std::size_t _length = 0;
};

//! The view of the root at the start of `data` (what deserialize() reads):
//! its struct's body when the root's size is 16 or more and lies in `size`;
//! the view of no body otherwise.
template <typename T>
View<T> view(const uint8_t* data, std::size_t size) noexcept {
    if (size < 16)
        return View<T>(data, 0);
    const uint32_t total = load_u32(data);
    if (total < 16 || total > size)
        return View<T>(data, 0);
    return View<T>(data, total, 0, 4);
}

namespace detail {

//! verify()'s decoder that also tells whether a struct body shorter than
//! its schema's (an older writer's) was entered: a verified view reads every
//! field of a body without checking the body holds it. Every such body takes
//! its struct's verify_older(), which charges it first (charge_older): the
//! flag is set there, off the usual path.
class FullBodyDecoder : public Decoder {
public:
    using Decoder::Decoder;
    bool older = false;

    FBE_INLINE bool charge_older(uint64_t cost, uint64_t defaults, const char* type, const char* field,
                                 std::size_t position) {
        older = true;
        return Decoder::charge_older(cost, defaults, type, field, position);
    }
    FBE_INLINE void take_progress(const FullBodyDecoder& copy) noexcept {
        Decoder::take_progress(copy);
        older = copy.older;
    }
};

//! verify() of the root of `total` bytes with FullBodyDecoder: true when it
//! passes with no older writer's body. Out of line, as Model::verify() is:
//! inlined into verified_view(), beside its error string and limits, the
//! decoder no longer stayed in registers (graph benchmark: 1.34 M
//! instructions against Model::verify()'s 1.10 M).
template <typename T>
FBE_NOINLINE bool verify_full_bodies(const uint8_t* data, uint32_t total, std::string* error, const Limits& limits) {
    FullBodyDecoder d(data, total, error, limits);
    return VCodec<T>::verify(d, 0, 4) && d.within_budget("root", 0) && !d.older;
}

} // namespace detail

//! The verified view of the root at the start of `data`: its struct's body
//! when verify() accepts the root under the default limits (without the
//! exact count, docs/limits.md 3) and no struct body in it is shorter than
//! its schema's (no older writer's); the view of no body otherwise (read
//! such a root through view()). This runs verify()'s whole check once; the
//! views made from it then read in place without checks, since every
//! offset, count and body they follow was checked (docs/cpp.md "Verified
//! views"). The bytes must not change while its views are used.
template <typename T>
VerifiedView<T> verified_view(const uint8_t* data, std::size_t size) {
    if (size < 16)
        return VerifiedView<T>(data, 0);
    const uint32_t total = load_u32(data);
    if (total < 16 || total > size)
        return VerifiedView<T>(data, 0);
    std::string error;
    const Limits limits;
    if (!detail::verify_full_bodies<T>(data, total, &error, limits))
        return VerifiedView<T>(data, 0);
    return VerifiedView<T>(data, total, 0, 4);
}

} // namespace FBE
