// Fast Binary Encoding C++ runtime: the protocol layer (docs/format.md 7).
//
// Base classes of the generated `<package>_protocol.h` /
// `<package>_final_protocol.h`:
//
// * Sender<TBuffer>   - frames queue in one buffer; every send hands all
//                        queued bytes to onSend(data, size), which returns how
//                        many it accepted; the rest stays queued (7.3).
// * Receiver<TBuffer> - receive(data, size) takes any fragmentation,
//                        reassembles frames and dispatches them by type id
//                        (7.4). Unlike the original it never gives up
//                        silently: every bad frame is reported through
//                        onReceiveError(error, reason) and skipped when the
//                        framing allows (see ReceiveError); a frame larger
//                        than max_frame_size() is refused before any
//                        allocation and skipped without being buffered;
//                        a partial frame holds only the bytes received.
// * Client<TBuffer>   - a Sender and a Receiver with the bookkeeping of
//                        pending requests (7.6): unique timestamps,
//                        watchdog(utc), reset().
// * PendingRequests<R> - the requests waiting for a response of type R.
//
// The generated classes add send(value) / onReceive(value) per message type.

#pragma once

#include "fbe/buffer.h"
#include "fbe/common.h"
#include "fbe/text.h"
#include "fbe/uuid.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace FBE {

//! Why a received frame was not delivered.
enum class ReceiveError {
    //! The frame size is below the minimum of a frame (16 versioned, 8 final).
    //! Nothing tells where the next frame starts: the receiver drops the
    //! rest of the stream until reset() (the original silently stalled).
    FrameTooSmall,
    //! The frame size is above max_frame_size(): the frame is skipped
    //! without being buffered.
    FrameTooLarge,
    //! The frame is too short for its header (versioned: the struct offset
    //! points outside the frame): skipped.
    BadHeader,
    //! No message of this package or its imports has the frame's type id: skipped.
    UnknownType,
    //! The frame's body failed verify() (or deserialize): skipped.
    InvalidBody,
    //! The other end's model notice (docs/format.md 7.4): it refused a frame
    //! of ours as making no sense in its model and closes; the rest of the
    //! stream is dropped until reset().
    ModelNotice,
};

inline const char* to_string(ReceiveError error) noexcept {
    switch (error) {
        case ReceiveError::FrameTooSmall: return "frame too small";
        case ReceiveError::FrameTooLarge: return "frame too large";
        case ReceiveError::BadHeader: return "bad frame header";
        case ReceiveError::UnknownType: return "unknown type";
        case ReceiveError::InvalidBody: return "invalid body";
        case ReceiveError::ModelNotice: return "model notice";
    }
    return "unknown error";
}

inline std::ostream& operator<<(std::ostream& stream, ReceiveError error) { return stream << to_string(error); }

//! The model notice (docs/format.md 7.4): the 4 bytes an end sends before it
//! closes a connection whose frames made no sense in its model, the frame size
//! 1 (it reads versioned frames) or 2 (final frames).
inline std::array<uint8_t, 4> model_notice(bool final) noexcept {
    return {static_cast<uint8_t>(final ? 2 : 1), 0, 0, 0};
}

//! What a receiver reading final (or versioned) frames says of the model
//! notice of frame size 1 or 2.
inline std::string model_notice_text(std::size_t size, bool final) {
    const std::string theirs = size == 2 ? "final" : "versioned";
    const std::string ours = final ? "final" : "versioned";
    if (theirs == ours)
        return "the other end (reading " + theirs + " frames too) refused a frame of ours and closed";
    return "the other end reads " + theirs + " frames and refused ours: this end sends " + ours +
           " frames (start both ends with the same model)";
}

// ---------------------------------------------------------------- Sender

template <class TBuffer = WriteBuffer>
class Sender {
public:
    Sender(const Sender&) = delete;
    Sender(Sender&&) = delete;
    Sender& operator=(const Sender&) = delete;
    Sender& operator=(Sender&&) = delete;
    virtual ~Sender() = default;

