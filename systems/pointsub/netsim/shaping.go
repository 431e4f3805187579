package netsim

import (
	"net"
	"os"
	"time"
)

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
