// Fast Binary Encoding C++ runtime: field models, the original's in-place
// API of the versioned model (docs/cpp.md "Field models").
//
// A field model is a view: a buffer, an offset and nothing else. Its offset
// counts from the buffer's origin (TBuffer::offset()), which a struct's
// set_begin()/get_begin() moves to the struct's body and set_end()/get_end()
// moves back, so the models of a struct's fields, made once with the IR's
// offsets, address the fields of whichever body is entered:
//
//     std::size_t begin = writer.create_begin();       // a new root at the end of the buffer
//     std::size_t account = writer.model.set_begin();   // the body, allocated now
//     writer.model.id.set(1);
//     writer.model.name.set("Test");                    // its bytes, allocated now
//     writer.model.set_end(account);
//     writer.create_end(begin);                         // the root's size
//
// Writing allocates in the order of the calls, so calls in the order of the
// fields (what serialize() does) give serialize()'s bytes. A set() of a
// whole value (a struct, a vector, ...) is serialize()'s own writer
// (VCodec<T>::write). Reading goes straight to the bytes; every read checks
// its bytes against the buffer first, and a field beyond the body an older
// writer wrote reads as its type's default, so a view never reads outside
// its buffer, verified or not. A get() of a whole value is deserialize()'s
// reader (VCodec<T>::read) with its checks and limits, from the field on.
//
// Generated code specialises FieldModel<TBuffer, S> for every struct S
// (<package>_field_models.h) on top of StructModel<TBuffer, S>.

#pragma once

#include "fbe/versioned.h"

#include <new>
#include <utility>

namespace FBE {

template <typename TBuffer, typename T = void, typename Enable = void>
class FieldModel;

//! The original's newer releases name a field model by the value's type
//! alone, on their one buffer class: FieldModel<T> is
//! FieldModel<FBEBuffer, T> (FBEBuffer is WriteBuffer, buffer.h).
template <typename T>
class FieldModel<T, void, void> : public FieldModel<FBEBuffer, T> {
public:
    using FieldModel<FBEBuffer, T>::FieldModel;
};

namespace detail {
//! An offset no buffer reaches: the model of an element a collection
//! does not have reads nothing.
constexpr std::size_t kNowhere = std::size_t(1) << (sizeof(std::size_t) * 8 - 2);
} // namespace detail

//! What every field model has: the buffer, the offset of its slot from the
//! buffer's origin and the end its slot must lie before (`limit`): for a
//! field of a struct the end of the body entered (a field beyond an older
//! writer's body is absent; 0 until the body is entered), for any other
//! model the buffer's size.
template <typename TBuffer>
class FieldModelBase {
public:
    FieldModelBase(TBuffer& buffer, std::size_t offset, const std::size_t* limit = nullptr) noexcept
        : _buffer(&buffer), _offset(offset), _limit(limit != nullptr ? limit : buffer.size_bound()) {}

    //! The slot's offset from the buffer's origin.
    std::size_t fbe_offset() const noexcept { return _offset; }
    void fbe_shift(std::size_t size) noexcept { _offset += size; }
    void fbe_unshift(std::size_t size) noexcept { _offset -= size; }

