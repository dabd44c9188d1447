// The rpc server of the TCP example: one Session per connection, each a
// generated FBE::rpc::Sender + FBE::rpc::Receiver over an asio socket.
//
// Reading: async_read_some into a 64 KiB buffer, handed to receive() as it
// comes (any fragmentation). Writing: onSend() appends to a queue; one
// async_write at a time drains it, so the replies to a burst of requests go
// out in a few large writes.

#pragma once

#include "rpc_final_protocol.h"
#include "rpc_protocol.h"

#include <asio.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace tcp_example {

//! TSender/TReceiver: FBE::rpc::Sender<> + Receiver<> (versioned frames) or
//! FinalSender<> + FinalReceiver<> (final frames); both ends must agree.
template <class TSender, class TReceiver>
class BasicSession : public std::enable_shared_from_this<BasicSession<TSender, TReceiver>>,
                     public TSender,
                     public TReceiver {
public:
    explicit BasicSession(asio::ip::tcp::socket socket, std::function<void()> on_close)
        : _socket(std::move(socket)), _on_close(std::move(on_close)) {
        _socket.set_option(asio::ip::tcp::no_delay(true));
    }

    void start() { read(); }

    uint64_t requests() const noexcept { return _requests; }

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

    void onReceiveError(FBE::ReceiveError error, const std::string& reason) override {
        std::cerr << "server: dropping the connection: " << error << ": " << reason << std::endl;
        close();
    }

    std::size_t onSend(const void* data, std::size_t size) override {
        const uint8_t* bytes = static_cast<const uint8_t*>(data);
        _queue.insert(_queue.end(), bytes, bytes + size);
        if (!_writing)
            write();
        return size;
    }

private:
    asio::ip::tcp::socket _socket;
    std::function<void()> _on_close;
    std::array<uint8_t, 65536> _input{};
    std::vector<uint8_t> _queue;   // replies not yet handed to asio
    std::vector<uint8_t> _writing_bytes; // the bytes of the write in flight
    bool _writing = false;
    bool _closed = false;
    uint64_t _requests = 0;
    uint64_t _orders = 0;

    void read() {
        auto self = this->shared_from_this();
        _socket.async_read_some(asio::buffer(_input), [this, self](const asio::error_code& ec, std::size_t n) {
            if (ec) {
                close();
                return;
            }
            this->receive(_input.data(), n);
            if (!_closed)
                read();
        });
    }

    void write() {
        if (_queue.empty() || _closed) {
            _writing = false;
            return;
        }
        _writing = true;
        _writing_bytes.swap(_queue);
        _queue.clear();
        auto self = this->shared_from_this();
        asio::async_write(_socket, asio::buffer(_writing_bytes), [this, self](const asio::error_code& ec, std::size_t) {
            if (ec) {
                close();
                return;
            }
            write();
        });
    }

    void close() {
        if (_closed)
            return;
        _closed = true;
        asio::error_code ignored;
        _socket.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        _socket.close(ignored);
        if (_on_close)
            _on_close();
    }
};

using Session = BasicSession<FBE::rpc::Sender<>, FBE::rpc::Receiver<>>;
using FinalSession = BasicSession<FBE::rpc::FinalSender<>, FBE::rpc::FinalReceiver<>>;

//! Accepts connections on host:port (0 = an ephemeral port). With `once`,
//! stops accepting after the first connection and the io_context runs out
//! of work when that session closes.
class Server {
public:
    //! `on_close` runs when a session ends.
    Server(asio::io_context& io, const std::string& host, uint16_t port, bool once,
           std::function<void()> on_close = nullptr, bool final = false)
        : _acceptor(io, asio::ip::tcp::endpoint(asio::ip::make_address(host), port)), _once(once),
          _on_close(std::move(on_close)), _final(final) {
        accept();
    }

    uint16_t port() const { return _acceptor.local_endpoint().port(); }
    uint64_t sessions() const noexcept { return _sessions; }

private:
    asio::ip::tcp::acceptor _acceptor;
    bool _once;
    std::function<void()> _on_close;
    bool _final;
    uint64_t _sessions = 0;

    void accept() {
        _acceptor.async_accept([this](const asio::error_code& ec, asio::ip::tcp::socket socket) {
            if (!ec) {
                ++_sessions;
                if (_final)
                    std::make_shared<FinalSession>(std::move(socket), _on_close)->start();
                else
                    std::make_shared<Session>(std::move(socket), _on_close)->start();
            }
            if (_once && _sessions > 0) {
                asio::error_code ignored;
                _acceptor.close(ignored);
                return;
            }
            accept();
        });
    }
};

} // namespace tcp_example