    //! The bytes serialized but not yet accepted by onSend().
    TBuffer& buffer() noexcept { return _buffer; }
    const TBuffer& buffer() const noexcept { return _buffer; }
    //! True for the final-model sender.
    bool final() const noexcept { return _final; }
    bool logging() const noexcept { return _logging; }
    void logging(bool enable) noexcept { _logging = enable; }
    //! Drops the queued bytes.
    void reset() noexcept { _buffer.reset(); }

    //! Offers the queued bytes to onSend() again; returns how many it took.
    std::size_t flush() {
        if (_buffer.empty())
            return 0;
        std::size_t sent = onSend(_buffer.data(), _buffer.size());
        if (sent > _buffer.size())
            sent = _buffer.size();
        _buffer.remove(0, sent);
        return sent;
    }

    //! Hands all queued bytes (the `serialized` bytes just appended
    //! included) to onSend(); as the original's send_serialized().
    std::size_t send_serialized(std::size_t serialized) {
        if (serialized == 0)
            return 0;
        return flush();
    }

protected:
    Sender() = default;

    //! The transport: take up to `size` bytes, return how many were taken.
    virtual std::size_t onSend(const void* data, std::size_t size) = 0;
    //! The printed text of every sent message when logging() is on.
    virtual void onSendLog(const std::string& /*message*/) const {}

    //! Serializes `value` at the end of the queue with `model` (a versioned
    //! or final model whose buffer type is TBuffer), logs it and flushes.
    //! Returns what onSend() accepted (as the original send()).
    template <class TModel, typename T>
    std::size_t send_value(TModel& model, const T& value) {
        model.buffer().swap(_buffer);
        std::size_t serialized = 0;
        try {
            serialized = model.serialize(value);
        } catch (...) {
            model.buffer().swap(_buffer);
            throw;
        }
        model.buffer().swap(_buffer);
        if constexpr (!Nesting<T>::bounded) {
            // A value nested deeper than kMaxDepth is refused (docs/limits.md 1).
            if (serialized == 0) {
                _send_error = model.error();
                return 0;
            }
            _send_error.clear();
        }
        ++_sent_messages;
        if (_logging)
            onSendLog(to_text(value));
        return send_serialized(serialized);
    }

public:
    //! Number of messages serialized so far.
    uint64_t sent_messages() const noexcept { return _sent_messages; }
    //! Why the last send() refused its value (nothing queued, 0 returned):
    //! its structs nest deeper than kMaxDepth, which only values of recursive
    //! types can (docs/limits.md 1). Cleared by each send() of such a type.
    const std::string& send_error() const noexcept { return _send_error; }

protected:
    TBuffer _buffer;
    bool _logging = false;
    bool _final = false;
    uint64_t _sent_messages = 0;
    std::string _send_error;
};

// ---------------------------------------------------------------- Receiver

//! What a generated Receiver or Proxy reads the frames of one message type with: the message's model (TModel,
//! of a ReadBuffer), its schema name (in errors) and the value read (a Receiver's). The value lives on the heap,
//! made at the first frame that verifies and reused by the next ones (deserialize overwrites every field): a
//! message may hold fixed arrays of up to a frame's size, which no stack holds, and a frame that does not
//! verify allocates nothing.
template <class TModel>
struct MessageReader {
    using value_type = typename TModel::value_type;

    explicit MessageReader(const char* name_) noexcept : name(name_) {}

    TModel model;
    const char* name;
    std::unique_ptr<value_type> value;
};

template <class TBuffer = WriteBuffer>
class Receiver {
public:
    //! Default largest accepted frame: 64 MiB.
    static constexpr std::size_t kDefaultMaxFrameSize = std::size_t(64) << 20;

    Receiver(const Receiver&) = delete;
    Receiver(Receiver&&) = delete;
    Receiver& operator=(const Receiver&) = delete;
    Receiver& operator=(Receiver&&) = delete;
    virtual ~Receiver() = default;

    //! The bytes of the incomplete frame received so far.
    TBuffer& buffer() noexcept { return _pending; }
    bool final() const noexcept { return _final; }
    bool logging() const noexcept { return _logging; }
    void logging(bool enable) noexcept { _logging = enable; }

    //! Frames above this size are refused before any allocation.
    std::size_t max_frame_size() const noexcept { return std::size_t(_limits.max_frame_size); }
    void max_frame_size(std::size_t size) noexcept { _limits.max_frame_size = size; }