    TBuffer& fbe_buffer() const noexcept { return *_buffer; }

protected:
    //! The slot's position in the buffer when its `size` bytes lie before
    //! the end it is checked against (the body's, which lies in the buffer,
    //! or the buffer's size); else false. A read also checks that end
    //! against the buffer now (a ReadBuffer attached elsewhere since the
    //! body was entered); the sum wraps only for an offset or origin moved
    //! nowhere by hand (fbe_shift/unshift), and then lands anywhere, but the
    //! last comparison still keeps the slot before the end.
    FBE_INLINE bool slot(std::size_t size, std::size_t& position) const noexcept {
        const std::size_t end = *_limit;
        position = _buffer->offset() + _offset;
        return end <= _buffer->size() && end >= size && position <= end - size;
    }
    //! slot() for a write: the body set_begin() allocated stays in the
    //! buffer's memory, which a WriteBuffer never gives back while it lives
    //! (reset() and remove() keep it; only swapping or moving another
    //! buffer into it does, which must not happen while a body is
    //! entered), so the end is not checked against the buffer again: one
    //! comparison per field written.
    FBE_INLINE bool slot_to_write(std::size_t size, std::size_t& position) const noexcept {
        const std::size_t end = *_limit;
        position = _buffer->offset() + _offset;
        return end >= size && position <= end - size;
    }
    //! The position an offset stored in a slot points to, when `size` bytes
    //! there lie in the buffer; else false.
    bool block(uint32_t offset, std::size_t size, std::size_t& position) const noexcept {
        const uint64_t at = uint64_t(_buffer->offset()) + offset;
        if (at > _buffer->size() || _buffer->size() - at < size)
            return false;
        position = std::size_t(at);
        return true;
    }
    //! Appends `size` bytes (zero) and returns their position.
    std::size_t allocate(std::size_t size) {
        const std::size_t position = _buffer->allocate(size);
        std::memset(_buffer->data() + position, 0, size);
        return position;
    }
    //! The offset from the origin a slot stores for `position`.
    uint32_t relative(std::size_t position) const noexcept { return uint32_t(position - _buffer->offset()); }

    //! get() of a whole value: the versioned reader from the slot at
    //! `position`, its out-of-line data anywhere after it.
    template <typename T>
    bool read_value(std::size_t position, T& value) const {
        std::string error;
        const Limits limits;
        Decoder d(_buffer->data(), _buffer->size(), &error, limits);
        d.mark = position + VCodec<T>::inline_size;
        return VCodec<T>::read(d, _buffer->offset(), position, value) && d.within_budget("field", position);
    }
    template <typename T>
    bool verify_value(std::size_t position) const {
        std::string error;
        const Limits limits;
        Decoder d(_buffer->data(), _buffer->size(), &error, limits);
        d.mark = position + VCodec<T>::inline_size;
        return VCodec<T>::verify(d, _buffer->offset(), position) && d.within_budget("field", position);
    }
    //! set() of a whole value: serialize()'s writer, its out-of-line data
    //! appended to the buffer.
    template <typename T>
    void write_value(std::size_t position, const T& value) {
        const std::size_t end = _buffer->allocate(VCodec<T>::extra(value));
        Encoder e{_buffer->data(), end};
        VCodec<T>::write(e, _buffer->offset(), position, value);
    }

    TBuffer* _buffer;
    std::size_t _offset;
    const std::size_t* _limit;
};

//! Whole values of any type: get(), set(), verify() through the codecs.
template <typename TBuffer, typename T>
class ValueModel : public FieldModelBase<TBuffer> {
public:
    using FieldModelBase<TBuffer>::FieldModelBase;

    static constexpr std::size_t fbe_size() noexcept { return VCodec<T>::inline_size; }

    //! True when the value read is in the buffer and well-formed.
    bool verify() const {
        std::size_t position = 0;
        return this->slot(fbe_size(), position) && this->template verify_value<T>(position);
    }
    //! Reads the value; an absent or malformed one leaves `defaults` (or
    //! what was read up to the problem) and returns false.
    bool get(T& value, const T& defaults = T()) const {
        std::size_t position = 0;
        if (this->slot(fbe_size(), position) && this->template read_value<T>(position, value))
            return true;
        value = defaults;
        return false;
    }
    void set(const T& value) {
        std::size_t position = 0;
        if (this->slot_to_write(fbe_size(), position))
            this->write_value(position, value);
    }
};

//! Fixed-size types (bool, char, integers, floating point, decimal, uuid,
//! timestamp, enums and flags): the value in the slot.
template <typename TBuffer, typename T>
class FieldModel<TBuffer, T, std::enable_if_t<Scalar<T>::defined>> : public FieldModelBase<TBuffer> {
public:
    using FieldModelBase<TBuffer>::FieldModelBase;

    static constexpr std::size_t fbe_size() noexcept { return Scalar<T>::size; }
    static constexpr std::size_t fbe_extra() noexcept { return 0; }

