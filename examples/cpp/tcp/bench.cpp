// tcp_bench: requests per second and round-trip latency of the rpc
// protocol over TCP on 127.0.0.1 (server in a thread of this process, its
// own io_context; the client as in tcp_client), after the protocol alone
// in process (Sender -> Receiver, no network).
//
//   tcp_bench [--messages 200000] [--window 256] [--latency 20000] [--payload 32]
//
// Throughput: Ping requests with up to --window in flight, each completed
// by its Pong (id matched, future fulfilled). Latency: one Ping at a time,
// request() to future ready, as percentiles.

#include "client.h"
#include "server.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    int64_t messages = 200000;
    std::size_t window = 256;
    int64_t latency_samples = 20000;
    std::size_t payload = 32;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--messages"))
            messages = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--window"))
            window = static_cast<std::size_t>(std::atoll(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--latency"))
            latency_samples = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--payload"))
            payload = static_cast<std::size_t>(std::atoll(argv[i + 1]));
    }

    // In process, no network: Sender -> Receiver, to separate the protocol's
    // own cost from the transport's.
    {
        struct Sink : FBE::rpc::Receiver<> {
            uint64_t count = 0;
            void onReceive(const ::rpc::Ping& ping) override { count += ping.payload.size() == 0 ? 0 : 1; }
        };
        struct Loop : FBE::rpc::Sender<> {
            Sink* sink = nullptr;
            std::size_t onSend(const void* data, std::size_t size) override {
                sink->receive(data, size);
                return size;
            }
        };
        Sink sink;
        Loop loop;
        loop.sink = &sink;
        const ::rpc::Ping ping(FBE::uuid_t::sequential(), 1, std::string(payload, 'x'));
        const auto t0 = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < messages; ++i)
            loop.send(ping);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (sink.count != static_cast<uint64_t>(messages))
            return 1;
        std::printf("in process (send + verify + deserialize + dispatch): %.0f messages/s, %.0f ns/message\n",
                    static_cast<double>(messages) / s, s * 1e9 / static_cast<double>(messages));
    }

    asio::io_context server_io;
    tcp_example::Server server(server_io, "127.0.0.1", 0);
    auto guard = asio::make_work_guard(server_io);
    std::thread server_thread([&] { server_io.run(); });

    int failures = 0;
    {
        tcp_example::RpcClient client;
        client.connect("127.0.0.1", server.port());
        const std::string text(payload, 'x');
        using clock = std::chrono::steady_clock;

        // Warm-up.
        for (int i = 0; i < 1000; ++i)
            client.request(::rpc::Ping(FBE::uuid_t::sequential(), i, text)).get();

        // Throughput.
        std::deque<std::future<::rpc::Pong>> inflight;
        const auto start = clock::now();
        for (int64_t i = 0; i < messages; ++i) {
            inflight.push_back(client.request(::rpc::Ping(FBE::uuid_t::sequential(), i, text)));
            if (inflight.size() >= window) {
                if (inflight.front().get().payload.size() != payload)
                    ++failures;
                inflight.pop_front();
            }
        }
        while (!inflight.empty()) {
            if (inflight.front().get().payload.size() != payload)
                ++failures;
            inflight.pop_front();
        }
        const double seconds = std::chrono::duration<double>(clock::now() - start).count();

        // Latency.
        std::vector<double> micros;
        micros.reserve(static_cast<std::size_t>(latency_samples));
        for (int64_t i = 0; i < latency_samples; ++i) {
            const auto t0 = clock::now();
            auto f = client.request(::rpc::Ping(FBE::uuid_t::sequential(), i, text));
            if (f.get().sequence != i)
                ++failures;
            micros.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count());
        }
        std::sort(micros.begin(), micros.end());
        auto pct = [&](double p) {
            if (micros.empty())
                return 0.0;
            const std::size_t at = std::min(micros.size() - 1, static_cast<std::size_t>(p / 100.0 * static_cast<double>(micros.size())));
            return micros[at];
        };
        client.disconnect();

        std::printf("TCP loopback, rpc Ping/Pong, versioned frames (%zu-byte payload)\n", payload);
        std::printf("  throughput: %lld requests in %.3f s = %.0f requests/s (window %zu)\n",
                    static_cast<long long>(messages), seconds, static_cast<double>(messages) / seconds, window);
        std::printf("  latency (one in flight, %lld samples): p50 %.1f us  p90 %.1f us  p99 %.1f us  p99.9 %.1f us  max %.1f us\n",
                    static_cast<long long>(latency_samples), pct(50), pct(90), pct(99), pct(99.9),
                    micros.empty() ? 0.0 : micros.back());
    }
    guard.reset();
    server_io.stop();
    server_thread.join();
    if (failures) {
        std::printf("  %d wrong replies\n", failures);
        return 1;
    }
    return 0;
}