    //! The limits of every frame (docs/limits.md): max_frame_size, and the
    //! depth and decode budget each frame's verify() and deserialize() get.
    const Limits& limits() const noexcept { return _limits; }
    void limits(const Limits& limits) noexcept { _limits = limits; }

    //! True after a frame size below the minimum: the position of the next
    //! frame is unknown, incoming bytes are dropped until reset().
    bool broken() const noexcept { return _broken; }

    //! Forgets a partial frame, a frame being skipped and the broken state.
    void reset() noexcept {
        _pending.reset();
        _carry.clear();
        _skip = 0;
        _broken = false;
    }

    //! Counters: frames delivered to a handler, frames rejected.
    uint64_t received_messages() const noexcept { return _received; }
    uint64_t receive_errors() const noexcept { return _errors; }

    //! Feeds received bytes, in any fragmentation. An exception thrown by a
    //! handler propagates; its frame counts as consumed and the bytes after
    //! it are kept and processed at the start of the next call.
    void receive(const void* data, std::size_t size) {
        const uint8_t* bytes = static_cast<const uint8_t*>(data);
        if (!_carry.empty()) {
            // The bytes after a frame whose handler threw, kept from the last
            // call, come first; joined with the new ones so that nothing is
            // lost if a handler throws again.
            std::vector<uint8_t> carried;
            carried.swap(_carry);
            if (size > 0)
                carried.insert(carried.end(), bytes, bytes + size);
            receive_chunk(carried.data(), carried.size());
            return;
        }
        receive_chunk(bytes, size);
    }
    void receive(const std::vector<uint8_t>& data) { receive(data.data(), data.size()); }

private:
    void receive_chunk(const uint8_t* p, std::size_t size) {
        while (size > 0) {
            if (_skip > 0) {
                const std::size_t n = size < _skip ? size : _skip;
                _skip -= n;
                p += n;
                size -= n;
                continue;
            }
            if (_broken)
                return;
            if (_pending.empty()) {
                // Fast path: whole frames straight from the caller's memory.
                if (size < 4)
                    break;
                const std::size_t frame = load_u32(p);
                if (!check_size(frame))
                    continue; // broken or skipping: handled at the top
                if (frame > size)
                    break;
                try {
                    process(p, frame);
                } catch (...) {
                    _carry.assign(p + frame, p + size);
                    throw;
                }
                p += frame;
                size -= frame;
                continue;
            }
            // Slow path: complete the pending frame.
            if (_pending.size() < 4) {
                const std::size_t n = std::min<std::size_t>(4 - _pending.size(), size);
                append(p, n);
                p += n;
                size -= n;
                if (_pending.size() < 4)
                    return;
                const std::size_t frame = load_u32(_pending.data());
                if (!check_size(frame)) {
                    if (_skip >= 4)
                        _skip -= 4; // the 4 size bytes are already consumed
                    _pending.reset();
                    continue;
                }
                // No reserve(frame): the buffer grows with the bytes that
                // arrive, so a declared size costs nothing until it is sent.
            }
            const std::size_t frame = load_u32(_pending.data());
            const std::size_t n = std::min(frame - _pending.size(), size);
            append(p, n);
            p += n;
            size -= n;
            if (_pending.size() == frame) {
                try {
                    process(_pending.data(), frame);
                } catch (...) {
                    _pending.reset();
                    _carry.assign(p, p + size);
                    throw;
                }
                _pending.reset();
            }
        }
        if (size > 0)
            append(p, size); // a partial frame (fewer than 4 bytes, or a short frame) starts here
    }

protected:
    Receiver() = default;

    //! Dispatches one whole frame; returns false when no message of the
    //! package (or of its imports) has this type id. Generated.
    virtual bool onReceive(std::size_t type, const void* data, std::size_t size) = 0;
    //! The printed text of every received message when logging() is on.
    virtual void onReceiveLog(const std::string& /*message*/) const {}
    //! A frame that was not delivered, and why.
    virtual void onReceiveError(ReceiveError /*error*/, const std::string& /*reason*/) {}

