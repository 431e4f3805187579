package cachex_test

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	"benchdash.dev/cachex/internal/harness"
)

var (
	benchDuration = flag.Duration("cachex.duration", envDuration("CACHEX_BENCH_DURATION", 10*time.Second), "load duration per scenario of BenchmarkProductSearch")
	benchWorkers  = flag.Int("cachex.max-workers", 0, "cap on workers per scenario (0 = the scenario's own)")
	benchThink    = flag.Duration("cachex.think-time", 0, "pause after each request (1ms = the seed's paced loop)")
	benchRefs     = flag.Bool("cachex.refs", false, "also run the no-cache and no-singleflight references")
)

func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil && d > 0 {
		return d
	}
	return def
}

// BenchmarkProductSearch runs each scenario once for a fixed duration, whatever
// b.N is, and reports its figures; run it with -benchtime=1x. Shorten it with
// -cachex.duration=2s or CACHEX_BENCH_DURATION=2s.
func BenchmarkProductSearch(b *testing.B) {
	p := harness.Profile{Name: "go-test", Duration: *benchDuration, RefDuration: *benchDuration, Repetitions: 1, MaxWorkers: *benchWorkers}
	opts := harness.Options{Profile: p, ThinkTime: *benchThink, References: *benchRefs, Seed: 1}
	for _, s := range harness.Scenarios {
		b.Run(s.Name, func(b *testing.B) {
			res, err := harness.RunScenario(context.Background(), s, opts, os.Stdout)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			harness.Print(os.Stdout, s, res, opts)
			r := res.Runs[harness.Cachex][0]
			b.ReportMetric(0, "ns/op") // the load runs for a fixed time, not b.N operations
			b.ReportMetric(r.QPS, "req/s")
			b.ReportMetric(r.HitRatePct, "hit_%")
			b.ReportMetric(float64(r.DBQueries), "db_queries")
			b.ReportMetric(float64(r.DBRejections), "db_rejected")
			b.ReportMetric(float64(r.Errors), "errors")
			b.ReportMetric(r.P50US, "p50_us")
			b.ReportMetric(r.P95US, "p95_us")
			b.ReportMetric(r.P99US, "p99_us")
		})
	}
}
