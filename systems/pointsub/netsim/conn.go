package netsim

import (
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

// SegmentSize is the unit the condition applies to (a TCP segment's payload).
const SegmentSize = 1448

// Stats counts what the condition did to the bytes written so far.
type Stats struct {
	Segments  int64 // segments written
	Bytes     int64 // bytes written
	Lost      int64 // segments lost and retransmitted
	Corrupted int64 // segments with a flipped bit
}

// Add returns the sum of s and o.
func (s Stats) Add(o Stats) Stats {
	return Stats{s.Segments + o.Segments, s.Bytes + o.Bytes, s.Lost + o.Lost, s.Corrupted + o.Corrupted}
}

type segment struct {
	data []byte
	at   time.Time
}

// Conn is a net.Conn whose writes pass through a Condition.
type Conn struct {
	net.Conn
	cond Condition

	mu       sync.Mutex
	rng      *rand.Rand
	queue    []segment
	queued   int
	linkFree time.Time
	lastAt   time.Time
	stats    Stats
	err      error
	closed   bool
	deadline time.Time

	wake  chan struct{} // a segment was queued
	space chan struct{} // a segment was delivered
	done  chan struct{} // closed by Close
	pumpD chan struct{} // closed when the pump exits
}

// Wrap returns c with cond applied to its writes; seed fixes every random draw.
func Wrap(c net.Conn, cond Condition, seed uint64) (*Conn, error) {
	if err := cond.Validate(); err != nil {
		return nil, err
	}
	w := &Conn{
		Conn:  c,
		cond:  cond,
		rng:   rand.New(rand.NewPCG(seed, 0x706f696e74737562)),
		wake:  make(chan struct{}, 1),
		space: make(chan struct{}, 1),
		done:  make(chan struct{}),
		pumpD: make(chan struct{}),
	}
	go w.pump()
	return w, nil
}

// Condition returns the condition applied.
func (c *Conn) Condition() Condition { return c.cond }

// Stats returns the counters so far.
func (c *Conn) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// SetDeadline sets the read deadline of the wrapped conn and the write deadline of the queue.
func (c *Conn) SetDeadline(t time.Time) error {
	_ = c.SetWriteDeadline(t)
	return c.Conn.SetReadDeadline(t)
}

// SetWriteDeadline bounds how long Write waits for room in the queue.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadline = t
	c.mu.Unlock()
	signal(c.space)
	return nil
}

// Close discards what is still in flight and closes the wrapped conn.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return net.ErrClosed
	}
	c.closed = true
	c.mu.Unlock()
	close(c.done)
	err := c.Conn.Close()
	<-c.pumpD
	return err
}