    //! A generated Receiver's (Proxy's) onReceive(type, data, size): the frame read with the one of `readers`
    //! whose message has type id `type` (read_frame; a Proxy's only verified, verify_frame), then handed to
    //! `handle` (the value read; a Proxy's the model attached to the frame) when it reads. False when no reader
    //! has the type id; the readers are tried in their order, each by one compare.
    template <bool Deserialize, typename THandle, class TReader, class... TReaders>
    FBE_INLINE bool dispatch(std::size_t type, const void* data, std::size_t size, THandle&& handle,
                             TReader& reader, TReaders&... readers) {
        if (type == TReader::value_type::fbe_type()) {
            if constexpr (Deserialize) {
                if (read_frame(reader, data, size))
                    handle(*reader.value);
            } else if (verify_frame(reader, data, size)) {
                handle(reader.model);
            }
            return true;
        }
        if constexpr (sizeof...(TReaders) > 0)
            return dispatch<Deserialize>(type, data, size, handle, readers...);
        else
            return false;
    }

    //! Reads a frame with `reader.model` (attached to the frame, verified, then
    //! deserialized into `*reader.value`); reports a failure and returns false.
    template <class TModel>
    bool read_frame(MessageReader<TModel>& reader, const void* data, std::size_t size) {
        TModel& model = reader.model;
        model.attach(data, size);
        model.limits(_limits);
        if (!model.verify()) {
            report(ReceiveError::InvalidBody, std::string(reader.name) + ": " + model.error());
            return false;
        }
        if (!reader.value)
            reader.value = std::make_unique<typename TModel::value_type>();
        auto& result = *reader.value;
        model.deserialize(result);
        if (!model.error().empty()) {
            report(ReceiveError::InvalidBody, std::string(reader.name) + ": " + model.error());
            return false;
        }
        ++_received;
        if (_logging)
            onReceiveLog(to_text(result));
        return true;
    }

    //! Attaches `reader.model` to a frame and verifies it (Proxy); reports a failure.
    template <class TModel>
    bool verify_frame(MessageReader<TModel>& reader, const void* data, std::size_t size) {
        TModel& model = reader.model;
        model.attach(data, size);
        model.limits(_limits);
        if (!model.verify()) {
            report(ReceiveError::InvalidBody, std::string(reader.name) + ": " + model.error());
            return false;
        }
        ++_received;
        return true;
    }

    //! Counts and reports an error.
    void report(ReceiveError error, const std::string& reason) {
        ++_errors;
        onReceiveError(error, reason);
    }

    TBuffer _pending;
    bool _logging = false;
    bool _final = false;

private:
    std::vector<uint8_t> _carry;
    Limits _limits; // max_frame_size: kDefaultMaxFrameSize
    std::size_t _skip = 0;
    bool _broken = false;
    uint64_t _received = 0;
    uint64_t _errors = 0;

    std::size_t min_frame() const noexcept { return _final ? 8 : 16; }

    void append(const uint8_t* p, std::size_t n) {
        const std::size_t at = _pending.allocate(n);
        std::memcpy(_pending.data() + at, p, n);
    }

    //! Validates a frame size read from the stream; on failure reports and
    //! sets the broken state (too small) or the skip count (too large).
    bool check_size(std::size_t frame) {
        if (frame == 1 || frame == 2) {
            _broken = true;
            report(ReceiveError::ModelNotice, model_notice_text(frame, _final));
            return false;
        }
        if (frame < min_frame()) {
            _broken = true;
            report(ReceiveError::FrameTooSmall, "frame size " + std::to_string(frame) + " is below the minimum " +
                                                    std::to_string(min_frame()) +
                                                    " of a frame; the rest of the stream is dropped until reset()");
            return false;
        }
        if (frame > _limits.max_frame_size) {
            _skip = frame;
            report(ReceiveError::FrameTooLarge, "frame size " + std::to_string(frame) + " is above the maximum " +
                                                    std::to_string(_limits.max_frame_size) + "; the frame is skipped");
            return false;
        }
        return true;
    }

