package transport

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"testing"

	"benchdash.dev/pointsub/frame"
)

type rw struct {
	io.Reader
	io.Writer
}

// encode sends msgs through a Transport and returns the bytes it wrote.
func encode(t *testing.T, opts Options, msgs ...[]byte) []byte {
	t.Helper()
	var out bytes.Buffer
	tr := New(rw{bytes.NewReader(nil), &out}, opts)
	for _, m := range msgs {
		if err := tr.Send(m); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

func decoder(wire []byte, opts Options) *Transport {
	return New(rw{bytes.NewReader(wire), io.Discard}, opts)
}

func payload(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}

func TestRoundTripSizesAndFragmentation(t *testing.T) {
	for _, opts := range []Options{{}, {Compact: true}, {ChunkSize: 1000}, {NoChecksum: true}} {
		sizes := []int{0, 1, 511, 513, 1024, 16 << 10, 100 << 10, 1 << 20, 3<<20 + 7}
		var msgs [][]byte
		for i, n := range sizes {
			msgs = append(msgs, payload(n, uint64(i)))
		}
		wire := encode(t, opts, msgs...)
		dec := decoder(wire, opts)
		var buf []byte
		for i, want := range msgs {
			m, err := dec.Receive(buf)
			if err != nil {
				t.Fatalf("%+v size %d: %v", opts, sizes[i], err)
			}
			if m.Kind != Data || !bytes.Equal(m.Data, want) {
				t.Fatalf("%+v size %d: message differs", opts, sizes[i])
			}
			buf = m.Data
		}
		if _, err := dec.Receive(buf); err != io.EOF {
			t.Fatalf("after the last message: %v", err)
		}
	}
}

func TestFragmentFlagsOnTheWire(t *testing.T) {
	wire := encode(t, Options{}, payload(1000, 1)) // tiny class: 512-byte chunks, 2 frames
	r := bytes.NewReader(wire)
	var flags []frame.Flags
	for r.Len() > 0 {
		h, err := frame.Read(r)
		if err != nil {
			t.Fatal(err)
		}
		flags = append(flags, h.Flags)
		r.Seek(int64(h.Size), io.SeekCurrent)
	}
	want := []frame.Flags{frame.Fragmented, frame.Fragmented | frame.LastFrame}
	if len(flags) != 2 || flags[0] != want[0] || flags[1] != want[1] {
		t.Fatalf("frames %v, want %v", flags, want)
	}
	if compact := encode(t, Options{Compact: true}, []byte("abc")); len(compact) != frame.CompactSize+3 {
		t.Fatalf("compact frame is %d bytes", len(compact))
	}
}

func TestCorruptedFrameIsDetectedAndStreamStaysInStep(t *testing.T) {
	first, second := payload(50<<10, 1), payload(2000, 2)
	wire := encode(t, Options{}, first, second)
	wire[frame.FullSize+30000] ^= 0x04 // a bit inside the first message's second fragment
	dec := decoder(wire, Options{})
	_, err := dec.Receive(nil)
	if !errors.Is(err, ErrChecksum) || !Recoverable(err) {
		t.Fatalf("corrupted message: %v", err)
	}
	m, err := dec.Receive(nil)
	if err != nil || !bytes.Equal(m.Data, second) {
		t.Fatalf("message after the corrupted one: %v", err)
	}
}

func TestCorruptedHeaderIsFatal(t *testing.T) {
	wire := encode(t, Options{}, payload(100, 1))
	wire[0] = 0x99
	if _, err := decoder(wire, Options{}).Receive(nil); !errors.Is(err, ErrBadHeader) || Recoverable(err) {
		t.Fatalf("got %v", err)
	}
}

func TestMaxMessageSize(t *testing.T) {
	tr := New(rw{bytes.NewReader(nil), io.Discard}, Options{MaxMessageSize: 1000})
	if err := tr.Send(make([]byte, 1001)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("send over the limit: %v", err)
	}
	big, small := payload(300<<10, 1), payload(10, 2)
	dec := decoder(encode(t, Options{}, big, small), Options{MaxMessageSize: 64 << 10})
	if _, err := dec.Receive(nil); !errors.Is(err, ErrTooLarge) || !Recoverable(err) {
		t.Fatalf("receive over the limit: %v", err)
	}
	if m, err := dec.Receive(nil); err != nil || !bytes.Equal(m.Data, small) {
		t.Fatalf("next message: %v", err)
	}
}

func TestTruncatedStream(t *testing.T) {
	wire := encode(t, Options{}, payload(10<<10, 1))
	if _, err := decoder(wire[:len(wire)-1], Options{}).Receive(nil); err != io.ErrUnexpectedEOF {
		t.Fatalf("got %v", err)
	}
}

func TestControlAndErrorKinds(t *testing.T) {
	var out bytes.Buffer
	tr := New(rw{bytes.NewReader(nil), &out}, Options{})
	if err := tr.Queue(Control, nil); err != nil {
		t.Fatal(err)
	}
	if err := tr.SendError("bad checksum"); err != nil {
		t.Fatal(err)
	}
	dec := decoder(out.Bytes(), Options{})
	if m, err := dec.Receive(nil); err != nil || m.Kind != Control || len(m.Data) != 0 {
		t.Fatalf("control: %+v %v", m, err)
	}
	if m, err := dec.Receive(nil); err != nil || m.Kind != Error || string(m.Data) != "bad checksum" {
		t.Fatalf("error: %+v %v", m, err)
	}
}

func TestProgressForLargeMessages(t *testing.T) {
	var sent, got []Progress
	msg := payload(2<<20, 3)
	wire := encode(t, Options{OnProgress: func(p Progress) { sent = append(sent, p) }}, payload(100, 1), msg)
	dec := decoder(wire, Options{OnProgress: func(p Progress) { got = append(got, p) }})
	for range 2 {
		if _, err := dec.Receive(nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(sent) != 8 || !sent[7].Done || sent[7].Bytes != int64(len(msg)) || sent[0].Total != int64(len(msg)) {
		t.Fatalf("send progress %+v", sent)
	}
	last := got[len(got)-1]
	if !last.Done || last.Total != int64(len(msg)) || got[0].Total != -1 || got[0].Bytes < 1<<20 {
		t.Fatalf("receive progress %+v", got)
	}
}

func TestConcurrentSendersOverAPipe(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	sender, receiver := New(a, Options{}), New(b, Options{})
	const senders, each = 8, 40
	var wg sync.WaitGroup
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := payload(1+(s*977+i*131)%40000, uint64(s))
				m[0] = byte(s)
				if err := sender.Send(m); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	counts := make([]int, senders)
	for range senders * each {
		m, err := receiver.Receive(nil)
		if err != nil {
			t.Fatal(err)
		}
		counts[m.Data[0]]++
	}
	wg.Wait()
	for s, c := range counts {
		if c != each {
			t.Fatalf("sender %d: %d messages", s, c)
		}
	}
}