    bool verify() const noexcept {
        std::size_t position = 0;
        if (!this->slot(fbe_size(), position))
            return false;
        if constexpr (std::is_same_v<T, decimal_t>)
            return decimal_t::valid_flags(load_u32(this->_buffer->data() + position + 12));
        return true;
    }
    bool get(T& value, T defaults = T()) const noexcept {
        std::size_t position = 0;
        if (this->slot(fbe_size(), position)) {
            if constexpr (std::is_same_v<T, decimal_t>) {
                if (Scalar<T>::get_checked(this->_buffer->data() + position, value))
                    return true;
            } else {
                value = Scalar<T>::get(this->_buffer->data() + position);
                return true;
            }
        }
        value = defaults;
        return false;
    }
    void set(T value) noexcept {
        std::size_t position = 0;
        if (this->slot_to_write(fbe_size(), position))
            Scalar<T>::put(this->_buffer->data() + position, value);
    }
};

//! string and bytes: offset -> u32 length + bytes.
template <typename TBuffer, typename T>
class FieldModel<TBuffer, T, std::enable_if_t<std::is_same_v<T, std::string> || std::is_same_v<T, buffer_t>>>
    : public FieldModelBase<TBuffer> {
public:
    using FieldModelBase<TBuffer>::FieldModelBase;

    static constexpr std::size_t fbe_size() noexcept { return 4; }
    //! The out-of-line bytes: 4 + the length (0 when absent or unreadable).
    std::size_t fbe_extra() const noexcept {
        std::size_t length = 0;
        const uint8_t* data = bytes(length);
        return data != nullptr ? 4 + length : 0;
    }
    bool verify() const noexcept {
        std::size_t length = 0;
        return bytes(length) != nullptr || empty();
    }
    bool get(T& value, const T& defaults = T()) const {
        std::size_t length = 0;
        if (const uint8_t* data = bytes(length)) {
            assign_bytes(value, data, length);
            return true;
        }
        if (empty()) {
            value.clear();
            return true;
        }
        value = defaults;
        return false;
    }
    void set(const T& value) { set(value.data(), value.size()); }
    void set(const char* value) { set(value, std::strlen(value)); }
    void set(const void* data, std::size_t size) {
        std::size_t position = 0;
        if (!this->slot_to_write(4, position))
            return;
        const std::size_t origin = this->_buffer->offset();
        const std::size_t block = this->_buffer->allocate(4 + size);
        uint8_t* bytes = this->_buffer->data();
        store_u32(bytes + position, uint32_t(block - origin));
        store_u32(bytes + block, uint32_t(size));
        detail::copy_bytes(bytes + block + 4, static_cast<const uint8_t*>(data), size);
    }

private:
    //! The slot holds offset 0 (an empty value).
    bool empty() const noexcept {
        std::size_t position = 0;
        return this->slot(4, position) && load_u32(this->_buffer->data() + position) == 0;
    }
    //! The value's bytes and length, or nullptr when the slot, the length or
    //! the bytes are not in the buffer (or the offset is 0).
    const uint8_t* bytes(std::size_t& length) const noexcept {
        std::size_t position = 0, block = 0;
        if (!this->slot(4, position))
            return nullptr;
        const uint32_t offset = load_u32(this->_buffer->data() + position);
        if (offset == 0 || !this->block(offset, 4, block))
            return nullptr;
        const uint32_t size = load_u32(this->_buffer->data() + block);
        if (this->_buffer->size() - block - 4 < size)
            return nullptr;
        length = size;
        return this->_buffer->data() + block + 4;
    }
};

//! T?: u8 has_value + u32 offset -> the value's slot, which becomes the
//! origin between get_begin()/set_begin() and get_end()/set_end(); `value`
//! is the model of that slot.
template <typename TBuffer, typename T>
class FieldModel<TBuffer, std::optional<T>> : public ValueModel<TBuffer, std::optional<T>> {
public:
    FieldModel(TBuffer& buffer, std::size_t offset, const std::size_t* limit = nullptr) noexcept
        : ValueModel<TBuffer, std::optional<T>>(buffer, offset, limit), value(buffer, 0) {}
    FieldModel(const FieldModel& other) noexcept : FieldModel(*other._buffer, other._offset, other._limit) {}
    FieldModel& operator=(const FieldModel& other) noexcept {
        if (this != &other) {
            this->~FieldModel();
            new (this) FieldModel(other);
        }
        return *this;
    }

