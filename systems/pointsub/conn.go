package pointsub

import (
	"bufio"
	"net"
	"sync"
	"time"

	"benchdash.dev/pointsub/sizeclass"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Addr is a libp2p peer as a net.Addr.
type Addr struct{ ID peer.ID }

// Network returns "libp2p".
func (Addr) Network() string { return "libp2p" }

// String returns the peer ID.
func (a Addr) String() string { return a.ID.String() }

// Conn is a libp2p stream as a net.Conn.
type Conn struct {
	s       network.Stream
	opts    Options
	rmu     sync.Mutex
	r       *bufio.Reader
	wmu     sync.Mutex
	once    sync.Once
	release func()
}

func newConn(s network.Stream, o Options, release func()) *Conn {
	return &Conn{s: s, opts: o, r: bufio.NewReaderSize(s, o.ReadBufferSize), release: release}
}

// Stream returns the wrapped libp2p stream.
func (c *Conn) Stream() network.Stream { return c.s }

// Read reads through the read-ahead buffer, under ReadTimeout when set.
func (c *Conn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	if c.opts.ReadTimeout > 0 {
		if err := c.s.SetReadDeadline(time.Now().Add(c.opts.ReadTimeout)); err != nil {
			return 0, err
		}
	}
	return c.r.Read(p)
}

// chunk is the largest piece one stream write carries for a write of n bytes.
func (c *Conn) chunk(n int) int {
	lm := c.opts.LargeMessage
	switch {
	case !lm.Enabled:
		return c.opts.WriteBufferSize
	case lm.ChunkSize > 0:
		return lm.ChunkSize
	case lm.EstimatedSize > 0:
		return sizeclass.Of(lm.EstimatedSize).ChunkSize()
	}
	return sizeclass.Of(n).ChunkSize()
}

// Write writes p in chunks (see Options), under WriteTimeout when set.
func (c *Conn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	size, n := c.chunk(len(p)), 0
	for n < len(p) {
		if n > 0 && c.opts.LargeMessage.Enabled && c.opts.LargeMessage.BlockDelay > 0 {
			time.Sleep(c.opts.LargeMessage.BlockDelay)
		}
		if c.opts.WriteTimeout > 0 {
			if err := c.s.SetWriteDeadline(time.Now().Add(c.opts.WriteTimeout)); err != nil {
				return n, err
			}
		}
		m, err := c.s.Write(p[n:min(n+size, len(p))])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (c *Conn) done() {
	c.once.Do(func() {
		if c.release != nil {
			c.release()
		}
	})
}

// Close closes the stream in both directions.
func (c *Conn) Close() error {
	defer c.done()
	return c.s.Close()
}

// CloseWrite half-closes the stream: the peer reads EOF, this side can still read.
func (c *Conn) CloseWrite() error { return c.s.CloseWrite() }

// Reset aborts the stream in both directions; the peer sees a reset, not EOF.
func (c *Conn) Reset() error {
	defer c.done()
	return c.s.Reset()
}

// LocalAddr returns this host's peer.
func (c *Conn) LocalAddr() net.Addr { return Addr{c.s.Conn().LocalPeer()} }

// RemoteAddr returns the remote peer.
func (c *Conn) RemoteAddr() net.Addr { return Addr{c.s.Conn().RemotePeer()} }

// SetDeadline sets both deadlines of the stream.
func (c *Conn) SetDeadline(t time.Time) error { return c.s.SetDeadline(t) }

// SetReadDeadline sets the stream's read deadline (ReadTimeout overrides it on every Read).
func (c *Conn) SetReadDeadline(t time.Time) error { return c.s.SetReadDeadline(t) }

// SetWriteDeadline sets the stream's write deadline (WriteTimeout overrides it on every Write).
func (c *Conn) SetWriteDeadline(t time.Time) error { return c.s.SetWriteDeadline(t) }
