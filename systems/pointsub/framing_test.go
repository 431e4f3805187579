package pointsub

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"benchdash.dev/pointsub/netsim"
	"benchdash.dev/pointsub/transport"
)

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