    bool has_value() const noexcept {
        std::size_t position = 0;
        return this->slot(5, position) && this->_buffer->data()[position] != 0;
    }
    //! Enters the value's slot (the origin moves there); 0 when absent.
    std::size_t get_begin() const noexcept {
        std::size_t position = 0, block = 0;
        if (!this->slot(5, position) || this->_buffer->data()[position] == 0)
            return 0;
        const uint32_t offset = load_u32(this->_buffer->data() + position + 1);
        if (offset == 0 || !this->block(offset, value.fbe_size(), block))
            return 0;
        this->_buffer->shift(offset);
        return offset;
    }
    void get_end(std::size_t begin) const noexcept { this->_buffer->unshift(begin); }

    //! Writes the flag; when `has_value`, allocates the value's slot and
    //! enters it. Returns what set_end() takes.
    std::size_t set_begin(bool has_value) {
        std::size_t position = 0;
        if (!this->slot_to_write(5, position))
            return 0;
        if (!has_value) {
            this->_buffer->data()[position] = 0;
            store_u32(this->_buffer->data() + position + 1, 0);
            return 0;
        }
        const std::size_t block = this->allocate(value.fbe_size());
        const uint32_t offset = this->relative(block);
        this->_buffer->data()[position] = 1;
        store_u32(this->_buffer->data() + position + 1, offset);
        this->_buffer->shift(offset);
        return offset;
    }
    void set_end(std::size_t begin) noexcept { this->_buffer->unshift(begin); }

    FieldModel<TBuffer, T> value;
};

namespace detail {
//! The slot of a counted block (collections): its count and where its
//! items start, when the count's items lie in the buffer.
//! `position` is a slot in the buffer (FieldModelBase::slot), so the buffer
//! holds 4 bytes or more.
template <typename TBuffer>
FBE_INLINE bool counted_items(const TBuffer& buffer, std::size_t position, std::size_t item_size, uint32_t& count,
                              std::size_t& items) noexcept {
    const uint8_t* data = buffer.data();
    const std::size_t length = buffer.size();
    const uint32_t offset = load_u32(data + position);
    const std::size_t at = buffer.offset() + offset;
    if (offset == 0 || at > length - 4)
        return false;
    count = load_u32(data + at);
    if (uint64_t(count) * item_size > length - 4 - at)
        return false;
    items = at + 4;
    return true;
}
} // namespace detail

//! The models of a collection's items: size(), operator[], resize().
template <typename TBuffer, typename C, typename Item>
class CollectionModel : public ValueModel<TBuffer, C> {
public:
    using ValueModel<TBuffer, C>::ValueModel;

    //! The items the buffer holds (0 when the slot, the count or the items
    //! are not in it).
    std::size_t size() const noexcept {
        uint32_t count = 0;
        std::size_t items = 0;
        return find(count, items) ? count : 0;
    }
    bool empty() const noexcept { return size() == 0; }

protected:
    static constexpr std::size_t item_size() noexcept { return Item::fbe_size(); }

    bool find(uint32_t& count, std::size_t& items) const noexcept {
        std::size_t position = 0;
        return this->slot(4, position) &&
               detail::counted_items(*this->_buffer, position, item_size(), count, items);
    }
    //! The offset from the origin of item `index`; kNowhere beyond the items.
    std::size_t item(std::size_t index) const noexcept {
        uint32_t count = 0;
        std::size_t items = 0;
        if (!find(count, items) || index >= count)
            return detail::kNowhere;
        return items - this->_buffer->offset() + index * item_size();
    }
    //! Allocates `count` zeroed items and stores their offset; returns the
    //! first item's offset from the origin (kNowhere when the slot is not
    //! in the buffer).
    std::size_t allocate_items(std::size_t count) {
        std::size_t position = 0;
        if (!this->slot_to_write(4, position))
            return detail::kNowhere;
        const std::size_t block = this->allocate(4 + count * item_size());
        store_u32(this->_buffer->data() + position, this->relative(block));
        store_u32(this->_buffer->data() + block, uint32_t(count));
        return block + 4 - this->_buffer->offset();
    }
};

//! Vectors, lists and sets (the original's FieldModelVector and
//! FieldModelSet): operator[] and resize() give the model of an item.
template <typename TBuffer, typename C, typename T>
class SequenceModel : public CollectionModel<TBuffer, C, FieldModel<TBuffer, T>> {
public:
    using CollectionModel<TBuffer, C, FieldModel<TBuffer, T>>::CollectionModel;

