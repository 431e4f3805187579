package harness

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sort"
	"time"
)

// Options control a suite run.
type Options struct {
	Profile    Profile
	ThinkTime  time.Duration // 0 = closed loop; 1ms reproduces the seed's paced loop
	References bool          // also run the no-cache and no-singleflight references
	Seed       uint64
}

// ScenarioResult is everything measured for one scenario.
type ScenarioResult struct {
	// Benchmark is the scenario name.
	Benchmark string `json:"benchmark"`
	// Parameters are the scenario's settings.
	Parameters map[string]any `json:"parameters"`
	// Metrics are cachex's figures and the reference ratios, one sample per repetition.
	Metrics []Metric `json:"metrics"`
	// Runs holds every run, by variant, in repetition order.
	Runs map[Variant][]RunResult `json:"runs"`
}

// Report is the harness's JSON output.
type Report struct {
	Schema      string           `json:"schema"`
	Profile     string           `json:"profile"`
	GoVersion   string           `json:"go_version"`
	Platform    string           `json:"platform"`
	CPUs        int              `json:"cpus"`
	Repetitions int              `json:"repetitions"`
	ThinkTimeMS float64          `json:"think_time_ms"`
	References  bool             `json:"references"`
	RefDuration float64          `json:"reference_duration_s"`
	StartedAt   time.Time        `json:"started_at"`
	FinishedAt  time.Time        `json:"finished_at"`
	Scenarios   []ScenarioResult `json:"scenarios"`
}

// NewReport starts a report for the given options.
func NewReport(o Options) *Report {
	return &Report{
		Schema: "cachex-bench/v1", Profile: o.Profile.Name, GoVersion: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(),
		Repetitions: o.Profile.Repetitions, ThinkTimeMS: float64(o.ThinkTime) / 1e6,
		References: o.References, RefDuration: o.Profile.RefDuration.Seconds(), StartedAt: time.Now().UTC(),
	}
}

// RunScenario measures one scenario: per repetition cachex, then the
// references, each on its own cold cache and fresh database. Progress goes to log.
func RunScenario(ctx context.Context, s Scenario, o Options, log io.Writer) (ScenarioResult, error) {
	workers := s.WorkersCapped(o.Profile.MaxWorkers)
	res := ScenarioResult{
		Benchmark:  s.Name,
		Parameters: s.Parameters(workers, o.Profile.Duration, o.ThinkTime),
		Runs:       map[Variant][]RunResult{},
	}
	variants := []Variant{Cachex}
	if o.References {
		variants = Variants
	}
	for rep := range o.Profile.Repetitions {
		for _, v := range variants {
			d := o.Profile.Duration
			if v != Cachex {
				d = o.Profile.RefDuration
			}
			r, err := Run(ctx, RunConfig{Scenario: s, Variant: v, Workers: workers, Duration: d, ThinkTime: o.ThinkTime, Seed: o.Seed + uint64(rep)})
			if err != nil {
				return res, fmt.Errorf("%s/%s rep %d: %w", s.Name, v, rep+1, err)
			}
			fmt.Fprintf(log, "  %-16s rep %d/%d %-15s %9.0f req/s  hit %6.2f%%  db %6d q  p99 %-10v errors %d\n",
				s.Name, rep+1, o.Profile.Repetitions, v, r.QPS, r.HitRatePct, r.DBQueries, usDuration(r.P99US), r.Errors)
			res.Runs[v] = append(res.Runs[v], r)
		}
	}
	res.Metrics = Metrics(res.Runs)
	return res, nil
}

// usDuration renders a µs figure as a Go duration, like the seed's report.
func usDuration(us float64) time.Duration {
	d := time.Duration(us * 1e3)
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	default:
		return d
	}
}

// medianIndex returns the index of the run with the median QPS.
func medianIndex(runs []RunResult) int {
	idx := make([]int, len(runs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return runs[idx[a]].QPS < runs[idx[b]].QPS })
	return idx[len(idx)/2]
}
