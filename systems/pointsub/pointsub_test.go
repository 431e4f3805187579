package pointsub

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"benchdash.dev/pointsub/netsim"
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

// echo serves every accepted connection by copying it back until EOF.
func echo(t *testing.T, l *Listener) {
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
				_, _ = io.Copy(c, c)
			}()
		}
	}()
}

func random(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}

func TestDialListenRoundTrip(t *testing.T) {
	a, b := pair(t)
	l, err := Listen(b, proto, WithBuffers(4<<10, 4<<10))
	if err != nil {
		t.Fatal(err)
	}
	echo(t, l)
	c, err := Dial(context.Background(), a, b.ID(), proto, WithLargeMessages(LargeMessage{BlockDelay: time.Microsecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.RemoteAddr().String() != b.ID().String() || c.LocalAddr().Network() != "libp2p" || l.Addr().String() != b.ID().String() {
		t.Fatal("addresses do not name the peers")
	}
	want := random(3<<20+11, 1)
	go func() {
		_, _ = c.Write(want)
		_ = c.CloseWrite()
	}()
	got, err := io.ReadAll(c)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("echoed %d of %d bytes: %v", len(got), len(want), err)
	}
}

func TestChunkSizes(t *testing.T) {
	c := &Conn{opts: Options{WriteBufferSize: 8 << 10}}
	if c.chunk(1<<20) != 8<<10 {
		t.Fatal("plain mode writes WriteBufferSize pieces")
	}
	c.opts.LargeMessage = LargeMessage{Enabled: true}
	if c.chunk(500) != 512 || c.chunk(100<<10) != 16<<10 || c.chunk(5<<20) != 256<<10 {
		t.Fatal("adaptive chunks follow the size classes")
	}
	c.opts.LargeMessage.EstimatedSize = 200 << 10
	if c.chunk(10) != 64<<10 {
		t.Fatal("the estimated size picks the chunk")
	}
	c.opts.LargeMessage.ChunkSize = 1000
	if c.chunk(10) != 1000 {
		t.Fatal("a fixed chunk size wins")
	}
}

func TestMaxConnsResetsStreamsOverTheCap(t *testing.T) {
	a, b := pair(t)
	l, err := Listen(b, proto, WithMaxConns(1))
	if err != nil {
		t.Fatal(err)
	}
	echo(t, l)
	ctx := context.Background()
	first, err := Dial(ctx, a, b.ID(), proto)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip := func(c net.Conn) error {
		if _, err := c.Write([]byte("ping")); err != nil {
			return err
		}
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.ReadFull(c, make([]byte, 4))
		return err
	}
	if err := roundTrip(first); err != nil {
		t.Fatal(err)
	}
	second, err := Dial(ctx, a, b.ID(), proto)
	if err == nil {
		err = roundTrip(second)
		second.Close()
	}
	if err == nil || l.Rejected() != 1 {
		t.Fatalf("second connection over the cap: err %v, rejected %d", err, l.Rejected())
	}
	first.Close()
	deadline := time.Now().Add(5 * time.Second)
	for l.Active() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	third, err := Dial(ctx, a, b.ID(), proto)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	if err := roundTrip(third); err != nil {
		t.Fatalf("a slot freed by Close is reusable: %v", err)
	}
}

func TestDialRetriesThenFails(t *testing.T) {
	a, b := pair(t)
	t0 := time.Now()
	_, err := Dial(context.Background(), a, b.ID(), "/nobody/home", WithRetries(2, 50*time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), "3 attempts") {
		t.Fatalf("got %v", err)
	}
	if time.Since(t0) < 100*time.Millisecond {
		t.Fatal("retries did not wait")
	}
}

func TestReadTimeout(t *testing.T) {
	a, b := pair(t)
	l, err := Listen(b, proto)
	if err != nil {
		t.Fatal(err)
	}
	echo(t, l)
	c, err := Dial(context.Background(), a, b.ID(), proto, WithTimeouts(time.Second, 50*time.Millisecond, 0))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Read(make([]byte, 1))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("read on a silent stream: %v", err)
	}
}

func TestListenerCloseAndBadOptions(t *testing.T) {
	_, b := pair(t)
	if _, err := Listen(b, ""); err == nil {
		t.Fatal("empty protocol accepted")
	}
	if _, err := Listen(b, proto, WithBuffers(MaxBufferSize+1, 0)); err == nil {
		t.Fatal("oversized buffer accepted")
	}
	if _, err := Listen(b, proto, WithRetries(-1, 0)); err == nil {
		t.Fatal("negative retries accepted")
	}
	l, err := Listen(b, proto)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("accept after close: %v", err)
	}
}

// serveFrames answers every message with an ack, or an error report when it fails its check.
func serveFrames(t *testing.T, l *Listener) {
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
			}()
		}
	}()
}

func TestFramedMessagesConcurrentConnections(t *testing.T) {
	a, b := pair(t)
	l, err := Listen(b, proto)
	if err != nil {
		t.Fatal(err)
	}
	serveFrames(t, l)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Dial(context.Background(), a, b.ID(), proto)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			tr := transport.New(c, transport.Options{})
			for j := range 10 {
				msg := random(1+(i*7919+j*104729)%300000, uint64(i*100+j))
				if err := tr.Send(msg); err != nil {
					t.Error(err)
					return
				}
				m, err := tr.Receive(nil)
				if err != nil || m.Kind != transport.Control || !bytes.Equal(m.Data, msg[:min(len(msg), 8)]) {
					t.Errorf("conn %d message %d: %+v %v", i, j, m.Kind, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestCorruptedFramesAreDetectedOverLibp2p(t *testing.T) {
	a, b := pair(t)
	l, err := Listen(b, proto)
	if err != nil {
		t.Fatal(err)
	}
	serveFrames(t, l)
	c, err := Dial(context.Background(), a, b.ID(), proto)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := netsim.Wrap(c, netsim.Condition{Name: "bitrot", Corruption: 0.02}, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	tr := transport.New(sim, transport.Options{})
	acks, nacks := 0, 0
	for i := range 60 {
		if err := tr.Send(random(64<<10, uint64(i))); err != nil {
			t.Fatal(err)
		}
		m, err := tr.Receive(nil)
		if err != nil {
			break // a flipped header bit: the server lost its place and closed the stream
		}
		if m.Kind == transport.Control {
			acks++
		} else {
			nacks++
		}
	}
	st := sim.Stats()
	if st.Corrupted == 0 || nacks == 0 || int64(nacks) > st.Corrupted {
		t.Fatalf("%d corrupted segments, %d acks, %d error reports", st.Corrupted, acks, nacks)
	}
}
