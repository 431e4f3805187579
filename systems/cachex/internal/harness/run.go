package harness

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/internal/mockdb"
	"benchdash.dev/cachex/internal/traffic"
)

// RunConfig is one measured run.
type RunConfig struct {
	Scenario  Scenario
	Variant   Variant
	Workers   int
	Duration  time.Duration
	ThinkTime time.Duration // pause after each request; 0 = closed loop
	Seed      uint64
}

// getter is what a worker calls for one request.
type getter func(ctx context.Context, id string) error

// worker is one closed-loop client; it owns its counters and histogram.
type worker struct {
	hist                          *hdrhistogram.Histogram
	buckets                       []int64
	requests, ok, notFound, fails int64
}

func (w *worker) loop(ctx context.Context, get getter, picker *traffic.Picker, think time.Duration) {
	for ctx.Err() == nil {
		id := picker.Next()
		start := time.Now()
		err := get(ctx, id)
		d := time.Since(start)
		if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return // cut off by the end of the run: not a measurement
		}
		w.requests++
		switch {
		case err == nil:
			w.ok++
		case cachex.IsNotFound(err):
			w.notFound++
		default:
			w.fails++
		}
		_ = w.hist.RecordValue(max(int64(d), 1)) // values beyond 5 min are clamped by the error path
		b := 0
		for b < len(BucketBounds) && d >= BucketBounds[b] {
			b++
		}
		w.buckets[b]++
		if think > 0 {
			time.Sleep(think)
		} else {
			// Closed loop, but yield: with more spinning workers than cores the
			// scheduler would otherwise run the mock database's goroutines (which
			// must wake up to release their connections) only every few
			// preemption slices, and the database would look idle while
			// refreshes time out.
			runtime.Gosched()
		}
	}
}

// Run performs one measured run on a fresh database and a cold cache.
func Run(ctx context.Context, cfg RunConfig) (RunResult, error) {
	s := cfg.Scenario
	db := mockdb.New(mockdb.Config{Products: Products, Pool: s.Pool, Latency: s.Latency})
	get, cleanup, err := build(cfg, db)
	if err != nil {
		return RunResult{}, err
	}
	defer cleanup()

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	workers := make([]*worker, cfg.Workers)
	begin := make(chan struct{})
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{hist: newHistogram(), buckets: make([]int64, len(BucketBounds)+1)}
		workers[i] = w
		picker := traffic.NewPicker(cfg.Seed*1_000_003 + uint64(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			w.loop(runCtx, get, picker, cfg.ThinkTime)
		}()
	}
	start := time.Now()
	close(begin)
	select {
	case <-time.After(cfg.Duration):
	case <-ctx.Done():
	}
	dbStats := db.Stats()
	elapsed := time.Since(start)
	stop()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return RunResult{}, err
	}
	return summarize(cfg, workers, dbStats, elapsed), nil
}