    FieldModel<TBuffer, T> operator[](std::size_t index) const noexcept {
        return FieldModel<TBuffer, T>(*this->_buffer, this->item(index));
    }
    //! Allocates `count` items (zero) and returns the first one's model;
    //! fbe_shift(fbe_size()) moves it to the next.
    FieldModel<TBuffer, T> resize(std::size_t count) {
        return FieldModel<TBuffer, T>(*this->_buffer, this->allocate_items(count));
    }
};

template <typename TBuffer, typename T>
class FieldModel<TBuffer, std::vector<T>> : public SequenceModel<TBuffer, std::vector<T>, T> {
    using SequenceModel<TBuffer, std::vector<T>, T>::SequenceModel;
};
template <typename TBuffer, typename T>
class FieldModel<TBuffer, std::list<T>> : public SequenceModel<TBuffer, std::list<T>, T> {
    using SequenceModel<TBuffer, std::list<T>, T>::SequenceModel;
};
template <typename TBuffer, typename T>
class FieldModel<TBuffer, std::set<T>> : public SequenceModel<TBuffer, std::set<T>, T> {
    using SequenceModel<TBuffer, std::set<T>, T>::SequenceModel;
};

//! Maps and hashes (the original's FieldModelMap): items are (key, value)
//! pairs of models.
template <typename TBuffer, typename M, typename K, typename V>
class MappingModel : public ValueModel<TBuffer, M> {
public:
    using ValueModel<TBuffer, M>::ValueModel;
    using pair_type = std::pair<FieldModel<TBuffer, K>, FieldModel<TBuffer, V>>;

    std::size_t size() const noexcept {
        uint32_t count = 0;
        std::size_t items = 0;
        return find(count, items) ? count : 0;
    }
    bool empty() const noexcept { return size() == 0; }

    pair_type operator[](std::size_t index) const noexcept {
        uint32_t count = 0;
        std::size_t items = 0;
        if (!find(count, items) || index >= count)
            return pair(detail::kNowhere);
        return pair(items - this->_buffer->offset() + index * pair_size());
    }
    //! Allocates `count` pairs (zero) and returns the first one's models.
    pair_type resize(std::size_t count) {
        std::size_t position = 0;
        if (!this->slot_to_write(4, position))
            return pair(detail::kNowhere);
        const std::size_t block = this->allocate(4 + count * pair_size());
        store_u32(this->_buffer->data() + position, this->relative(block));
        store_u32(this->_buffer->data() + block, uint32_t(count));
        return pair(block + 4 - this->_buffer->offset());
    }

private:
    static constexpr std::size_t key_size() noexcept { return FieldModel<TBuffer, K>::fbe_size(); }
    static constexpr std::size_t pair_size() noexcept { return key_size() + FieldModel<TBuffer, V>::fbe_size(); }

    pair_type pair(std::size_t offset) const noexcept {
        return pair_type(FieldModel<TBuffer, K>(*this->_buffer, offset),
                         FieldModel<TBuffer, V>(*this->_buffer, offset == detail::kNowhere ? offset : offset + key_size()));
    }
    bool find(uint32_t& count, std::size_t& items) const noexcept {
        std::size_t position = 0;
        return this->slot(4, position) &&
               detail::counted_items(*this->_buffer, position, pair_size(), count, items);
    }
};

template <typename TBuffer, typename K, typename V>
class FieldModel<TBuffer, std::map<K, V>> : public MappingModel<TBuffer, std::map<K, V>, K, V> {
    using MappingModel<TBuffer, std::map<K, V>, K, V>::MappingModel;
};
template <typename TBuffer, typename K, typename V>
class FieldModel<TBuffer, std::unordered_map<K, V>> : public MappingModel<TBuffer, std::unordered_map<K, V>, K, V> {
    using MappingModel<TBuffer, std::unordered_map<K, V>, K, V>::MappingModel;
};

//! T[N]: N slots in place; operator[] gives the model of one.
template <typename TBuffer, typename T, std::size_t N>
class FieldModel<TBuffer, std::array<T, N>> : public ValueModel<TBuffer, std::array<T, N>> {
public:
    using ValueModel<TBuffer, std::array<T, N>>::ValueModel;

