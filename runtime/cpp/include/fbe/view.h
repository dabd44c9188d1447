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
#include <utility>

namespace FBE {

template <typename T, typename Enable = void>
class View;

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
//! type, a std::string_view of a string, else a View<T>.
template <typename T, typename Enable = void>
struct ViewOf {
    using type = View<T>;
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

template <typename T>
struct ViewOf<T, std::enable_if_t<Scalar<T>::defined>> {
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
//! the root).
template <>
struct ViewOf<std::string> {
    using type = std::string_view;
    static constexpr std::size_t size = 4;
    static std::string_view at(const uint8_t* data, std::size_t root_size, std::size_t origin, std::size_t slot,
                               std::string_view defaults = {}) noexcept {
        const uint32_t offset = load_u32(data + slot);
        if (offset == 0)
            return {};
        const std::size_t at = origin + offset;
        if (at + 4 > root_size)
            return defaults;
        const uint32_t length = load_u32(data + at);
        if (length > root_size - at - 4)
            return defaults;
        return std::string_view(reinterpret_cast<const char*>(data + at + 4), length);
    }
    static std::string_view absent(const uint8_t*, std::size_t, std::string_view defaults = {}) noexcept {
        return defaults;
    }
};

template <typename T>
using view_t = typename ViewOf<T>::type;

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
//! which the collection's view checked once).
template <typename Item, std::size_t ItemSize = ViewOf<Item>::size>
class ViewIterator {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = view_t<Item>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;

