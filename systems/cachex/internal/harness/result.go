package harness

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"benchdash.dev/cachex/internal/mockdb"
)

// BucketBounds are the upper bounds of the latency distribution.
var BucketBounds = []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second, 10 * time.Second}

// BucketLabels name BucketBounds.
var BucketLabels = []string{"1ms", "10ms", "100ms", "1s", "10s"}

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

// newHistogram covers 1 ns to 5 min with 3 significant digits.
func newHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(1, int64(5*time.Minute), 3)
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
