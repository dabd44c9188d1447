// Command tcp is the TCP example of the Go target (examples/go/README.md).
//
//	go run ./cmd/tcp                          a server on a free port and a client, in one process
//	go run ./cmd/tcp -serve -port 5000        the server alone
//	go run ./cmd/tcp -connect 127.0.0.1:5000  the client alone (exit status 0 when every reply is right)
//
// -final switches both ends to final-model frames (the bytes do not say which; both must agree).
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/fbe-toolkit/fbe/examples/go/tcp"
)

func main() {
	cfg := tcp.DefaultConfig
	ccfg := tcp.DefaultClientConfig
	serve := flag.Bool("serve", false, "run the server only")
	connect := flag.String("connect", "", "run the client only, against this address")
	host := flag.String("host", "127.0.0.1", "the server's host")
	port := flag.Int("port", 0, "the server's port (0: a free one)")
	once := flag.Bool("once", false, "the server stops when its first client leaves")
	final := flag.Bool("final", false, "final-model frames (both ends)")
	flag.IntVar(&cfg.MaxConnections, "max-connections", cfg.MaxConnections, "connections open at once")
	flag.IntVar(&cfg.MaxFrameSize, "max-frame-size", cfg.MaxFrameSize, "the largest frame a client may send")
	flag.DurationVar(&cfg.IdleTimeout, "idle-timeout", cfg.IdleTimeout, "drop a connection idle this long (0: never)")
	flag.IntVar(&ccfg.Messages, "messages", ccfg.Messages, "requests the client sends")
	flag.IntVar(&ccfg.Window, "window", ccfg.Window, "requests in flight at once")
	flag.Parse()
	cfg.Final, ccfg.Final = *final, *final

	if *connect != "" {
		os.Exit(client(*connect, ccfg))
	}
	server, err := tcp.Listen(net.JoinHostPort(*host, strconv.Itoa(*port)), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tcp:", err)
		os.Exit(1)
	}
	fmt.Println("listening on", server.Addr())
	if *serve {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-signals
			_ = server.Close()
		}()
		if err := server.Serve(*once); err != nil {
			fmt.Fprintln(os.Stderr, "tcp:", err)
			os.Exit(1)
		}
		fmt.Printf("server: %d session(s), %d refused over max_connections, %d requests, bye\n",
			server.Sessions(), server.Refused(), server.Requests())
		return
	}
	go func() { _ = server.Serve(false) }()
	status := client(server.Addr().String(), ccfg)
	_ = server.Close()
	fmt.Printf("server: %d session(s), %d requests answered\n", server.Sessions(), server.Requests())
	os.Exit(status)
}

func client(addr string, cfg tcp.ClientConfig) int {
	res, err := tcp.RunClient(addr, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		return 1
	}
	fmt.Println("client:", res)
	return 0
}
