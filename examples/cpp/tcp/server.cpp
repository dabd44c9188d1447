// tcp_server: the rpc server of the TCP example.
//
//   tcp_server [--host 127.0.0.1] [--port 0] [--once] [--final]
//              [--max-connections 256] [--max-frame-size 1048576]
//              [--send-queue-limit 1048576] [--send-queue-hard-limit BYTES]
//              [--idle-timeout 60] [--frame-timeout 10]
//
// Prints "listening on HOST:PORT" (port 0 picks a free port), answers
// Ping with Pong, PlaceOrder with OrderAccepted or OrderRejected, Notice
// with a Heartbeat. With --once it exits when its first client disconnects;
// --final speaks final-model frames (the client must too). The limits are
// those of tcp_example::ServerConfig (server.h) and docs/tcp-examples.md;
// --idle-timeout and --frame-timeout are in seconds (fractions allowed,
// 0 = never).  SIGTERM or SIGINT stops it with a closing line of counts.

#include "server.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace {

const char* const kUsage =
    "usage: tcp_server [--host 127.0.0.1] [--port 0] [--once] [--final]\n"
    "                  [--max-connections 256] [--max-frame-size 1048576]\n"
    "                  [--send-queue-limit 1048576] [--send-queue-hard-limit BYTES (4194304 or more)]\n"
    "                  [--idle-timeout SECONDS (60; 0 = never)] [--frame-timeout SECONDS (10; 0 = never)]";

//! A whole non-negative decimal number, or false.
bool parse_size(const char* text, std::size_t& value) {
    if (*text < '0' || *text > '9')
        return false;
    char* end = nullptr;
    errno = 0;
    const unsigned long long parsed = std::strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    value = static_cast<std::size_t>(parsed);
    return true;
}

bool parse_seconds(const char* text, std::chrono::milliseconds& value) {
    char* end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(seconds) || seconds < 0 || seconds > 1e9)
        return false;
    value = std::chrono::milliseconds(static_cast<int64_t>(std::llround(seconds * 1000)));
    return true;
}

} // namespace

int main(int argc, char** argv) {
    std::string host = "127.0.0.1";
    std::size_t port = 0;
    tcp_example::ServerConfig config;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        const char* option = argv[i];
        bool ok = true;
        if (!std::strcmp(option, "--host") && has_value)
            host = argv[++i];
        else if (!std::strcmp(option, "--port") && has_value)
            ok = parse_size(argv[++i], port) && port <= 65535;
        else if (!std::strcmp(option, "--once"))
            config.once = true;
        else if (!std::strcmp(option, "--final"))
            config.final = true;
        else if (!std::strcmp(option, "--max-connections") && has_value)
            ok = parse_size(argv[++i], config.max_connections);
        else if (!std::strcmp(option, "--max-frame-size") && has_value)
            ok = parse_size(argv[++i], config.max_frame_size);
        else if (!std::strcmp(option, "--send-queue-limit") && has_value)
            ok = parse_size(argv[++i], config.send_queue_limit);
        else if (!std::strcmp(option, "--send-queue-hard-limit") && has_value)
            ok = parse_size(argv[++i], config.send_queue_hard_limit);
        else if (!std::strcmp(option, "--idle-timeout") && has_value)
            ok = parse_seconds(argv[++i], config.idle_timeout);
        else if (!std::strcmp(option, "--frame-timeout") && has_value)
            ok = parse_seconds(argv[++i], config.frame_timeout);
        else
            ok = false;
        if (!ok) {
            std::cerr << "tcp_server: bad option " << option << (has_value ? std::string(" ") + argv[i] : "") << "\n"
                      << kUsage << std::endl;
            return 2;
        }
    }
    if (const std::string problem = config.valid(); !problem.empty()) {
        std::cerr << "tcp_server: " << problem << std::endl;
        return 2;
    }
    try {
        asio::io_context io;
        asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&io](const asio::error_code& ec, int) {
            if (!ec)
                io.stop();
        });
        // With --once the first session's end stops the signal wait, so run() returns.
        const bool once = config.once;
        tcp_example::Server server(io, host, static_cast<uint16_t>(port), config, [&signals, once] {
            if (once)
                signals.cancel();
        });
        std::cout << "listening on " << host << ":" << server.port() << std::endl;
        // Sessions contain their own exceptions; whatever still escapes a
        // handler is reported and the loop goes on serving the others.
        for (;;) {
            try {
                io.run();
                break;
            } catch (const std::exception& ex) {
                std::cerr << "server: a handler threw: " << ex.what() << std::endl;
            }
        }
        std::cout << "server: " << server.sessions() << " session(s), " << server.refused()
                  << " refused over max_connections, " << server.evicted() << " evicted, bye" << std::endl;
    } catch (const std::exception& ex) {
        std::cerr << "tcp_server: " << ex.what() << std::endl;
        return 1;
    }
    return 0;
}
