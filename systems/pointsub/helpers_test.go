package pointsub

import (
	"context"
	"io"
	"math/rand/v2"
	"net"
	"testing"

	"benchdash.dev/pointsub/transport"
	"github.com/libp2p/go-libp2p/core/host"
)

const proto = "/pointsub/test/1.0.0"

// pair returns two connected hosts, closed at the end of the test.
func pair(t *testing.T) (host.Host, host.Host) {
	t.Helper()
	a, err := NewHost()
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewHost()
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	if err := Connect(context.Background(), a, b); err != nil {
		t.Fatal(err)
	}
	return a, b
}

// serve runs handle on every connection l accepts, each in its own goroutine and closed after
// it; l is closed at the end of the test.
func serve(t *testing.T, l *Listener, handle func(c net.Conn)) {
	t.Helper()
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
}

// echo serves every accepted connection by copying it back until EOF.
func echo(t *testing.T, l *Listener) {
	t.Helper()
	serve(t, l, func(c net.Conn) { _, _ = io.Copy(c, c) })
}

func random(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}

// serveFrames answers every message with an ack, or an error report when it fails its check.
func serveFrames(t *testing.T, l *Listener) {
	t.Helper()
	serve(t, l, func(c net.Conn) {
		tr := transport.New(c, transport.Options{})
		var buf []byte
		for {
			m, err := tr.Receive(buf)
			switch {
			case err == nil:
				buf = m.Data
				err = tr.SendControl(m.Data[:min(len(m.Data), 8)])
			case transport.Recoverable(err):
				err = tr.SendError(err.Error())
			}
			if err != nil {
				return
			}
		}
	})
}
