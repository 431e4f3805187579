package harness

import (
	"fmt"
	"time"
)

// Scenario is one database and cache configuration from the seed report.
type Scenario struct {
	Name         string
	Pool         int
	Latency      time.Duration
	FetchTimeout time.Duration
	FreshTTL     time.Duration
	StaleTTL     time.Duration
	NFFreshTTL   time.Duration
	NFStaleTTL   time.Duration
	Workers      int
}

// Products is the catalogue size of the mock database.
const Products = 10_000

// Scenarios are the four scenarios of the seed, in report order.
var Scenarios = []Scenario{
	{"high-performance", 100, 90 * time.Millisecond, 2 * time.Second, time.Second, 24 * time.Hour, 500 * time.Millisecond, 24 * time.Hour, 600},
	{"cloud", 20, 85 * time.Millisecond, time.Second, 5 * time.Second, 24 * time.Hour, 3 * time.Second, 24 * time.Hour, 100},
	{"shared", 13, 125 * time.Millisecond, 5 * time.Second, 10 * time.Second, 24 * time.Hour, 5 * time.Second, 24 * time.Hour, 100},
	{"constrained", 8, 190 * time.Millisecond, 10 * time.Second, 20 * time.Second, 24 * time.Hour, 10 * time.Second, 24 * time.Hour, 100},
}

// FindScenario returns the scenario with the given name.
func FindScenario(name string) (Scenario, error) {
	for _, s := range Scenarios {
		if s.Name == name {
			return s, nil
		}
	}
	return Scenario{}, fmt.Errorf("unknown scenario %q", name)
}

// Profile fixes the run length and repetitions.
type Profile struct {
	Name        string
	Duration    time.Duration // per measured run
	RefDuration time.Duration // per reference run
	Repetitions int
	MaxWorkers  int // 0 = the scenario's own worker count
}

// Profiles are quick (CI, ≤ 2 min), standard and full (the seed's parameters).
var Profiles = map[string]Profile{
	"quick":    {Name: "quick", Duration: 2 * time.Second, RefDuration: 2 * time.Second, Repetitions: 3, MaxWorkers: 200},
	"standard": {Name: "standard", Duration: 10 * time.Second, RefDuration: 10 * time.Second, Repetitions: 5, MaxWorkers: 200},
	"full":     {Name: "full", Duration: 10 * time.Second, RefDuration: 10 * time.Second, Repetitions: 5},
}

// WorkersCapped returns the scenario's worker count under a cap (0 = no cap).
func (s Scenario) WorkersCapped(limit int) int {
	if limit > 0 && s.Workers > limit {
		return limit
	}
	return s.Workers
}

// Parameters are the scenario's settings as they appear in result documents.
func (s Scenario) Parameters(workers int, duration, thinkTime time.Duration) map[string]any {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return map[string]any{
		"pool":               s.Pool,
		"latency_ms":         ms(s.Latency),
		"fetch_timeout_ms":   ms(s.FetchTimeout),
		"fresh_ttl_ms":       ms(s.FreshTTL),
		"stale_ttl_ms":       ms(s.StaleTTL),
		"not_found_fresh_ms": ms(s.NFFreshTTL),
		"not_found_stale_ms": ms(s.NFStaleTTL),
		"workers":            workers,
		"duration_s":         duration.Seconds(),
		"think_time_ms":      ms(thinkTime),
		"products":           Products,
		"cold_start":         true,
	}
}
