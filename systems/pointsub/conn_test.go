package pointsub

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

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
