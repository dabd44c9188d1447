// The rpc server of the TCP example: one Session per connection, each a
// generated FBE::rpc::Sender + FBE::rpc::Receiver over an asio socket.
//
// Reading: async_read_some into a 64 KiB buffer, handed to receive() as it
// comes (any fragmentation). Writing: onSend() appends to a queue; one
// async_write_some at a time drains it, so the replies to a burst of
// requests go out in a few large writes.
//
// What a client cannot do to the server (ServerConfig, docs/cpp-json-protocol.md):
// * make it buffer without bound: above send_queue_limit queued reply bytes
//   the session stops reading that client until the queue drains
//   (backpressure: a client that never reads its replies stalls itself);
//   above send_queue_hard_limit (replies not caused by a read) it is dropped;
// * make it allocate what it has not sent: a partial frame holds only the
//   bytes received, and a frame size above max_frame_size drops the client;
// * kill it: every handler runs inside contained(), so an exception
//   (std::bad_alloc included) ends its own connection and nothing else;
// * hold a connection forever: idle_timeout without any byte read or
//   written closes it;
// * hold a slot by sending slowly: a frame must be whole frame_timeout after
//   its first byte (the first frame: after accept), or the connection is
//   closed;
// * exhaust it with connections: at max_connections a new connection takes
//   the slot of the connection that has waited longest for a frame to
//   complete; when every open connection is between frames, the new one is
//   closed as soon as it is accepted.
// The policy is the same in every language's example: docs/tcp-examples.md.
// A protocol error (bad frame, unknown type, invalid body) drops the client
// with one message; the rest of what it sent is not processed.

#pragma once

#include "rpc_final_protocol.h"
#include "rpc_protocol.h"

#include <asio.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <list>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcp_example {

//! The server's limits; every one is a tcp_server option.
struct ServerConfig {
    //! Bytes of each socket read (one buffer per connection).
    static constexpr std::size_t kReadBufferSize = 64 * 1024;

    //! Open connections; one more evicts the one waiting longest for a frame,
    //! or is closed right after accept when none is.
    std::size_t max_connections = 256;
    //! Largest accepted frame (a request): a client declaring more is dropped.
    //! The rpc messages are small, so well below the Receiver's own 64 MiB default.
    std::size_t max_frame_size = std::size_t(1) << 20;
    //! Reply bytes queued for one client above which the server stops reading it.
    std::size_t send_queue_limit = std::size_t(1) << 20;
    //! Reply bytes queued for one client above which it is dropped. Must leave
    //! room for the replies to one read over send_queue_limit (see valid());
    //! 0 = the larger of 4 MiB and that room (hard_limit()).
    std::size_t send_queue_hard_limit = 0;
    //! A connection with no byte read or written for this long is closed (0 = never).
    std::chrono::milliseconds idle_timeout{60000};
    //! A frame not whole this long after its first byte (the first frame: after
    //! accept) closes its connection (0 = never).
    std::chrono::milliseconds frame_timeout{10000};
    //! Speak final-model frames (the client must too).
    bool final = false;
    //! Stop accepting after the first connection.
    bool once = false;

    //! The least send_queue_hard_limit: the replies to one read (a completed
    //! frame plus one read buffer of small requests) are at most about as
    //! large as the requests, so twice that over the soft limit is never
    //! reached by a client that merely pipelines.
    std::size_t least_hard_limit() const noexcept { return send_queue_limit + 2 * (max_frame_size + kReadBufferSize); }

    //! send_queue_hard_limit, or when 0 the larger of 4 MiB and least_hard_limit().
    std::size_t hard_limit() const noexcept {
        return send_queue_hard_limit != 0 ? send_queue_hard_limit
                                          : std::max(std::size_t(4) << 20, least_hard_limit());
    }

    //! Empty when the limits are consistent, else why not.
    std::string valid() const {
        if (max_connections == 0 || max_frame_size == 0 || send_queue_limit == 0)
            return "max_connections, max_frame_size and send_queue_limit must be positive";
        if (max_frame_size > (std::size_t(1) << 32) || send_queue_limit > (std::size_t(1) << 40))
            return "max_frame_size is at most 4 GiB and send_queue_limit at most 1 TiB";
        if (hard_limit() < least_hard_limit())
            return "send_queue_hard_limit must be at least send_queue_limit + 2 * (max_frame_size + 64 KiB) = " +
                   std::to_string(least_hard_limit()) +
                   " bytes, or a client that merely pipelines requests is dropped instead of paused";
        return {};
    }
};

