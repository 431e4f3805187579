package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"benchdash.dev/pointsub"
	"benchdash.dev/pointsub/netsim"
	"benchdash.dev/pointsub/transport"
)

// Config is one run of one scenario over one network.
type Config struct {
	Scenario Scenario
	Network  Network
	Mode     Mode
	Duration time.Duration
	Drain    time.Duration
	Retries  int
	Seed     uint64
}

// Sample is what one run measured.
type Sample struct {
	Sent       int64 // distinct messages sent
	Acked      int64
	Failed     int64 // error reports past the retries, or unacknowledged at the end
	TimedOut   int64 // of Failed: still unacknowledged when the drain time ended
	Retried    int64 // resends
	Reconnects int64
	AckedBytes int64
	Checksum   int64 // frames that failed their checksum (both directions)
	Desync     int64 // connections closed after a bad header (both sides)
	Elapsed    time.Duration
	Latencies  []time.Duration // one per acknowledged message, from first send to ack
	PeakHeap   uint64          // peak bytes of live heap objects during the run
	Sim        netsim.Stats    // both directions
}

// payloads returns distinct random messages: as many as fit in 16 MiB, between 2 and 64.
func payloads(size int, seed uint64) [][]byte {
	n := min(max(16*mib/max(size, 1), 2), 64)
	r := rand.New(rand.NewPCG(seed, 3))
	out := make([][]byte, n)
	for i := range out {
		out[i] = make([]byte, size)
		for j := 0; j < size; j += 8 {
			v := r.Uint64()
			for k := 0; k < 8 && j+k < size; k++ {
				out[i][j+k] = byte(v >> (8 * k))
			}
		}
	}
	return out
}

// Run runs one scenario once and returns what it measured.
func Run(ctx context.Context, cfg Config) (Sample, error) {
	s := cfg.Scenario
	if cfg.Duration <= 0 || s.Conns <= 0 || s.MessageSize <= 0 {
		return Sample{}, fmt.Errorf("%s: duration, connections and message size must be positive", s.Name)
	}
	ep, err := newEndpoint(cfg.Network, s, cfg.Retries)
	if err != nil {
		return Sample{}, fmt.Errorf("%s over %s: %w", s.Name, cfg.Network, err)
	}
	defer ep.close()
	buf := min(s.BufferSize, pointsub.MaxBufferSize)
	srv := &server{ln: ep.ln, cond: s.Condition, seed: cfg.Seed<<20 | 1,
		trOpts: transport.Options{ReadBufferSize: buf}}
	srv.serve()
	p := &plan{
		dial:     ep.dial,
		cond:     s.Condition,
		seed:     cfg.Seed << 20,
		payloads: payloads(s.MessageSize, cfg.Seed),
		trOpts:   transport.Options{WriteBufferSize: buf},
		mode:     cfg.Mode,
		window:   s.Window(),
		retries:  cfg.Retries,
	}
	if cfg.Mode == Paced {
		p.quota = max(s.MessageCount/s.Conns, 1)
		p.period = max(cfg.Duration/time.Duration(p.quota), time.Microsecond)
	}
	runtime.GC()
	peak, stopSampler := sampleHeap()
	start := time.Now()
	p.deadline = start.Add(cfg.Duration)
	p.drainEnd = p.deadline.Add(cfg.Drain)
	workers := make([]*worker, s.Conns)
	var wg sync.WaitGroup
	for i := range workers {
		workers[i] = newWorker(i, p)
		wg.Add(1)
		go func() {
			defer wg.Done()
			workers[i].run(ctx)
		}()
	}
	wg.Wait()
	out := Sample{Elapsed: time.Since(start)}
	stopSampler()
	out.PeakHeap = *peak
	out.Sim = srv.close()
	out.Checksum, out.Desync = srv.checksum.Load(), srv.desync.Load()
	for _, w := range workers {
		t := w.t
		out.Sent += t.sent
		out.Acked += t.acked
		out.Failed += t.failed
		out.TimedOut += t.timedOut
		out.Retried += t.retried
		out.Reconnects += t.reconnects
		out.AckedBytes += t.ackedBytes
		out.Checksum += t.checksum
		out.Desync += t.desync
		out.Latencies = append(out.Latencies, t.latencies...)
		out.Sim = out.Sim.Add(t.sim)
	}
	return out, ctx.Err()
}

// sampleHeap records the peak of live heap objects every 20 ms until stopped.
func sampleHeap() (*uint64, func()) {
	peak := new(uint64)
	done, exited := make(chan struct{}), make(chan struct{})
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > *peak {
			*peak = v
		}
	}
	go func() {
		defer close(exited)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			read()
			select {
			case <-t.C:
			case <-done:
				read()
				return
			}
		}
	}()
	return peak, func() { close(done); <-exited }
}
