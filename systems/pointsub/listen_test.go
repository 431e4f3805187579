package pointsub

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

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