    static constexpr std::size_t size() noexcept { return N; }
    FieldModel<TBuffer, T> operator[](std::size_t index) const noexcept {
        return FieldModel<TBuffer, T>(*this->_buffer,
                                      index < N ? this->_offset + index * FieldModel<TBuffer, T>::fbe_size()
                                                : detail::kNowhere,
                                      this->_limit);
    }
};

namespace detail {
//! A generated struct field model's copy assignment: its members are views of the slots of `other`'s body,
//! made again as the copy constructor makes them (they hold the address of the model's body limit).
template <class M>
M& assign_copy(M& self, const M& other) noexcept {
    if (&self == &other)
        return self;
    self.~M();
    return *new (&self) M(other);
}
} // namespace detail

//! What the generated model of struct S adds to its fields' models:
//! set_begin()/set_end() and get_begin()/get_end() enter and leave the
//! body (the origin moves to it), fbe_type(), fbe_body(), and get()/set()/
//! verify() of the whole value (deserialize()'s and serialize()'s code).
//! The fields' models (generated members) check their slots against the
//! end of the body entered (`body_limit()`): an older writer's body lacks
//! the later fields, which then read as their defaults; until a body is
//! entered (or when get_begin() finds none) every field reads as absent.
template <typename TBuffer, typename S>
class StructModel : public ValueModel<TBuffer, S> {
public:
    //! `body`: the end the fields check against, when this is the model of
    //! a base struct inside a derived one's (`parent`): the derived body's.
    StructModel(TBuffer& buffer, std::size_t offset, const std::size_t* limit = nullptr,
                const std::size_t* body = nullptr) noexcept
        : ValueModel<TBuffer, S>(buffer, offset, limit), _body(body != nullptr ? body : &_end) {}

    static constexpr uint32_t fbe_type() noexcept { return VBody<S>::type_id; }
    static constexpr std::size_t fbe_body() noexcept { return VBody<S>::body_size; }

    //! Allocates the body (zero but its header), stores its offset in the
    //! slot and enters it. Returns what set_end() takes.
    std::size_t set_begin() {
        std::size_t position = 0;
        if (!this->slot_to_write(4, position))
            return 0;
        // Everything read before the first store into the bytes, which the
        // compiler must assume can change any of it.
        TBuffer& buffer = *this->_buffer;
        const std::size_t origin = buffer.offset();
        const std::size_t body = buffer.allocate(fbe_body());
        uint8_t* data = buffer.data();
        const uint32_t offset = uint32_t(body - origin);
        buffer.shift(offset);
        _end = body + fbe_body();
        store_u32(data + position, offset);
        store_u32(data + body, uint32_t(fbe_body()));
        store_u32(data + body + 4, fbe_type());
        std::memset(data + body + 8, 0, fbe_body() - 8);
        return offset;
    }
    void set_end(std::size_t begin) noexcept { this->_buffer->unshift(begin); }

    //! Enters the body the slot points to: its header in the buffer, a size
    //! of 8 or more that fits it, this struct's type id. Returns what
    //! get_end() takes, or 0 (not entered: the fields read their defaults).
    std::size_t get_begin() const noexcept {
        _end = 0;
        std::size_t position = 0, body = 0;
        if (!this->slot(4, position))
            return 0;
        const uint32_t offset = load_u32(this->_buffer->data() + position);
        if (offset == 0 || !this->block(offset, 8, body))
            return 0;
        const uint32_t size = load_u32(this->_buffer->data() + body);
        if (size < 8 || this->_buffer->size() - body < size ||
            load_u32(this->_buffer->data() + body + 4) != fbe_type())
            return 0;
        _end = body + size;
        this->_buffer->shift(offset);
        return offset;
    }
    void get_end(std::size_t begin) const noexcept { this->_buffer->unshift(begin); }

protected:
    const std::size_t* body_limit() const noexcept { return _body; }
    //! The `body` argument a copy is made with.
    const std::size_t* shared_body() const noexcept { return _body == &_end ? nullptr : _body; }
    const std::size_t* fbe_limit() const noexcept { return this->_limit; }