    void process(const uint8_t* frame, std::size_t size) {
        std::size_t type;
        if (_final) {
            type = load_u32(frame + 4);
        } else {
            const std::size_t offset = load_u32(frame + 4);
            if (offset < 8 || offset > size - 8) {
                report(ReceiveError::BadHeader, "struct offset " + std::to_string(offset) +
                                                    " points outside the frame of " + std::to_string(size) + " bytes");
                return;
            }
            type = load_u32(frame + offset + 4);
        }
        if (!onReceive(type, frame, size))
            report(ReceiveError::UnknownType, "no message has type id " + std::to_string(type) + " (frame of " +
                                                  std::to_string(size) + " bytes skipped)");
    }
};

// ---------------------------------------------------------------- Client

template <class TBuffer>
class Client;

//! What a Client does with each of its tables of pending requests, whatever their response type.
class PendingTable {
public:
    virtual ~PendingTable() = default;
    //! Fails every request whose timestamp + timeout <= utc with "Timeout!".
    virtual void watchdog(uint64_t utc) = 0;
    //! Fails every pending request with "Reset client!".
    virtual void reset() = 0;
    //! Fails the request `id` with `error`; false when none is pending here.
    virtual bool fail(const uuid_t& id, const std::string& error) = 0;
};

//! The requests waiting for a response of type R, by id and by deadline.
template <typename R>
class PendingRequests : public PendingTable {
public:
    PendingRequests() = default;
    //! A table of `client` (a generated Client's member), added to the tables its watchdog() and reset()
    //! go through.
    template <class TBuffer>
    explicit PendingRequests(Client<TBuffer>& client) { client._pending_tables.push_back(this); }
    PendingRequests(const PendingRequests&) = delete;
    PendingRequests& operator=(const PendingRequests&) = delete;

    //! Registers a request; timeout in nanoseconds (0 = none).
    void add(const uuid_t& id, uint64_t timestamp, uint64_t timeout, std::promise<R>&& promise) {
        auto it = _by_id.find(id);
        if (it != _by_id.end()) {
            // A second request with the same id: the first can never be answered.
            it->second.promise.set_exception(std::make_exception_ptr(std::runtime_error("Duplicate request id!")));
            if (it->second.timeout > 0)
                _by_deadline.erase(std::make_pair(it->second.timestamp + it->second.timeout, it->second.timestamp));
            _by_id.erase(it);
        }
        _by_id.emplace(id, Entry{timestamp, timeout, std::move(promise)});
        if (timeout > 0)
            _by_deadline.emplace(std::make_pair(timestamp + timeout, timestamp), id);
    }

    //! Completes the request `id` with `value`; false when none is pending.
    bool complete(const uuid_t& id, const R& value) {
        auto it = _by_id.find(id);
        if (it == _by_id.end())
            return false;
        Entry entry = std::move(it->second);
        forget(it);
        entry.promise.set_value(value);
        return true;
    }

    //! Fails the request `id` with `error`; false when none is pending.
    bool fail(const uuid_t& id, const std::string& error) override {
        auto it = _by_id.find(id);
        if (it == _by_id.end())
            return false;
        Entry entry = std::move(it->second);
        forget(it);
        entry.promise.set_exception(std::make_exception_ptr(std::runtime_error(error)));
        return true;
    }

    void watchdog(uint64_t utc) override {
        while (!_by_deadline.empty() && _by_deadline.begin()->first.first <= utc) {
            const uuid_t id = _by_deadline.begin()->second;
            fail(id, "Timeout!");
        }
    }

    void reset() override {
        auto entries = std::move(_by_id);
        _by_id.clear();
        _by_deadline.clear();
        for (auto& item : entries)
            item.second.promise.set_exception(std::make_exception_ptr(std::runtime_error("Reset client!")));
    }

    std::size_t size() const noexcept { return _by_id.size(); }
    bool empty() const noexcept { return _by_id.empty(); }

private:
    struct Entry {
        uint64_t timestamp;
        uint64_t timeout;
        std::promise<R> promise;
    };
    std::unordered_map<uuid_t, Entry> _by_id;
    std::map<std::pair<uint64_t, uint64_t>, uuid_t> _by_deadline; // (deadline, unique timestamp) -> id

