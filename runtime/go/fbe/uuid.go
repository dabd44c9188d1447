package fbe

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// UUID is 16 bytes in the order of the text form (docs/format.md 2.3).
type UUID [16]byte

// String is the canonical lowercase text with dashes.
func (u UUID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

var errUUIDDigit = errors.New("invalid hex digit in uuid")

// ParseUUID is the original's lenient parser: '-', '{' and '}' are skipped
// anywhere, the rest is read in pairs of hex digits of either case, reading
// stops after 16 bytes and a short text leaves the rest zero; a non-hex digit
// is an error.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	i, half, acc := 0, false, byte(0)
	for k := 0; k < len(s) && i < 16; k++ {
		c := s[k]
		var v byte
		switch {
		case c == '-' || c == '{' || c == '}':
			continue
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return UUID{}, errUUIDDigit
		}
		if half {
			u[i] = acc<<4 | v
			i++
		} else {
			acc = v
		}
		half = !half
	}
	return u, nil
}

// NewUUID4 is a random uuid (schema constant uuid4).
func NewUUID4() UUID {
	var u UUID
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return u
}

var uuid1State struct {
	sync.Mutex
	last  uint64
	clock uint16
	node  [6]byte
	ready bool
}

// NewUUID1 is a time-based uuid (schema constant uuid1) with a random node id.
func NewUUID1() UUID {
	s := &uuid1State
	s.Lock()
	if !s.ready {
		var r [8]byte
		_, _ = rand.Read(r[:])
		copy(s.node[:], r[:6])
		s.node[0] |= 0x01 // multicast bit: not a real MAC address (RFC 4122 4.5)
		s.clock = uint16(r[6])<<8 | uint16(r[7])
		s.ready = true
	}
	// 100 ns intervals since 1582-10-15.
	t := uint64(time.Now().UnixNano()/100) + 0x01b21dd213814000
	if t <= s.last {
		t = s.last + 1
	}
	s.last = t
	clock, node := s.clock, s.node
	s.Unlock()
	var u UUID
	u[0], u[1], u[2], u[3] = byte(t>>24), byte(t>>16), byte(t>>8), byte(t)
	u[4], u[5] = byte(t>>40), byte(t>>32)
	u[6], u[7] = byte(t>>56)&0x0f|0x10, byte(t>>48)
	u[8], u[9] = byte(clock>>8)&0x3f|0x80, byte(clock)
	copy(u[10:], node[:])
	return u
}