//! What the Server needs of a session to choose which one a new connection evicts.
class Evictable {
public:
    using clock = std::chrono::steady_clock;

    //! Since when the session waits for a frame to complete (accept, or the
    //! frame's first byte); nothing when it is between frames.
    virtual std::optional<clock::time_point> waiting_since() const noexcept = 0;
    //! Closes the connection without a message (the Server reports evictions).
    virtual void evict() noexcept = 0;

protected:
    ~Evictable() = default;
};

//! TSender/TReceiver: FBE::rpc::Sender<> + Receiver<> (versioned frames) or
//! FinalSender<> + FinalReceiver<> (final frames); both ends must agree.
template <class TSender, class TReceiver>
class BasicSession : public std::enable_shared_from_this<BasicSession<TSender, TReceiver>>,
                     public TSender,
                     public TReceiver,
                     public Evictable {
public:
    BasicSession(asio::ip::tcp::socket socket, const ServerConfig& config, std::function<void()> on_close)
        : _socket(std::move(socket)), _timer(_socket.get_executor()), _config(config),
          _on_close(std::move(on_close)) {
        asio::error_code ec; // a peer already gone is noticed by the first read
        _socket.set_option(asio::ip::tcp::no_delay(true), ec);
        const auto peer = _socket.remote_endpoint(ec);
        _peer = ec ? std::string("(unknown peer)") : peer.address().to_string() + ":" + std::to_string(peer.port());
        TReceiver::max_frame_size(config.max_frame_size);
    }

    void start() noexcept {
        contained([&] {
            _last_activity = clock::now();
            _waiting_since = _last_activity; // the first frame is due frame_timeout after accept
            read();
            arm_timer();
        });
    }

    std::optional<clock::time_point> waiting_since() const noexcept override {
        return _closed ? std::nullopt : _waiting_since;
    }

    void evict() noexcept override { close(); }

    uint64_t requests() const noexcept { return _requests; }
    //! Reply bytes not yet written to the socket.
    std::size_t queued() const noexcept { return _queue.size() + _writing_bytes.size() - _written; }

protected:
    // ---------------------------------------------------------- protocol
    void onReceive(const ::rpc::Ping& ping) override {
        ++_requests;
        this->send(::rpc::Pong(ping.id, ping.sequence, ping.payload));
    }

    void onReceive(const ::rpc::PlaceOrder& order) override {
        ++_requests;
        if (order.quantity > 0 && !order.symbol.empty())
            this->send(::rpc::OrderAccepted(order.id, static_cast<int64_t>(++_orders), order.price, order.quantity));
        else
            this->send(::rpc::OrderRejected(order.id, order.symbol.empty() ? "empty symbol" : "quantity must be positive"));
    }

    void onReceive(const ::rpc::Notice& notice) override {
        ++_requests;
        ::rpc::Heartbeat heartbeat;
        heartbeat.time = static_cast<uint64_t>(notice.text.size());
        this->send(heartbeat);
    }

    //! Any bad frame drops the client; throwing stops receive() so the rest
    //! of what it sent is neither processed nor reported again.
    void onReceiveError(FBE::ReceiveError error, const std::string& reason) override {
        std::string text = std::string(FBE::to_string(error)) + ": " + reason;
        if (error == FBE::ReceiveError::BadHeader || error == FBE::ReceiveError::UnknownType ||
            error == FBE::ReceiveError::FrameTooSmall) {
            text += TReceiver::final() ? " (this server reads final-model frames: was the client started without --final?)"
                                       : " (this server reads versioned frames: was the client started with --final?)";
            notice(text);
            throw Dropped{};
        }
        drop(text);
        throw Dropped{};
    }

    //! Called inside receive() only (every send answers a request).
    std::size_t onSend(const void* data, std::size_t size) override {
        if (_closed)
            return size; // the connection is gone: the bytes go nowhere
        if (queued() + size > _config.hard_limit()) {
            drop("the send queue would exceed " + std::to_string(_config.hard_limit()) +
                 " bytes (the client does not read its replies)");
            throw Dropped{};
        }
        const uint8_t* bytes = static_cast<const uint8_t*>(data);
        _queue.insert(_queue.end(), bytes, bytes + size);
        if (!_writing)
            write();
        return size;
    }

private:
    //! Thrown after drop() to unwind out of receive(); already reported.
    struct Dropped {};

    //! Memory kept by an idle connection's buffers; more is released.
    static constexpr std::size_t kKeepCapacity = 64 * 1024;

    asio::ip::tcp::socket _socket;
    asio::steady_timer _timer; // the idle timeout and the frame timeout, whichever is due first
    const ServerConfig _config;
    std::function<void()> _on_close;
    std::string _peer;
    std::array<uint8_t, ServerConfig::kReadBufferSize> _input{};
    std::vector<uint8_t> _queue;         // replies not yet handed to asio
    std::vector<uint8_t> _writing_bytes; // the bytes being written, _written of them done
    std::size_t _written = 0;
    bool _writing = false;
    bool _reading = false;
    bool _closed = false;
    bool _noticing = false; // the model notice is sent: reading and dropping until the client closes
    clock::time_point _last_activity;
    std::optional<clock::time_point> _waiting_since; // the frame timeout counts from it
    bool _framed = false;                             // a frame completed
    std::optional<clock::time_point> _timer_due;      // when the timer's wait ends
    uint64_t _requests = 0;
    uint64_t _orders = 0;

    //! Runs a handler's body; any exception ends this connection only.
    template <class F>
    void contained(F&& body) noexcept {
        try {
            body();
        } catch (const Dropped&) {
        } catch (const std::bad_alloc&) {
            drop("out of memory (std::bad_alloc)");
        } catch (const std::exception& ex) {
            drop(std::string("exception: ") + ex.what());
        } catch (...) {
            drop("unknown exception");
        }
    }

    //! Reads unless a read is in flight or the send queue is over its limit
    //! (then the write handler calls read() again once it has drained).
    void read() {
        if (_closed || _reading || queued() > _config.send_queue_limit)
            return;
        _reading = true;
        auto self = this->shared_from_this();
        _socket.async_read_some(asio::buffer(_input), [this, self](const asio::error_code& ec, std::size_t n) {
            _reading = false;
            contained([&] {
                if (ec) {
                    close(); // the client left (or the socket was closed by drop())
                    return;
                }
                if (_noticing) { // after the model notice what arrives is dropped
                    read();
                    return;
                }
                _last_activity = clock::now();
                const std::size_t before = TReceiver::buffer().size();
                this->receive(_input.data(), n);
                frames_received(before + n, TReceiver::buffer().size());
                release_memory();
                read();
            });
        });
    }

    void write() {
        if (_written == _writing_bytes.size()) {
            _writing_bytes.clear();
            _written = 0;
            if (_queue.empty() || _closed) {
                _writing = false;
                release_memory();
                if (_noticing && !_closed) { // the model notice is out: end the sending side
                    asio::error_code ignored;
                    _socket.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
                }
                return;
            }
            _writing_bytes.swap(_queue);
        }
        _writing = true;
        auto self = this->shared_from_this();
        _socket.async_write_some(asio::buffer(_writing_bytes.data() + _written, _writing_bytes.size() - _written),
                                 [this, self](const asio::error_code& ec, std::size_t n) {
                                     contained([&] {
                                         if (ec) {
                                             _writing = false;
                                             close();
                                             return;
                                         }
                                         _last_activity = clock::now();
                                         _written += n;
                                         write();
                                         read(); // resumes a paused client once its queue is below the limit
                                     });
                                 });
    }

    //! After a read of n bytes: `unfinished` bytes of an incomplete frame if
    //! no frame completed (what was pending + n), `pending` what is now.
    //! A frame completed when fewer are pending; waiting starts again with the
    //! next frame's first byte.
    void frames_received(std::size_t unfinished, std::size_t pending) {
        if (pending < unfinished) {
            _framed = true;
            _waiting_since = pending > 0 ? std::optional(_last_activity) : std::nullopt;
        } else if (!_waiting_since) {
            _waiting_since = _last_activity;
        }
        const auto at = due();
        if (at && (!_timer_due || *at < *_timer_due))
            arm_timer();
    }

    //! When the connection is due to close: idle_timeout after the last byte
    //! read or written, frame_timeout after waiting began, whichever is first.
    std::optional<clock::time_point> due() const {
        std::optional<clock::time_point> at;
        if (_config.idle_timeout.count() > 0)
            at = _last_activity + _config.idle_timeout;
        if (_waiting_since && _config.frame_timeout.count() > 0) {
            const auto frame_due = *_waiting_since + _config.frame_timeout;
            at = at ? std::min(*at, frame_due) : frame_due;
        }
        return at;
    }

    //! Closes the connection when nothing was read or written for
    //! idle_timeout, or a frame is not whole frame_timeout after waiting began.
    void arm_timer() {
        const auto at = due();
        if (!at || _closed || _noticing)
            return;
        _timer.expires_at(*at); // cancels the wait before, whose handler sees operation_aborted
        _timer_due = at;
        auto self = this->shared_from_this();
        _timer.async_wait([this, self](const asio::error_code& ec) {
            contained([&] {
                if (ec || _closed)
                    return;
                _timer_due.reset();
                const auto now = clock::now();
                if (_waiting_since && _config.frame_timeout.count() > 0 && now >= *_waiting_since + _config.frame_timeout) {
                    drop("frame timeout: no whole frame " + std::to_string(_config.frame_timeout.count()) + " ms after " +
                         (_framed ? "its first byte" : "the connection opened"));
                    return;
                }
                if (_config.idle_timeout.count() > 0 && now - _last_activity >= _config.idle_timeout) {
                    drop("idle for " + std::to_string(_config.idle_timeout.count()) + " ms (nothing read or written)");
                    return;
                }
                arm_timer();
            });
        });
    }

    //! Gives back the memory of a large frame or reply burst once it is done,
    //! so an idle connection costs about its read buffer.
    void release_memory() noexcept {
        release(TReceiver::buffer());
        release(TSender::buffer());
        if (_queue.empty() && _queue.capacity() > kKeepCapacity)
            std::vector<uint8_t>().swap(_queue);
        if (_writing_bytes.empty() && _writing_bytes.capacity() > kKeepCapacity)
            std::vector<uint8_t>().swap(_writing_bytes);
    }
    template <class TBuffer>
    static void release(TBuffer& buffer) noexcept {
        if (buffer.empty() && buffer.capacity() > kKeepCapacity) {
            TBuffer empty;
            buffer.swap(empty);
        }
    }

    //! Reports why the connection ends (once) for a frame that made no sense
    //! in this server's model, sends the model notice (docs/format.md 7.4)
    //! after the replies queued before it and closes once the client has
    //! closed, a second later at most: closing with the client's bytes
    //! unread would reset the connection and the client would lose the notice.
    void notice(const std::string& reason) {
        if (_closed || _noticing)
            return;
        try {
            std::cerr << "server: " << _peer << ": dropping the connection: " << reason << std::endl;
        } catch (...) {
        }
        _noticing = true;
        const auto bytes = FBE::model_notice(TReceiver::final());
        _queue.insert(_queue.end(), bytes.begin(), bytes.end());
        if (!_writing)
            write();
        _timer.expires_after(std::chrono::seconds(1)); // cancels the timeouts' wait
        _timer_due.reset();
        auto self = this->shared_from_this();
        _timer.async_wait([this, self](const asio::error_code& ec) {
            if (!ec)
                close();
        });
        read();
    }

    //! Reports why the connection ends (once) and closes it.
    void drop(const std::string& reason) noexcept {
        if (_closed)
            return;
        try {
            std::cerr << "server: " << _peer << ": dropping the connection: " << reason << std::endl;
        } catch (...) {
        }
        close();
    }

    void close() noexcept {
        if (_closed)
            return;
        _closed = true;
        asio::error_code ignored;
        _socket.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        _socket.close(ignored);
        try {
            _timer.cancel();
        } catch (...) {
        }
        _queue.clear();
        release_memory();
        if (_on_close) {
            try {
                _on_close();
            } catch (...) {
            }
        }
    }
};

