package harness

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/internal/mockdb"
	"benchdash.dev/cachex/internal/traffic"
	"benchdash.dev/cachex/store"
)

// Variant is the client under test.
type Variant string

const (
	// Cachex is the client under test: singleflight, double-check (auto, on),
	// serve-stale and not-found caching over Ristretto.
	Cachex Variant = "cachex"
	// NoCache sends every request to the database.
	NoCache Variant = "no-cache"
	// NoSingleflight is a naive cache-aside client over the same backends and
	// TTLs: every miss queries the database itself and stale entries are
	// re-fetched by the caller instead of being served.
	NoSingleflight Variant = "no-singleflight"
)

// Variants lists the variants in the order they run.
var Variants = []Variant{Cachex, NoCache, NoSingleflight}

// BucketBounds are the upper bounds of the latency distribution.
var BucketBounds = []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second, 10 * time.Second}

// BucketLabels name BucketBounds.
var BucketLabels = []string{"1ms", "10ms", "100ms", "1s", "10s"}

// RunConfig is one measured run.
type RunConfig struct {
	Scenario  Scenario
	Variant   Variant
	Workers   int
	Duration  time.Duration
	ThinkTime time.Duration // pause after each request; 0 = closed loop
	Seed      uint64
}

// RunResult holds everything measured in one run. Latencies are in µs.
type RunResult struct {
	Variant       Variant `json:"variant"`
	Workers       int     `json:"workers"`
	ElapsedS      float64 `json:"elapsed_s"`
	Requests      int64   `json:"requests"`
	Successes     int64   `json:"successes"`
	NotFound      int64   `json:"not_found"`
	Errors        int64   `json:"errors"`
	QPS           float64 `json:"qps"`
	HitRatePct    float64 `json:"hit_rate_pct"`
	DBQueries     int64   `json:"db_queries"`
	DBQPS         float64 `json:"db_qps"`
	DBRejections  int64   `json:"db_rejections"`
	DBUtilPct     float64 `json:"db_utilization_pct"`
	Amplification float64 `json:"amplification"`
	MeanUS        float64 `json:"latency_mean_us"`
	P50US         float64 `json:"latency_p50_us"`
	P95US         float64 `json:"latency_p95_us"`
	P99US         float64 `json:"latency_p99_us"`
	P999US        float64 `json:"latency_p999_us"`
	MaxUS         float64 `json:"latency_max_us"`
	// Buckets counts requests per latency band: <1ms, 1–10ms, 10–100ms,
	// 100ms–1s, 1–10s and ≥10s (one more entry than BucketBounds).
	Buckets []int64 `json:"buckets"`
}

// getter is what a worker calls for one request.
type getter func(ctx context.Context, id string) error

// newHistogram covers 1 ns to 5 min with 3 significant digits.
func newHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, int64(5*time.Minute), 3)
}

// build returns the request function of a variant and a cleanup function.
func build(cfg RunConfig, db *mockdb.DB) (getter, func(), error) {
	s := cfg.Scenario
	if cfg.Variant == NoCache {
		return func(ctx context.Context, id string) error {
			fctx, cancel := context.WithTimeout(ctx, s.FetchTimeout)
			defer cancel()
			_, err := db.Query(fctx, id)
			return err
		}, func() {}, nil
	}
	data, err := store.NewRistretto[cachex.Entry[*mockdb.Product]](store.RistrettoConfig{MaxItems: 4 * Products, TTL: s.FreshTTL + s.StaleTTL})
	if err != nil {
		return nil, nil, err
	}
	nf, err := store.NewRistretto[time.Time](store.RistrettoConfig{MaxItems: 4 * Products, TTL: s.NFFreshTTL + s.NFStaleTTL})
	if err != nil {
		data.Close()
		return nil, nil, err
	}
	opts := []cachex.Option{
		cachex.WithTTL(s.FreshTTL, s.StaleTTL),
		cachex.WithNotFound(nf, s.NFFreshTTL, s.NFStaleTTL),
		cachex.WithFetchTimeout(s.FetchTimeout),
	}
	switch cfg.Variant {
	case Cachex:
		opts = append(opts, cachex.WithServeStale(true), cachex.WithDoubleCheck(cachex.DoubleCheckAuto))
	case NoSingleflight:
		opts = append(opts, cachex.WithSingleflight(false), cachex.WithServeStale(false), cachex.WithDoubleCheck(cachex.DoubleCheckDisabled))
	default:
		return nil, nil, fmt.Errorf("unknown variant %q", cfg.Variant)
	}
	client := cachex.NewClient[*mockdb.Product](data, cachex.UpstreamFunc[*mockdb.Product](db.Query), opts...)
	get := func(ctx context.Context, id string) error {
		_, err := client.Get(ctx, id)
		return err
	}
	// The client first: Close waits for its flights and background refreshes,
	// which may still write to the stores after the last worker returned.
	cleanup := func() {
		_ = client.Close()
		data.Close()
		nf.Close()
	}
	return get, cleanup, nil
}

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

func summarize(cfg RunConfig, workers []*worker, dbStats mockdb.Stats, elapsed time.Duration) RunResult {
	s := cfg.Scenario
	hist := newHistogram()
	r := RunResult{Variant: cfg.Variant, Workers: cfg.Workers, ElapsedS: elapsed.Seconds(), Buckets: make([]int64, len(BucketBounds)+1)}
	for _, w := range workers {
		hist.Merge(w.hist)
		r.Requests += w.requests
		r.Successes += w.ok
		r.NotFound += w.notFound
		r.Errors += w.fails
		for i, n := range w.buckets {
			r.Buckets[i] += n
		}
	}
	secs := elapsed.Seconds()
	lat := s.Latency.Seconds()
	r.QPS = float64(r.Requests) / secs
	r.DBQueries = dbStats.Queries
	r.DBRejections = dbStats.Rejected
	r.DBQPS = float64(r.DBQueries) / secs
	if r.Requests > 0 {
		r.HitRatePct = min(max(100*float64(r.Requests-r.DBQueries)/float64(r.Requests), 0), 100)
	}
	r.DBUtilPct = 100 * float64(r.DBQueries) / (float64(s.Pool) * secs / lat)
	r.Amplification = r.QPS / (float64(s.Pool) / lat)
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	r.MeanUS = hist.Mean() / 1e3
	r.P50US = us(hist.ValueAtQuantile(50))
	r.P95US = us(hist.ValueAtQuantile(95))
	r.P99US = us(hist.ValueAtQuantile(99))
	r.P999US = us(hist.ValueAtQuantile(99.9))
	r.MaxUS = us(hist.Max())
	return r
}