    void forget(typename std::unordered_map<uuid_t, Entry>::iterator it) {
        if (it->second.timeout > 0)
            _by_deadline.erase(std::make_pair(it->second.timestamp + it->second.timeout, it->second.timestamp));
        _by_id.erase(it);
    }
};

template <class TBuffer = WriteBuffer>
class Client : public virtual Sender<TBuffer>, public virtual Receiver<TBuffer> {
public:
    using sender = Sender<TBuffer>;
    using receiver = Receiver<TBuffer>;

    //! Current UTC time in nanoseconds.
    static uint64_t utc() {
        return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                         std::chrono::system_clock::now().time_since_epoch())
                                         .count());
    }

    bool logging() const noexcept { return sender::logging(); }
    void logging(bool enable) noexcept {
        sender::logging(enable);
        receiver::logging(enable);
    }
    bool final() const noexcept { return sender::final(); }

    //! Fails every pending request ("Reset client!") and clears both buffers.
    void reset() {
        std::scoped_lock locker(_lock);
        reset_requests();
        sender::reset();
        receiver::reset();
    }

    //! Fails every pending request whose timestamp + timeout <= utc with "Timeout!".
    void watchdog(uint64_t utc) {
        std::scoped_lock locker(_lock);
        watchdog_requests(utc);
    }

    //! Serializes with the client lock held (requests and receive may run
    //! on different threads).
    void receive(const void* data, std::size_t size) {
        std::scoped_lock locker(_lock);
        receiver::receive(data, size);
    }
    void receive(const std::vector<uint8_t>& data) { receive(data.data(), data.size()); }

protected:
    Client() = default;

    //! reset() and watchdog() on every table of pending requests (_pending_tables).
    virtual void reset_requests() {
        for (PendingTable* table : _pending_tables)
            table->reset();
    }
    virtual void watchdog_requests(uint64_t utc) {
        for (PendingTable* table : _pending_tables)
            table->watchdog(utc);
    }
    //! Fails the pending request `id` of any type, in every table of this client (the package's and its
    //! imports'): what a global reject answers (docs/format.md 7.6); false when none is pending.
    bool fail_request(const uuid_t& id, const std::string& error) {
        for (PendingTable* table : _pending_tables)
            if (table->fail(id, error))
                return true;
        return false;
    }

    //! A request answered by a response of type R (the generated request(value, timeout)): with the client
    //! lock held, registered in `pending` under `id` (timeout in milliseconds, 0 = none), then sent by
    //! `send()`; a send that throws fails it. The future completes with the response or fails.
    template <typename R, typename TSend>
    std::future<R> send_request(PendingRequests<R>& pending, const uuid_t& id, uint64_t timeout, TSend&& send) {
        std::scoped_lock locker(_lock);
        std::promise<R> promise;
        std::future<R> future = promise.get_future();
        pending.add(id, unique_timestamp(), timeout * 1000000, std::move(promise));
        try {
            send();
        } catch (const std::exception& ex) {
            pending.fail(id, std::string("Send request failed! ") + ex.what());
        }
        return future;
    }

    //! A request without a response: sent by `send()` with the client lock held; the future completes once
    //! sent, or fails with what the send threw.
    template <typename TSend>
    std::future<void> send_request(TSend&& send) {
        std::scoped_lock locker(_lock);
        std::promise<void> promise;
        std::future<void> future = promise.get_future();
        try {
            send();
            promise.set_value();
        } catch (const std::exception& ex) {
            promise.set_exception(
                std::make_exception_ptr(std::runtime_error(std::string("Send request failed! ") + ex.what())));
        }
        return future;
    }

    //! A timestamp unique within this client: current UTC nanoseconds,
    //! bumped by one when not greater than the previous one.
    uint64_t unique_timestamp() {
        const uint64_t current = utc();
        _timestamp = current <= _timestamp ? _timestamp + 1 : current;
        return _timestamp;
    }

    std::recursive_mutex _lock;
    uint64_t _timestamp = 0;
    //! The tables of pending requests of the generated Clients, those of the imports (virtual bases, made
    //! first) before the package's own: each table adds itself when made (PendingRequests(client)).
    std::vector<PendingTable*> _pending_tables;

    template <typename>
    friend class PendingRequests;
};

} // namespace FBE