using Session = BasicSession<FBE::rpc::Sender<>, FBE::rpc::Receiver<>>;
using FinalSession = BasicSession<FBE::rpc::FinalSender<>, FBE::rpc::FinalReceiver<>>;

//! Accepts connections on host:port (0 = an ephemeral port). With
//! config.once, stops accepting after the first connection and the
//! io_context runs out of work when that session closes.
class Server {
public:
    //! `on_close` runs when a session ends. Throws std::invalid_argument
    //! when config.valid() says the limits are inconsistent.
    Server(asio::io_context& io, const std::string& host, uint16_t port, ServerConfig config = {},
           std::function<void()> on_close = nullptr)
        : _config(checked(std::move(config))),
          _acceptor(io, asio::ip::tcp::endpoint(asio::ip::make_address(host), port)), _retry(io),
          _on_close(std::move(on_close)) {
        accept();
    }

    uint16_t port() const { return _acceptor.local_endpoint().port(); }
    const ServerConfig& config() const noexcept { return _config; }
    //! Connections served, open now, refused over max_connections, and
    //! evicted at max_connections for a new one.
    uint64_t sessions() const noexcept { return _sessions; }
    std::size_t open() const noexcept { return _open.size(); }
    uint64_t refused() const noexcept { return _refused; }
    uint64_t evicted() const noexcept { return _evicted; }

private:
    const ServerConfig _config;
    asio::ip::tcp::acceptor _acceptor;
    asio::steady_timer _retry;
    std::function<void()> _on_close;
    std::list<std::weak_ptr<Evictable>> _open; // a session leaves when it closes
    uint64_t _sessions = 0;
    uint64_t _refused = 0;
    uint64_t _evicted = 0;
    // One message per episode at max_connections for each, not one per
    // connection: an episode ends when fewer than three quarters are open.
    bool _evicting = false;
    bool _refusing = false;

