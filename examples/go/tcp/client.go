package tcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/fbe-toolkit/fbe/examples/go/gen/rpc"
	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// ClientConfig is what RunClient sends.
type ClientConfig struct {
	Messages int           // requests in all
	Window   int           // requests in flight at once
	Timeout  time.Duration // of each request
	Final    bool          // final-model frames (the server must agree)
}

// DefaultClientConfig is the client's defaults.
var DefaultClientConfig = ClientConfig{Messages: 1000, Window: 64, Timeout: 5 * time.Second}

// Result is what RunClient saw.
type Result struct {
	Answered  int // responses right
	Rejected  int // orders rejected as expected
	Heartbeat bool
	Elapsed   time.Duration
}

func (r Result) String() string {
	return fmt.Sprintf("%d requests answered, %d orders rejected as expected, heartbeat %v, in %v",
		r.Answered, r.Rejected, r.Heartbeat, r.Elapsed.Round(time.Millisecond))
}

// ErrServerClosed is RunClient's error when the server closes the connection before every
// request was answered.
var ErrServerClosed = errors.New("the server closed the connection")

// rpcClient is what RunClient needs of rpc.Client and rpc.FinalClient.
type rpcClient interface {
	RequestPing(ctx context.Context, v *rpc.Ping) (*rpc.Pong, error)
	RequestPlaceOrder(ctx context.Context, v *rpc.PlaceOrder) (*rpc.OrderAccepted, error)
	RequestNotice(ctx context.Context, v *rpc.Notice) error
	ReadFrom(src io.Reader) (int64, error)
	Reset()
}

// RunClient connects to addr and sends cfg.Messages requests, cfg.Window at a time, checking
// every reply: Pings (the Pong has the same id, sequence and payload), every 5th request a
// PlaceOrder (accepted; rejected when its quantity is 0, every 15th) and first a Notice, whose
// Heartbeat comes as a notification. When the server closes the connection every pending
// request fails at once (the Client is Reset) and RunClient returns ErrServerClosed.
func RunClient(addr string, cfg ClientConfig) (Result, error) {
	start := time.Now()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return Result{}, err
	}
	defer conn.Close()
	heartbeat := make(chan *rpc.Heartbeat, 1)
	notify := rpc.HandlerFunc(func(v any) {
		if hb, ok := v.(*rpc.Heartbeat); ok {
			select {
			case heartbeat <- hb:
			default:
			}
		}
	})
	var c rpcClient
	if cfg.Final {
		c = rpc.NewFinalClient(conn, notify)
	} else {
		c = rpc.NewClient(conn, notify)
	}
	closed := make(chan struct{})
	// Requests made once the connection is gone end at once too, not at their timeout.
	alive, gone := context.WithCancel(context.Background())
	defer gone()
	var readErr error
	go func() {
		_, readErr = c.ReadFrom(conn) // until the connection ends
		close(closed)
		gone()
		c.Reset() // fails the pending requests at once
	}()

	var res Result
	note := "hello"
	if err := c.RequestNotice(context.Background(), &rpc.Notice{Id: fbe.NewUUID1(), Text: note}); err != nil {
		return res, err
	}
	var mu sync.Mutex
	var first error
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			first = err
		}
	}
	sequences := make(chan int)
	var wg sync.WaitGroup
	for range max(cfg.Window, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := range sequences {
				rejected, err := request(alive, c, seq, cfg.Timeout)
				if err != nil {
					fail(err)
					continue
				}
				mu.Lock()
				res.Answered++
				if rejected {
					res.Rejected++
				}
				mu.Unlock()
			}
		}()
	}
	for seq := range cfg.Messages {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop {
			break
		}
		sequences <- seq
	}
	close(sequences)
	wg.Wait()
	select {
	case hb := <-heartbeat:
		res.Heartbeat = hb != nil // its time is the server's choice (Go's: the Notice's length)
	case <-time.After(cfg.Timeout):
	case <-closed:
	}
	res.Elapsed = time.Since(start)
	select {
	case <-closed:
		if first != nil || res.Answered < cfg.Messages {
			if readErr != nil {
				return res, fmt.Errorf("%w: %v", ErrServerClosed, readErr)
			}
			return res, ErrServerClosed
		}
	default:
	}
	if first != nil {
		return res, first
	}
	if !res.Heartbeat {
		return res, errors.New("no Heartbeat for the Notice")
	}
	return res, nil
}

// request sends request seq and checks its answer; rejected: an order rejected as expected.
func request(alive context.Context, c rpcClient, seq int, timeout time.Duration) (rejected bool, err error) {
	ctx, cancel := context.WithTimeout(alive, timeout)
	defer cancel()
	if seq%5 == 0 {
		order := &rpc.PlaceOrder{Id: fbe.NewUUID1(), Symbol: "EURUSD", Side: rpc.SideBuy, Price: 1.1,
			Quantity: 100 + float64(seq)}
		reject := seq%15 == 0
		if reject {
			order.Quantity = 0
		}
		accepted, err := c.RequestPlaceOrder(ctx, order)
		var rej *fbe.RejectError
		switch {
		case reject && errors.As(err, &rej):
			// the reason is the server's own words: every example server says it differently
			if r, ok := rej.Value.(*rpc.OrderRejected); !ok || r.Id != order.Id || r.Reason == "" {
				return false, fmt.Errorf("order %d: wrong reject %+v", seq, rej.Value)
			}
			return true, nil
		case err != nil:
			return false, err
		case reject || accepted.Id != order.Id || accepted.Quantity != order.Quantity:
			return false, fmt.Errorf("order %d: wrong OrderAccepted %+v", seq, accepted)
		}
		return false, nil
	}
	ping := &rpc.Ping{Id: fbe.NewUUID1(), Sequence: int64(seq), Payload: fmt.Sprintf("ping %d", seq)}
	pong, err := c.RequestPing(ctx, ping)
	if err != nil {
		return false, err
	}
	if pong.Id != ping.Id || pong.Sequence != ping.Sequence || pong.Payload != ping.Payload {
		return false, fmt.Errorf("ping %d: wrong Pong %+v", seq, pong)
	}
	return false, nil
}
