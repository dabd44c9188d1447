// tcp_client: sends a bounded number of requests to tcp_server and checks
// every reply; exit status 0 when all are right.
//
//   tcp_client --port PORT [--host 127.0.0.1] [--messages 1000] [--window 64] [--final]
//
// Mix: Ping -> Pong (same id, sequence and payload); every 5th request a
// PlaceOrder -> OrderAccepted, or OrderRejected when its quantity is 0
// (every 15th); one Notice (no response) -> a Heartbeat notification.
// Every request has a 5 s timeout; the whole run is bounded too. When the
// server closes the connection the client stops at once and says so
// (exit status 1), rather than waiting out the timeouts.

#include "client.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <iostream>
#include <variant>

namespace {

struct Pending {
    int64_t sequence;
    bool order;
    bool reject;
    FBE::uuid_t id;
    std::string payload;
    std::future<::rpc::Pong> pong;
    std::future<::rpc::OrderAccepted> accepted;
};

} // namespace

template <class TClient>
int run(const std::string& host, uint16_t port, int64_t messages, std::size_t window) {
    TClient client;
    try {
        client.connect(host, port);
    } catch (const std::exception& ex) {
        std::cerr << "tcp_client: connect: " << ex.what() << std::endl;
        return 1;
    }

    int64_t ok = 0, failed = 0, rejected = 0, unanswered = 0;
    auto check = [&](Pending& p) {
        try {
            if (p.order) {
                if (p.accepted.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
                    throw std::runtime_error("no reply within 10 s");
                try {
                    const ::rpc::OrderAccepted a = p.accepted.get();
                    if (p.reject || a.id != p.id || a.quantity != 100.0 + static_cast<double>(p.sequence))
                        throw std::runtime_error("wrong OrderAccepted " + a.string());
                } catch (const std::runtime_error& ex) {
                    const std::string what = ex.what();
                    if (!p.reject || what.rfind("OrderRejected(id=\"" + p.id.string() + "\"", 0) != 0)
                        throw;
                    ++rejected;
                }
            } else {
                if (p.pong.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
                    throw std::runtime_error("no reply within 10 s");
                const ::rpc::Pong pong = p.pong.get();
                if (pong.id != p.id || pong.sequence != p.sequence || pong.payload != p.payload)
                    throw std::runtime_error("wrong Pong " + pong.string());
            }
            ++ok;
        } catch (const std::exception& ex) {
            ++failed;
            if (client.closed())
                ++unanswered; // one message for all of them, below
            else
                std::cerr << "request " << p.sequence << ": " << ex.what() << std::endl;
        }
    };

    const auto start = std::chrono::steady_clock::now();
    auto notice = client.request(::rpc::Notice(FBE::uuid_t::sequential(), "hello"));
    std::deque<Pending> inflight;
    int64_t sent = 0;
    for (int64_t i = 0; i < messages && !client.closed(); ++i, ++sent) {
        Pending p{i, i % 5 == 4, i % 15 == 14, FBE::uuid_t::sequential(), "payload " + std::to_string(i), {}, {}};
        if (p.order) {
            ::rpc::PlaceOrder order(p.id, "EURUSD", ::rpc::Side::buy, 1.1, p.reject ? 0.0 : 100.0 + static_cast<double>(i));
            p.accepted = client.request(order, 5000);
        } else {
            p.pong = client.request(::rpc::Ping(p.id, i, p.payload), 5000);
        }
        inflight.push_back(std::move(p));
        if (inflight.size() >= window) {
            check(inflight.front());
            inflight.pop_front();
        }
    }
    while (!inflight.empty()) {
        check(inflight.front());
        inflight.pop_front();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    try {
        notice.get();
    } catch (const std::exception& ex) {
        ++failed;
        if (!client.closed())
            std::cerr << "notice: " << ex.what() << std::endl;
    }
    if (client.closed()) {
        std::cerr << "tcp_client: " << client.close_reason() << " after " << ok << " of " << messages
                  << " replies; " << unanswered << " of the " << sent
                  << " requests sent failed with it. The server's log says why (one end started with --final and "
                     "the other without is a common cause)"
                  << std::endl;
        client.disconnect();
        return 1;
    }
    // The Heartbeat answering the Notice arrives as a notification.
    for (int i = 0; i < 200 && client.notifications() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (client.notifications() != 1) {
        ++failed;
        std::cerr << "expected 1 heartbeat notification, got " << client.notifications() << std::endl;
    }
    if (client.errors() != 0)
        ++failed;
    client.disconnect();
    std::cout << "tcp_client: " << (client.final() ? "final" : "versioned") << " frames, " << messages << " requests, " << ok << " replies checked (" << rejected
              << " rejects as expected), " << failed << " failed, " << seconds << " s" << std::endl;
    return failed == 0 && ok == messages ? 0 : 1;
}

int main(int argc, char** argv) {
    std::string host = "127.0.0.1";
    uint16_t port = 0;
    int64_t messages = 1000;
    std::size_t window = 64;
    bool final = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--host") && i + 1 < argc)
            host = argv[++i];
        else if (!std::strcmp(argv[i], "--port") && i + 1 < argc)
            port = static_cast<uint16_t>(std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--messages") && i + 1 < argc)
            messages = std::atoll(argv[++i]);
        else if (!std::strcmp(argv[i], "--window") && i + 1 < argc)
            window = static_cast<std::size_t>(std::atoll(argv[++i]));
        else if (!std::strcmp(argv[i], "--final"))
            final = true;
        else {
            std::cerr << "usage: tcp_client --port PORT [--host 127.0.0.1] [--messages N] [--window W] [--final]" << std::endl;
            return 2;
        }
    }
    if (port == 0 || messages <= 0 || window == 0) {
        std::cerr << "tcp_client: --port, --messages > 0 and --window > 0 are required" << std::endl;
        return 2;
    }

    return final ? run<tcp_example::FinalRpcClient>(host, port, messages, window)
                 : run<tcp_example::RpcClient>(host, port, messages, window);
}
