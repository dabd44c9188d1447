package protocol

// Chunkings of a stream and feeding them to a generated Receiver, Proxy or Client.

import (
	"math/rand"
	"testing"
)

func chunkings(stream []byte) map[string][]int {
	one := make([]int, len(stream))
	for i := range one {
		one[i] = 1
	}
	out := map[string][]int{"whole": {len(stream)}, "1-byte": one}
	for _, seed := range []int64{1, 2, 3} {
		rng := rand.New(rand.NewSource(seed))
		var c []int
		for left := len(stream); left > 0; {
			n := min(left, 1+rng.Intn(64))
			c = append(c, n)
			left -= n
		}
		out["random"+string(rune('0'+seed))] = c
	}
	return out
}

type receiver interface {
	Receive([]byte) error
	Pending() int
}

func feed(t *testing.T, r receiver, stream []byte, chunks []int) {
	t.Helper()
	for _, n := range chunks {
		if err := r.Receive(stream[:n]); err != nil {
			t.Fatal(err)
		}
		stream = stream[n:]
	}
	if r.Pending() != 0 {
		t.Fatalf("%d bytes pending at the end", r.Pending())
	}
}
