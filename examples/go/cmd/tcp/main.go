// Command tcp is the TCP example of the Go target (examples/go/README.md).
//
//	go run ./cmd/tcp                          a server on a free port and a client, in one process
//	go run ./cmd/tcp -serve -port 5000        the server alone
//	go run ./cmd/tcp -connect 127.0.0.1:5000  the client alone (exit status 0 when every reply is right)
//
// -final switches both ends to final-model frames (the bytes do not say which; both must agree).
// The server's limits (-max-connections, -max-frame-size, -idle-timeout, -frame-timeout; the
// timeouts in seconds, "0.5", or as Go durations, "500ms") are docs/tcp-examples.md's, the same
// in every language's example.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

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
	flag.Var(seconds{&cfg.IdleTimeout}, "idle-timeout", "drop a connection idle this long, in seconds (0: never)")
	flag.Var(seconds{&cfg.FrameTimeout}, "frame-timeout",
		"drop a connection whose frame is not whole this long after its first byte, in seconds (0: never)")
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
		fmt.Printf("server: %d session(s), %d refused over max_connections, %d evicted, %d requests, bye\n",
			server.Sessions(), server.Refused(), server.Evicted(), server.Requests())
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

// seconds is a duration flag given in seconds ("2", "0.5") or as a Go duration ("500ms").
type seconds struct{ d *time.Duration }

func (s seconds) String() string {
	if s.d == nil {
		return ""
	}
	return strconv.FormatFloat(s.d.Seconds(), 'f', -1, 64)
}

func (s seconds) Set(v string) error {
	d, err := time.ParseDuration(v)
	if f, ferr := strconv.ParseFloat(v, 64); ferr == nil {
		if math.IsNaN(f) || f > 1e9 {
			return errors.New("out of range")
		}
		d, err = time.Duration(f*float64(time.Second)), nil
	}
	if err != nil {
		return err
	}
	if d < 0 {
		return errors.New("negative")
	}
	*s.d = d
	return nil
}
