// tcp_server: the rpc server of the TCP example.
//
//   tcp_server [--host 127.0.0.1] [--port 0] [--once] [--final]
//
// Prints "listening on HOST:PORT" (port 0 picks a free port), answers
// Ping with Pong, PlaceOrder with OrderAccepted or OrderRejected, Notice
// with a Heartbeat. With --once it exits when its first client disconnects;
// --final speaks final-model frames (the client must too).

#include "server.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    std::string host = "127.0.0.1";
    uint16_t port = 0;
    bool once = false;
    bool final = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--host") && i + 1 < argc)
            host = argv[++i];
        else if (!std::strcmp(argv[i], "--port") && i + 1 < argc)
            port = static_cast<uint16_t>(std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--once"))
            once = true;
        else if (!std::strcmp(argv[i], "--final"))
            final = true;
        else {
            std::cerr << "usage: tcp_server [--host 127.0.0.1] [--port 0] [--once] [--final]" << std::endl;
            return 2;
        }
    }
    try {
        asio::io_context io;
        asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&io](const asio::error_code& ec, int) {
            if (!ec)
                io.stop();
        });
        // With --once the first session's end stops the signal wait, so run() returns.
        tcp_example::Server server(io, host, port, once, [&signals, once] {
            if (once)
                signals.cancel();
        }, final);
        std::cout << "listening on " << host << ":" << server.port() << std::endl;
        io.run();
        std::cout << "server: " << server.sessions() << " session(s), bye" << std::endl;
    } catch (const std::exception& ex) {
        std::cerr << "tcp_server: " << ex.what() << std::endl;
        return 1;
    }
    return 0;
}