    //! The end of the body entered (its position + size in the buffer; fields
    //! beyond it are absent), 0 until one is.
    mutable std::size_t _end = 0;
    const std::size_t* _body;
};

//! The original's collection model names.
template <typename TBuffer, typename T>
using FieldModelVector = FieldModel<TBuffer, std::vector<T>>;
template <typename TBuffer, typename K, typename V>
using FieldModelMap = FieldModel<TBuffer, std::map<K, V>>;
template <typename TBuffer, typename T, std::size_t N>
using FieldModelArray = FieldModel<TBuffer, std::array<T, N>>;

//! The versioned model of a root struct T with the field models of its
//! fields (`model`) and the original's create_begin()/create_end().
template <typename T, typename TBuffer = WriteBuffer>
class ViewModel : public Model<T, TBuffer> {
public:
    ViewModel() : model(this->buffer(), 4) {}
    ViewModel(const ViewModel& other) : Model<T, TBuffer>(other), model(this->buffer(), other.model.fbe_offset()) {}
    ViewModel& operator=(const ViewModel& other) {
        Model<T, TBuffer>::operator=(other);
        model = FieldModel<TBuffer, T>(this->buffer(), other.model.fbe_offset());
        return *this;
    }

    //! Starts a root at the end of the buffer (its size and the root
    //! struct's slot) and makes it the origin: roots are self-relative
    //! (docs/format.md 3.2), however many the buffer holds and wherever
    //! next() moved the model (the model stands at the new root's slot until
    //! create_end()). Returns what create_end() takes.
    std::size_t create_begin() {
        const std::size_t begin = this->buffer().allocate(4 + model.fbe_size());
        std::memset(this->buffer().data() + begin, 0, 4 + model.fbe_size());
        _origin = this->buffer().offset();
        _next = model.fbe_offset() - 4;
        model.fbe_unshift(_next);
        this->buffer().shift(begin - _origin);
        return begin;
    }
    //! Ends the root started at `begin`: stores its size, which it returns,
    //! and moves the origin (and the model) back.
    std::size_t create_end(std::size_t begin) {
        const std::size_t size = this->buffer().size() - begin;
        store_u32(this->buffer().data() + begin, uint32_t(size));
        this->buffer().unshift(begin - _origin);
        model.fbe_shift(_next);
        return size;
    }

    //! The original's next(): moves the model on by `size`, the size of the
    //! root just written or read, so model.fbe_offset() is 4 + the bytes of
    //! the roots before the next one. deserialize() and verify() read the
    //! root the model stands at; serialize() and create_begin() append a
    //! self-relative root at the end of the buffer, wherever it stands.
    void next(std::size_t size) noexcept { model.fbe_shift(size); }

    //! The root the model stands at (the buffer's first until next()).
    std::size_t deserialize(T& value) const {
        const std::size_t root = model.fbe_offset() - 4;
        if (root == 0)
            return Model<T, TBuffer>::deserialize(value);
        Model<T, ReadBuffer> reader;
        return this->at_root(root, reader) ? this->took(reader, reader.deserialize(value)) : 0;
    }
    bool verify() const {
        const std::size_t root = model.fbe_offset() - 4;
        if (root == 0)
            return Model<T, TBuffer>::verify();
        Model<T, ReadBuffer> reader;
        return this->at_root(root, reader) && this->took(reader, reader.verify());
    }

    FieldModel<TBuffer, T> model;

private:
    std::size_t _origin = 0;
    std::size_t _next = 0; //!< where next() moved the model, while create_begin() puts it at the new root
};

} // namespace FBE
