package netsim

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// tcpPair returns both ends of a loopback TCP connection.
func tcpPair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	a, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	b := <-accepted
	if b == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

func wrap(t *testing.T, c net.Conn, cond Condition, seed uint64) *Conn {
	t.Helper()
	w, err := Wrap(c, cond, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestLatencyIsAppliedToARoundTrip(t *testing.T) {
	cond := Condition{Name: "delay-100ms", LatencyMin: 100 * ms, LatencyMax: 100 * ms}
	a, b := tcpPair(t)
	ca, cb := wrap(t, a, cond, 1), wrap(t, b, cond, 2)
	go func() { // echo
		buf := make([]byte, 64)
		for {
			n, err := cb.Read(buf)
			if err != nil {
				return
			}
			if _, err := cb.Write(buf[:n]); err != nil {
				return
			}
		}
	}()
	for range 3 {
		t0 := time.Now()
		if _, err := ca.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4)
		if _, err := io.ReadFull(ca, buf); err != nil {
			t.Fatal(err)
		}
		if rtt := time.Since(t0); rtt < 200*ms || rtt > 5*time.Second {
			t.Fatalf("round trip %v, want 200 ms (100 ms each way) plus a little", rtt)
		}
	}
}

func TestPresetAddsItsMinimumLatency(t *testing.T) {
	cond, err := Preset("simulated-delay")
	if err != nil {
		t.Fatal(err)
	}
	a, b := tcpPair(t)
	w := wrap(t, a, cond, 7)
	t0 := time.Now()
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(b, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d < cond.LatencyMin {
		t.Fatalf("one way took %v, below the preset's %v", d, cond.LatencyMin)
	}
}

func TestBandwidthLimitsThroughput(t *testing.T) {
	a, b := tcpPair(t)
	w := wrap(t, a, Condition{Name: "slow", Bandwidth: 256 << 10}, 1)
	data := make([]byte, 128<<10)
	t0 := time.Now()
	go w.Write(data)
	if _, err := io.ReadFull(b, make([]byte, len(data))); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d < 490*ms {
		t.Fatalf("128 KiB at 256 KiB/s took %v, want >= 500 ms", d)
	}
}

// transfer writes data through a fresh wrapper and returns what arrived and the stats.
func transfer(t *testing.T, cond Condition, seed uint64, data []byte) ([]byte, Stats) {
	t.Helper()
	a, b := tcpPair(t)
	w := wrap(t, a, cond, seed)
	go func() {
		for off := 0; off < len(data); off += 5000 {
			if _, err := w.Write(data[off:min(off+5000, len(data))]); err != nil {
				return
			}
		}
	}()
	got := make([]byte, len(data))
	if _, err := io.ReadFull(b, got); err != nil {
		t.Fatal(err)
	}
	return got, w.Stats()
}

func TestLossDelaysButNeverDropsBytes(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 20000)
	cond := Condition{Name: "lossy", LatencyMin: ms, LatencyMax: 2 * ms, Loss: 0.3}
	got, st := transfer(t, cond, 3, data)
	if !bytes.Equal(got, data) {
		t.Fatal("a lossy link changed or dropped bytes")
	}
	if rate := float64(st.Lost) / float64(st.Segments); rate < 0.2 || rate > 0.4 {
		t.Fatalf("lost %d of %d segments, want about 30 %%", st.Lost, st.Segments)
	}
	if st.Bytes != int64(len(data)) || st.Corrupted != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestCorruptionFlipsOneBitPerCountedSegment(t *testing.T) {
	data := make([]byte, 300*SegmentSize)
	got, st := transfer(t, Condition{Name: "bitrot", Corruption: 0.1}, 9, data)
	flipped, bad := 0, 0
	for s := 0; s < len(data); s += SegmentSize {
		seg := got[s:min(s+SegmentSize, len(got))]
		bits := 0
		for _, b := range seg {
			for ; b != 0; b &= b - 1 {
				bits++
			}
		}
		flipped += bits
		if bits > 0 {
			bad++
		}
	}
	if int64(bad) != st.Corrupted || flipped != bad || bad < 15 || bad > 50 {
		t.Fatalf("%d corrupted segments, %d flipped bits, stats say %d", bad, flipped, st.Corrupted)
	}
}

func TestSameSeedSameFate(t *testing.T) {
	data := make([]byte, 100*SegmentSize)
	cond := Condition{Name: "mixed", LatencyMax: 2 * ms, Loss: 0.2, Corruption: 0.2}
	got1, st1 := transfer(t, cond, 42, data)
	got2, st2 := transfer(t, cond, 42, data)
	got3, _ := transfer(t, cond, 43, data)
	if !bytes.Equal(got1, got2) || st1 != st2 {
		t.Fatalf("same seed, different outcome: %+v vs %+v", st1, st2)
	}
	if bytes.Equal(got1, got3) {
		t.Fatal("another seed flipped the same bits")
	}
}

func TestFullQueueHonoursWriteDeadline(t *testing.T) {
	a, _ := tcpPair(t)
	w := wrap(t, a, Condition{Name: "stuck", LatencyMin: time.Hour, LatencyMax: time.Hour}, 1)
	if err := w.SetWriteDeadline(time.Now().Add(100 * ms)); err != nil {
		t.Fatal(err)
	}
	_, err := w.Write(make([]byte, w.cond.QueueLimit()+SegmentSize))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("write after close: %v", err)
	}
}

func TestPresetsValidate(t *testing.T) {
	if len(Presets()) != 7 {
		t.Fatal("the seed has seven presets")
	}
	for _, c := range Presets() {
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Preset("moon"); err == nil {
		t.Fatal("unknown preset accepted")
	}
	for _, bad := range []Condition{{LatencyMin: 2, LatencyMax: 1}, {Loss: 1}, {Corruption: -1}, {Bandwidth: -1}} {
		if _, err := Wrap(nil, bad, 1); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
}
