package harness

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

// tiny is a scenario small enough to run under the race detector.
var tiny = Scenario{
	Name: "tiny", Pool: 2, Latency: 5 * time.Millisecond, FetchTimeout: time.Second,
	FreshTTL: 50 * time.Millisecond, StaleTTL: time.Hour, NFFreshTTL: 50 * time.Millisecond, NFStaleTTL: time.Hour,
	Workers: 8,
}

func TestRunInvariants(t *testing.T) {
	for _, v := range Variants {
		t.Run(string(v), func(t *testing.T) {
			r, err := Run(context.Background(), RunConfig{Scenario: tiny, Variant: v, Workers: tiny.Workers, Duration: 300 * time.Millisecond, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if r.Requests == 0 || r.Requests != r.Successes+r.NotFound+r.Errors {
				t.Fatalf("requests %d != %d ok + %d not found + %d errors", r.Requests, r.Successes, r.NotFound, r.Errors)
			}
			var inBuckets int64
			for _, n := range r.Buckets {
				inBuckets += n
			}
			if inBuckets != r.Requests {
				t.Fatalf("buckets hold %d requests, want %d", inBuckets, r.Requests)
			}
			if r.DBUtilPct > 100 || r.DBUtilPct <= 0 {
				t.Fatalf("DB utilisation %.1f%% outside (0, 100]", r.DBUtilPct)
			}
			if !(r.P50US <= r.P95US && r.P95US <= r.P99US && r.P99US <= r.MaxUS) {
				t.Fatalf("percentiles out of order: %+v", r)
			}
			if v == NoCache && r.HitRatePct != 0 && r.DBQueries < r.Requests {
				t.Fatalf("no-cache served %d requests with %d queries", r.Requests, r.DBQueries)
			}
		})
	}
}

func TestRunScenarioMetricsAndReport(t *testing.T) {
	o := Options{Profile: Profile{Name: "t", Duration: 200 * time.Millisecond, RefDuration: 200 * time.Millisecond, Repetitions: 2}, References: true}
	var log strings.Builder
	res, err := RunScenario(context.Background(), tiny, o, &log)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range res.Metrics {
		names[m.Name] = true
		if m.Unit == "" || (m.Direction != HigherIsBetter && m.Direction != LowerIsBetter) {
			t.Errorf("%s: unit %q direction %q", m.Name, m.Unit, m.Direction)
		}
		if len(m.Samples) != 2 {
			t.Errorf("%s: %d samples, want 2", m.Name, len(m.Samples))
		}
		for _, x := range m.Samples {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				t.Errorf("%s: sample %v", m.Name, x)
			}
		}
	}
	for _, want := range []string{"qps", "hit_rate_pct", "latency_p99_us", "ref_nosf_db_per_request_ratio", "ref_nocache_p99_ratio"} {
		if !names[want] {
			t.Errorf("metric %s missing", want)
		}
	}
	var out strings.Builder
	Print(&out, tiny, res, o)
	for _, want := range []string{"Scenario: tiny", "Hit rate:", "DB utilisation:", "<1ms", "no-singleflight"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestCompare(t *testing.T) {
	cx := RunResult{Requests: 1000, DBQueries: 10, DBQPS: 5, P99US: 2, ElapsedS: 2}
	ref := RunResult{Requests: 100, DBQueries: 20, DBQPS: 10, P99US: 200, ElapsedS: 2}
	got := Compare(ref, cx)
	if got.DBQueries != 2 || got.DBPerRequest != 20 || got.P99 != 100 {
		t.Fatalf("Compare = %+v", got)
	}
	if z := Compare(ref, RunResult{Requests: 1000, ElapsedS: 2, P99US: 1}); math.IsInf(z.DBQueries, 0) || math.IsInf(z.DBPerRequest, 0) {
		t.Fatalf("zero denominators gave %+v", z)
	}
}

func TestScenariosMatchTheSeed(t *testing.T) {
	if len(Scenarios) != 4 {
		t.Fatalf("%d scenarios", len(Scenarios))
	}
	hp, err := FindScenario("high-performance")
	if err != nil || hp.Pool != 100 || hp.Latency != 90*time.Millisecond || hp.Workers != 600 || hp.WorkersCapped(200) != 200 {
		t.Fatalf("high-performance = %+v, %v", hp, err)
	}
	if _, err := FindScenario("nope"); err == nil {
		t.Fatal("unknown scenario accepted")
	}
}
