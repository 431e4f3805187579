package pointsub

import (
	"context"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
)

// NewHost returns a libp2p host listening on loopback TCP with Noise and yamux only;
// extra options are applied after these.
func NewHost(extra ...libp2p.Option) (host.Host, error) {
	opts := []libp2p.Option{
		libp2p.NoTransports,
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"),
		libp2p.DisableRelay(),
		libp2p.DisableMetrics(),
		libp2p.Ping(false),
	}
	return libp2p.New(append(opts, extra...)...)
}

// Connect makes from know to's addresses for good (as the seed harness does) and connects.
func Connect(ctx context.Context, from, to host.Host) error {
	from.Peerstore().AddAddrs(to.ID(), to.Addrs(), peerstore.PermanentAddrTTL)
	return from.Connect(ctx, peer.AddrInfo{ID: to.ID(), Addrs: to.Addrs()})
}
