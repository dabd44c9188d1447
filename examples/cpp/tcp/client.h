// The rpc client of the TCP example: the generated FBE::rpc::Client over an
// asio socket served by one io thread.
//
// request() may be called from any thread: it serializes under the client
// lock and onSend() only appends to a queue (its own mutex) and wakes the io
// thread, which writes. The io thread reads and feeds receive(), which
// completes the futures. Nothing blocks on the network while holding a lock.
//
// When the server closes the connection (or it breaks) the client notices at
// once: every pending request fails, closed() turns true with the reason,
// and a later request fails when it is sent instead of waiting for its
// timeout.

#pragma once

#include "rpc_final_protocol.h"
#include "rpc_protocol.h"

#include <asio.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tcp_example {

//! TClient: FBE::rpc::Client<> (versioned frames) or FBE::rpc::FinalClient<>.
template <class TClient>
class BasicRpcClient : public TClient {
public:
    BasicRpcClient() : _socket(_io), _watchdog(_io), _work(asio::make_work_guard(_io)) {}
    ~BasicRpcClient() override { disconnect(); }

    //! Connects (blocking) and starts the io thread.
    void connect(const std::string& host, uint16_t port) {
        _socket.connect(asio::ip::tcp::endpoint(asio::ip::make_address(host), port));
        _socket.set_option(asio::ip::tcp::no_delay(true));
        read();
        tick();
        _thread = std::thread([this] { _io.run(); });
    }

    //! Closes the socket, fails pending requests, joins the io thread.
    void disconnect() {
        if (!_thread.joinable())
            return;
        _disconnecting = true;
        asio::post(_io, [this] {
            asio::error_code ignored;
            _watchdog.cancel();
            _socket.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
            _socket.close(ignored);
        });
        _work.reset();
        _thread.join();
        this->reset();
    }

    uint64_t notifications() const noexcept { return _notifications; }
    uint64_t errors() const noexcept { return _errors; }

    //! True once the connection ended without disconnect(); close_reason() says how.
    bool closed() const noexcept { return _closed; }
    std::string close_reason() {
        std::scoped_lock locker(this->_lock);
        return _close_reason;
    }

protected:
    //! Runs under the client lock (request()), as connection_closed() does:
    //! a request sent after the close fails here, at once.
    std::size_t onSend(const void* data, std::size_t size) override {
        if (_closed)
            throw std::runtime_error(_close_reason);
        std::scoped_lock locker(_out_lock);
        const uint8_t* bytes = static_cast<const uint8_t*>(data);
        _queue.insert(_queue.end(), bytes, bytes + size);
        if (!_writing) {
            _writing = true;
            asio::post(_io, [this] { write(); });
        }
        return size;
    }

    void onReceiveNotify(const ::rpc::Heartbeat&) override { ++_notifications; }

    void onReceiveError(FBE::ReceiveError error, const std::string& reason) override {
        ++_errors;
        std::cerr << "client: " << error << ": " << reason << std::endl;
    }

private:
    asio::io_context _io;
    asio::ip::tcp::socket _socket;
    asio::steady_timer _watchdog;
    asio::executor_work_guard<asio::io_context::executor_type> _work;
    std::thread _thread;
    std::array<uint8_t, 65536> _input{};
    std::mutex _out_lock;
    std::vector<uint8_t> _queue;
    std::vector<uint8_t> _writing_bytes;
    bool _writing = false;
    std::atomic<uint64_t> _notifications{0};
    std::atomic<uint64_t> _errors{0};
    std::atomic<bool> _disconnecting{false};
    std::atomic<bool> _closed{false};
    std::string _close_reason; // under the client lock

    void read() {
        _socket.async_read_some(asio::buffer(_input), [this](const asio::error_code& ec, std::size_t n) {
            if (ec) {
                connection_closed(ec);
                return;
            }
            this->receive(_input.data(), n);
            read();
        });
    }

    //! The connection ended under us: fail every pending request now
    //! rather than when its timeout expires; closed() and close_reason()
    //! tell the application, which reports it.
    void connection_closed(const asio::error_code& ec) {
        if (_disconnecting)
            return;
        {
            std::scoped_lock locker(this->_lock);
            if (_closed)
                return;
            if (ec == asio::error::eof)
                _close_reason = "the server closed the connection";
            else if (ec == asio::error::connection_reset)
                _close_reason = "the server closed the connection (reset)";
            else if (ec == asio::error::broken_pipe) // a write that found the connection closed
                _close_reason = "the server closed the connection (broken pipe)";
            else
                _close_reason = "the connection broke: " + ec.message();
            _closed = true;
            this->reset(); // fails the pending requests
        }
        asio::error_code ignored;
        _socket.close(ignored);
    }

    void write() {
        {
            std::scoped_lock locker(_out_lock);
            if (_queue.empty()) {
                _writing = false;
                return;
            }
            _writing_bytes.clear();
            _writing_bytes.swap(_queue);
        }
        asio::async_write(_socket, asio::buffer(_writing_bytes), [this](const asio::error_code& ec, std::size_t) {
            if (ec) {
                {
                    std::scoped_lock locker(_out_lock);
                    _writing = false;
                }
                connection_closed(ec);
                return;
            }
            write();
        });
    }

    //! Times out expired requests every 50 ms.
    void tick() {
        _watchdog.expires_after(std::chrono::milliseconds(50));
        _watchdog.async_wait([this](const asio::error_code& ec) {
            // A tick already due when disconnect() cancelled the timer must
            // not re-arm it, or the io thread never runs out of work.
            if (ec || _disconnecting)
                return;
            this->watchdog(TClient::utc());
            tick();
        });
    }
};

using RpcClient = BasicRpcClient<FBE::rpc::Client<>>;
using FinalRpcClient = BasicRpcClient<FBE::rpc::FinalClient<>>;

} // namespace tcp_example
