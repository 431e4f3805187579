package pointsub

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// Listener accepts the incoming streams of one protocol as connections.
type Listener struct {
	h        host.Host
	proto    protocol.ID
	opts     Options
	streams  chan network.Stream
	done     chan struct{}
	once     sync.Once
	active   atomic.Int64
	rejected atomic.Int64
}

// Listen registers proto on h and returns its listener.
func Listen(h host.Host, proto protocol.ID, opts ...Option) (*Listener, error) {
	if proto == "" {
		return nil, errors.New("pointsub: empty protocol ID")
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	l := &Listener{h: h, proto: proto, opts: o, streams: make(chan network.Stream), done: make(chan struct{})}
	h.SetStreamHandler(proto, l.handle)
	return l, nil
}

func (l *Listener) handle(s network.Stream) {
	if n := l.active.Add(1); l.opts.MaxConns > 0 && n > int64(l.opts.MaxConns) {
		l.active.Add(-1)
		l.rejected.Add(1)
		_ = s.Reset()
		return
	}
	select {
	case l.streams <- s:
	case <-l.done:
		l.active.Add(-1)
		_ = s.Reset()
	}
}

// Accept waits for the next incoming connection.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case s := <-l.streams:
		return newConn(s, l.opts, func() { l.active.Add(-1) }), nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops listening; connections already accepted stay open.
func (l *Listener) Close() error {
	l.once.Do(func() {
		l.h.RemoveStreamHandler(l.proto)
		close(l.done)
	})
	return nil
}

// Addr returns the listening host's peer.
func (l *Listener) Addr() net.Addr { return Addr{l.h.ID()} }

// Active returns how many accepted connections are open (or waiting to be accepted).
func (l *Listener) Active() int { return int(l.active.Load()) }

// Rejected returns how many streams were reset because MaxConns was reached.
func (l *Listener) Rejected() int { return int(l.rejected.Load()) }

// Dial opens a proto stream to p and returns it as a connection, retrying a failed open
// Options.Retries times.
func Dial(ctx context.Context, h host.Host, p peer.ID, proto protocol.ID, opts ...Option) (*Conn, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	attempts := 0
	for attempts <= o.Retries {
		if attempts > 0 {
			select {
			case <-time.After(o.RetryWait):
			case <-ctx.Done():
				return nil, fmt.Errorf("pointsub: dial %s: %w (last error: %w)", p, ctx.Err(), err)
			}
		}
		attempts++
		dctx, cancel := context.WithTimeout(ctx, o.DialTimeout)
		var s network.Stream
		s, err = h.NewStream(dctx, p, proto)
		cancel()
		if err == nil {
			return newConn(s, o, nil), nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("pointsub: dial %s %s: %d attempts: %w", p, proto, attempts, err)
}