    ViewIterator(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : _data(data), _size(size), _origin(origin), _slot(slot) {}
    value_type operator*() const noexcept { return ViewOf<Item>::at(_data, _size, _origin, _slot); }
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

//! What the generated View<S> of a struct S builds on: the body found (its
//! position and size, 0 when none was found) and the reads of its fields.
template <typename S>
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
    StructView(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<S>(data, size, origin, slot) {
        constexpr uint32_t full = VBody<S>::body_size;
        constexpr uint64_t header = uint64_t(VBody<S>::type_id) << 32 | full;
        const uint32_t offset = load_u32(data + slot);
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

    //! True when the body was found (every field then reads from it).
    bool has_value() const noexcept { return _body_size >= 8; }
    explicit operator bool() const noexcept { return has_value(); }
    static constexpr uint32_t fbe_type() noexcept { return VBody<S>::type_id; }
    //! The body's position in the root and its size (0: none found).
    std::size_t fbe_body() const noexcept { return _body; }
    uint32_t fbe_body_size() const noexcept { return _body_size; }

protected:
    //! The view of a base's fields in a derived struct's body.
    template <typename B>
    View<B> fbe_part() const noexcept {
        View<B> part(this->_data, this->_size);
        part._body = _body;
        part._body_size = _body_size;
        return part;
    }
    //! The field of type T whose slot is at `offset` in the body: read when
    //! the body holds the slot (an older writer's may not), else absent.
    template <typename T, typename... Defaults>
    detail::view_t<T> fbe_field(std::size_t offset, const Defaults&... defaults) const noexcept {
        using Of = detail::ViewOf<T>;
        if (offset + Of::size <= _body_size)
            return Of::at(this->_data, this->_size, _body, _body + offset, defaults...);
        return Of::absent(this->_data, this->_size, defaults...);
    }

    template <typename, typename>
    friend class View;
    template <typename>
    friend class StructView;

    std::size_t _body = 0;
    uint32_t _body_size = 0;
};

//! Vectors, lists and sets: size() and operator[] (the item's view or value).
template <typename T, typename Item, std::size_t ItemSize = detail::ViewOf<Item>::size>
class CollectionView : public ViewBase<T> {
public:
    CollectionView() noexcept = default;
    CollectionView(const uint8_t* data, std::size_t size) noexcept : ViewBase<T>(data, size) {}
    //! The items the slot points to, when the count and the items lie in the
    //! root; else none.
    CollectionView(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<T>(data, size, origin, slot) {
        const uint32_t offset = load_u32(data + slot);
        const std::size_t at = origin + offset;
        if (offset != 0 && at + 4 <= size) {
            const uint32_t count = load_u32(data + at);
            if (uint64_t(count) * ItemSize <= size - at - 4) {
                _items = at + 4;
                _count = count;
            }
        }
    }

    std::size_t size() const noexcept { return _count; }
    bool empty() const noexcept { return _count == 0; }

protected:
    std::size_t _items = 0;
    uint32_t _count = 0;
};

template <typename C, typename T>
class SequenceView : public CollectionView<C, T> {
public:
    using CollectionView<C, T>::CollectionView;
    using iterator = detail::ViewIterator<T>;

    //! Item `index`: its view or value; absent beyond the items.
    detail::view_t<T> operator[](std::size_t index) const noexcept {
        using Of = detail::ViewOf<T>;
        if (index < this->_count)
            return Of::at(this->_data, this->_size, this->_origin, this->_items + index * Of::size);
        return Of::absent(this->_data, this->_size);
    }
    iterator begin() const noexcept { return iterator(this->_data, this->_size, this->_origin, this->_items); }
    iterator end() const noexcept {
        return iterator(this->_data, this->_size, this->_origin, this->_items + this->_count * detail::ViewOf<T>::size);
    }
};

template <typename T>
class View<std::vector<T>> : public SequenceView<std::vector<T>, T> {
public:
    using SequenceView<std::vector<T>, T>::SequenceView;
};
template <typename T>
class View<std::list<T>> : public SequenceView<std::list<T>, T> {
public:
    using SequenceView<std::list<T>, T>::SequenceView;
};
template <typename T>
class View<std::set<T>> : public SequenceView<std::set<T>, T> {
public:
    using SequenceView<std::set<T>, T>::SequenceView;
};

//! Maps and hashes: operator[] gives the (key, value) pair of item `index`.
template <typename M, typename K, typename V>
class MappingView : public CollectionView<M, K, detail::ViewOf<K>::size + detail::ViewOf<V>::size> {
    using Base = CollectionView<M, K, detail::ViewOf<K>::size + detail::ViewOf<V>::size>;

public:
    using Base::Base;
    using pair_type = std::pair<detail::view_t<K>, detail::view_t<V>>;

    pair_type operator[](std::size_t index) const noexcept {
        using KOf = detail::ViewOf<K>;
        using VOf = detail::ViewOf<V>;
        if (index < this->_count) {
            const std::size_t at = this->_items + index * (KOf::size + VOf::size);
            return pair_type(KOf::at(this->_data, this->_size, this->_origin, at),
                             VOf::at(this->_data, this->_size, this->_origin, at + KOf::size));
        }
        return pair_type(KOf::absent(this->_data, this->_size), VOf::absent(this->_data, this->_size));
    }
};

template <typename K, typename V>
class View<std::map<K, V>> : public MappingView<std::map<K, V>, K, V> {
public:
    using MappingView<std::map<K, V>, K, V>::MappingView;
};
template <typename K, typename V>
class View<std::unordered_map<K, V>> : public MappingView<std::unordered_map<K, V>, K, V> {
public:
    using MappingView<std::unordered_map<K, V>, K, V>::MappingView;
};

//! T[N]: the N slots in place.
template <typename T, std::size_t N>
class View<std::array<T, N>> : public ViewBase<std::array<T, N>> {
public:
    using ViewBase<std::array<T, N>>::ViewBase;

    static constexpr std::size_t size() noexcept { return N; }
    detail::view_t<T> operator[](std::size_t index) const noexcept {
        using Of = detail::ViewOf<T>;
        if (this->_slot != this->kAbsent && index < N)
            return Of::at(this->_data, this->_size, this->_origin, this->_slot + index * Of::size);
        return Of::absent(this->_data, this->_size);
    }
};

//! T?: a flag and the offset of the value's slot.
template <typename T>
class View<std::optional<T>> : public ViewBase<std::optional<T>> {
public:
    View() noexcept = default;
    View(const uint8_t* data, std::size_t size) noexcept : ViewBase<std::optional<T>>(data, size) {}
    //! Present when the flag is set and the value's slot lies in the root.
    View(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<std::optional<T>>(data, size, origin, slot) {
        const uint32_t offset = load_u32(data + slot + 1);
        const std::size_t at = origin + offset;
        if (data[slot] != 0 && offset != 0 && at + detail::ViewOf<T>::size <= size)
            _value = at;
    }

    bool has_value() const noexcept { return _value != 0; }
    explicit operator bool() const noexcept { return has_value(); }
    //! The value's view or value (absent when there is none); its offsets
    //! count from its block.
    detail::view_t<T> value() const noexcept {
        using Of = detail::ViewOf<T>;
        if (_value != 0)
            return Of::at(this->_data, this->_size, _value, _value);
        return Of::absent(this->_data, this->_size);
    }

private:
    std::size_t _value = 0;
};

//! bytes: data() and size() of the bytes in place (empty when not in the root).
template <>
class View<buffer_t> : public ViewBase<buffer_t> {
public:
    View() noexcept = default;
    View(const uint8_t* data, std::size_t size) noexcept : ViewBase<buffer_t>(data, size) {}
    View(const uint8_t* data, std::size_t size, std::size_t origin, std::size_t slot) noexcept
        : ViewBase<buffer_t>(data, size, origin, slot) {
        const std::string_view bytes = detail::ViewOf<std::string>::at(data, size, origin, slot);
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

} // namespace FBE
