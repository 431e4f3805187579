package netsim

import (
	"math/rand/v2"
	"net"
	"os"
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

func (c *Conn) draw(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(c.rng.Int64N(int64(d) + 1))
}

// schedule draws the fate of one segment; c.mu is held.
func (c *Conn) schedule(data []byte, now time.Time) segment {
	depart := now
	if c.linkFree.After(depart) {
		depart = c.linkFree
	}
	if c.cond.Bandwidth > 0 {
		depart = depart.Add(time.Duration(int64(len(data)) * int64(time.Second) / c.cond.Bandwidth))
		c.linkFree = depart
	}
	delay := c.cond.LatencyMin + c.draw(c.cond.LatencyMax-c.cond.LatencyMin) + c.draw(c.cond.Jitter)
	lost := c.rng.Float64() < c.cond.Loss
	corrupt := c.rng.Float64() < c.cond.Corruption
	if lost {
		delay += max(2*delay, time.Millisecond)
		c.stats.Lost++
	}
	if corrupt {
		data[c.rng.IntN(len(data))] ^= 1 << c.rng.IntN(8)
		c.stats.Corrupted++
	}
	at := depart.Add(delay)
	if at.Before(c.lastAt) {
		at = c.lastAt
	}
	c.lastAt = at
	c.stats.Segments++
	c.stats.Bytes += int64(len(data))
	return segment{data: data, at: at}
}

// Write queues p segment by segment; it blocks while the queue is full.
func (c *Conn) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		size := min(SegmentSize, len(p)-n)
		if err := c.waitSpace(size); err != nil {
			return n, err
		}
		data := append([]byte(nil), p[n:n+size]...)
		c.mu.Lock()
		c.queue = append(c.queue, c.schedule(data, time.Now()))
		c.queued += size
		c.mu.Unlock()
		signal(c.wake)
		n += size
	}
	return n, nil
}

func (c *Conn) waitSpace(size int) error {
	for {
		c.mu.Lock()
		switch {
		case c.closed:
			c.mu.Unlock()
			return net.ErrClosed
		case c.err != nil:
			err := c.err
			c.mu.Unlock()
			return err
		case c.queued == 0 || c.queued+size <= c.cond.QueueLimit():
			c.mu.Unlock()
			return nil
		}
		deadline := c.deadline
		c.mu.Unlock()
		if err := c.waitSignal(deadline); err != nil {
			return err
		}
	}
}

// waitSignal waits until a segment is delivered, the conn closes or deadline passes.
func (c *Conn) waitSignal(deadline time.Time) error {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		d := time.Until(deadline)
		if d <= 0 {
			return os.ErrDeadlineExceeded
		}
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-c.space:
	case <-c.done:
	case <-timeout:
		return os.ErrDeadlineExceeded
	}
	return nil
}

// pump delivers due segments to the wrapped connection, coalescing those due together.
func (c *Conn) pump() {
	defer close(c.pumpD)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var batch []byte
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.mu.Unlock()
			select {
			case <-c.wake:
				continue
			case <-c.done:
				return
			}
		}
		wait := time.Until(c.queue[0].at)
		if wait > 0 {
			c.mu.Unlock()
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-c.done:
				return
			}
			continue
		}
		batch = batch[:0]
		n := 0
		now := time.Now()
		for n < len(c.queue) && !c.queue[n].at.After(now) && len(batch) < 64<<10 {
			batch = append(batch, c.queue[n].data...)
			n++
		}
		c.queue = c.queue[n:]
		c.mu.Unlock()
		_, err := c.Conn.Write(batch)
		c.mu.Lock()
		c.queued -= len(batch)
		if err != nil && c.err == nil {
			c.err = err
		}
		c.mu.Unlock()
		signal(c.space)
		if err != nil {
			return
		}
	}
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
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