    static ServerConfig checked(ServerConfig config) {
        const std::string problem = config.valid();
        if (!problem.empty())
            throw std::invalid_argument(problem);
        return config;
    }

    void accept() {
        _acceptor.async_accept([this](const asio::error_code& ec, asio::ip::tcp::socket socket) {
            if (ec) {
                if (ec == asio::error::operation_aborted)
                    return;
                // Out of file descriptors and the like: retry shortly rather than spin.
                std::cerr << "server: accept: " << ec.message() << std::endl;
                retry_accept();
                return;
            }
            start_session(std::move(socket));
            if (_config.once) {
                asio::error_code ignored;
                _acceptor.close(ignored);
                return;
            }
            try {
                accept();
            } catch (const std::exception& ex) { // std::bad_alloc: keep the server accepting
                std::cerr << "server: accept: " << ex.what() << std::endl;
                retry_accept();
            }
        });
    }

    void retry_accept() {
        try {
            _retry.expires_after(std::chrono::milliseconds(100));
            _retry.async_wait([this](const asio::error_code& ec) {
                if (ec)
                    return;
                try {
                    accept();
                } catch (const std::exception&) {
                    retry_accept();
                }
            });
        } catch (const std::exception& ex) {
            std::cerr << "server: no longer accepting connections: " << ex.what() << std::endl;
        }
    }

