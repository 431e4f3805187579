package bench

import (
	"context"
	"fmt"
	"net"
	"time"

	"benchdash.dev/pointsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// Network is what carries the messages.
type Network string

// The transport under test and the same-run reference.
const (
	Libp2p Network = "libp2p"
	TCP    Network = "tcp"
)

// endpoint is a listener and a way to dial it; close releases everything.
type endpoint struct {
	ln    net.Listener
	dial  func(ctx context.Context) (net.Conn, error)
	close func()
}

func newEndpoint(nw Network, s Scenario, retries int) (*endpoint, error) {
	buf := min(s.BufferSize, pointsub.MaxBufferSize)
	switch nw {
	case TCP:
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		var d net.Dialer
		return &endpoint{
			ln: ln,
			dial: func(ctx context.Context) (net.Conn, error) {
				var err error
				for range retries + 1 {
					var c net.Conn
					if c, err = d.DialContext(ctx, "tcp", ln.Addr().String()); err == nil {
						return c, nil
					}
					time.Sleep(pointsub.DefaultRetryWait)
				}
				return nil, err
			},
			close: func() { ln.Close() },
		}, nil
	case Libp2p:
		return libp2pEndpoint(s, buf, retries)
	}
	return nil, fmt.Errorf("unknown network %q", nw)
}

func libp2pEndpoint(s Scenario, buf, retries int) (*endpoint, error) {
	server, err := pointsub.NewHost()
	if err != nil {
		return nil, err
	}
	client, err := pointsub.NewHost()
	if err != nil {
		server.Close()
		return nil, err
	}
	closeHosts := func() { client.Close(); server.Close() }
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := pointsub.Connect(ctx, client, server); err != nil {
		closeHosts()
		return nil, fmt.Errorf("connect the hosts: %w", err)
	}
	opts := []pointsub.Option{
		pointsub.WithBuffers(buf, buf),
		pointsub.WithRetries(retries, pointsub.DefaultRetryWait),
	}
	proto := protocol.ID(s.Protocol())
	ln, err := pointsub.Listen(server, proto, opts...)
	if err != nil {
		closeHosts()
		return nil, err
	}
	return &endpoint{
		ln: ln,
		dial: func(ctx context.Context) (net.Conn, error) {
			return dialHost(ctx, client, server, proto, opts)
		},
		close: func() { ln.Close(); closeHosts() },
	}, nil
}

func dialHost(ctx context.Context, client, server host.Host, proto protocol.ID, opts []pointsub.Option) (net.Conn, error) {
	return pointsub.Dial(ctx, client, server.ID(), proto, opts...)
}