    //! The open session that has waited longest for a frame, or null when every one is between frames.
    std::shared_ptr<Evictable> slowest() const noexcept {
        std::shared_ptr<Evictable> slowest;
        std::optional<Evictable::clock::time_point> oldest;
        for (const auto& weak : _open) {
            auto session = weak.lock();
            const auto since = session ? session->waiting_since() : std::nullopt;
            if (since && (!oldest || *since < *oldest)) {
                oldest = since;
                slowest = std::move(session);
            }
        }
        return slowest;
    }

    //! Admits the connection, at max_connections in the slot of the session
    //! that has waited longest for a frame; refuses it when every one is
    //! between frames.
    void start_session(asio::ip::tcp::socket socket) noexcept {
        asio::error_code ignored;
        if (_open.size() >= _config.max_connections) {
            if (auto victim = slowest()) {
                ++_evicted;
                if (!_evicting) // one message per episode, not one per eviction
                    std::cerr << "server: " << _open.size()
                              << " connections open (max_connections): a new one evicts the one waiting longest for a frame"
                              << std::endl;
                _evicting = true;
                victim->evict(); // its on_close leaves _open
            }
        }
        if (_open.size() >= _config.max_connections) {
            ++_refused;
            if (!_refusing)
                std::cerr << "server: " << _open.size()
                          << " connections open (max_connections), each between frames: closing new ones until one ends"
                          << std::endl;
            _refusing = true;
            socket.close(ignored);
            return;
        }
        if (_open.size() < _config.max_connections - _config.max_connections / 4)
            _evicting = _refusing = false; // the episode is over: below three quarters of max_connections
        try {
            const auto slot = _open.emplace(_open.end());
            try {
                auto on_close = [this, slot] {
                    _open.erase(slot);
                    if (_on_close)
                        _on_close();
                };
                if (_config.final)
                    launch(std::make_shared<FinalSession>(std::move(socket), _config, std::move(on_close)), slot);
                else
                    launch(std::make_shared<Session>(std::move(socket), _config, std::move(on_close)), slot);
            } catch (...) {
                _open.erase(slot); // the session was not made
                throw;
            }
        } catch (const std::exception& ex) {
            std::cerr << "server: cannot start a session: " << ex.what() << std::endl;
            socket.close(ignored);
        }
    }

    template <class TSession>
    void launch(std::shared_ptr<TSession> session, std::list<std::weak_ptr<Evictable>>::iterator slot) noexcept {
        *slot = session;
        ++_sessions;
        session->start();
    }
};

} // namespace tcp_example
