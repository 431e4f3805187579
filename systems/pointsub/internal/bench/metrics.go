package bench

import (
	"math"
	"slices"
	"time"
)

// Metric is one named figure with one sample per repetition.
type Metric struct {
	Name      string    `json:"name"`
	Unit      string    `json:"unit"`
	Direction string    `json:"direction"`
	Samples   []float64 `json:"samples"`
}

// Result is one benchmark in the benchdash/v1 shape.
type Result struct {
	Benchmark  string         `json:"benchmark"`
	Parameters map[string]any `json:"parameters"`
	Metrics    []Metric       `json:"metrics"`
}

const (
	higher = "higher_is_better"
	lower  = "lower_is_better"
)

type metricDef struct {
	name, unit, dir string
	value           func(Sample) (float64, bool)
}

func latency(q float64) func(Sample) (float64, bool) {
	return func(s Sample) (float64, bool) {
		if len(s.Latencies) == 0 {
			return 0, false
		}
		sorted := slices.Clone(s.Latencies)
		slices.Sort(sorted)
		var d time.Duration
		switch q {
		case -1: // mean
			var sum time.Duration
			for _, l := range sorted {
				sum += l
			}
			d = sum / time.Duration(len(sorted))
		default: // nearest rank
			d = sorted[max(int(math.Ceil(q*float64(len(sorted))))-1, 0)]
		}
		return float64(d) / float64(time.Microsecond), true
	}
}

func count(f func(Sample) int64) func(Sample) (float64, bool) {
	return func(s Sample) (float64, bool) { return float64(f(s)), true }
}

// metricDefs are the figures of every run (the seed's list plus resends and checksum failures).
var metricDefs = []metricDef{
	{"throughput", "MiB/s", higher, func(s Sample) (float64, bool) {
		return float64(s.AckedBytes) / mib / s.Elapsed.Seconds(), true
	}},
	{"messages_per_second", "msgs/s", higher, func(s Sample) (float64, bool) {
		return float64(s.Acked) / s.Elapsed.Seconds(), true
	}},
	{"latency_avg_us", "us", lower, latency(-1)},
	{"latency_min_us", "us", lower, latency(0)},
	{"latency_p50_us", "us", lower, latency(0.50)},
	{"latency_p90_us", "us", lower, latency(0.90)},
	{"latency_p99_us", "us", lower, latency(0.99)},
	{"latency_max_us", "us", lower, latency(1)},
	{"messages", "messages", higher, count(func(s Sample) int64 { return s.Acked })},
	{"errors", "messages", lower, count(func(s Sample) int64 { return s.Failed })},
	{"unacknowledged", "messages", lower, count(func(s Sample) int64 { return s.TimedOut })},
	{"success_pct", "%", higher, func(s Sample) (float64, bool) {
		if s.Acked+s.Failed == 0 {
			return 0, false
		}
		return 100 * float64(s.Acked) / float64(s.Acked+s.Failed), true
	}},
	{"resends", "messages", lower, count(func(s Sample) int64 { return s.Retried })},
	{"reconnects", "connections", lower, count(func(s Sample) int64 { return s.Reconnects })},
	{"checksum_failures", "frames", lower, count(func(s Sample) int64 { return s.Checksum })},
	{"memory_mb", "MiB", lower, func(s Sample) (float64, bool) { return float64(s.PeakHeap) / mib, true }},
}

// simDefs are the network layer's own counts, reported for simulated networks only.
var simDefs = []metricDef{
	{"sim_loss_pct", "%", lower, func(s Sample) (float64, bool) {
		return pct(s.Sim.Lost, s.Sim.Segments)
	}},
	{"sim_corrupt_pct", "%", lower, func(s Sample) (float64, bool) {
		return pct(s.Sim.Corrupted, s.Sim.Segments)
	}},
}

func pct(n, of int64) (float64, bool) {
	if of == 0 {
		return 0, false
	}
	return 100 * float64(n) / float64(of), true
}

func collect(defs []metricDef, samples []Sample) []Metric {
	var out []Metric
	for _, d := range defs {
		m := Metric{Name: d.name, Unit: d.unit, Direction: d.dir}
		for _, s := range samples {
			if v, ok := d.value(s); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
				m.Samples = append(m.Samples, round(v))
			}
		}
		if len(m.Samples) > 0 {
			out = append(out, m)
		}
	}
	return out
}

func round(v float64) float64 { return math.Round(v*1000) / 1000 }

// Parameters describes a scenario run the way results are keyed.
func Parameters(s Scenario, mode Mode, d time.Duration) map[string]any {
	p := map[string]any{
		"message_bytes": s.MessageSize,
		"connections":   s.Conns,
		"buffer_bytes":  min(s.BufferSize, 2*mib),
		"mode":          string(mode),
		"duration_s":    d.Seconds(),
		"window":        s.Window(),
	}
	if mode == Paced {
		p["message_count"] = s.MessageCount
	}
	if c := s.Condition; c != nil {
		p["condition"] = c.Name
		p["latency_min_ms"] = c.LatencyMin.Seconds() * 1000
		p["latency_max_ms"] = c.LatencyMax.Seconds() * 1000
		p["jitter_ms"] = c.Jitter.Seconds() * 1000
		p["loss_pct"] = c.Loss * 100
		p["corruption_pct"] = c.Corruption * 100
		p["bandwidth_kib_s"] = c.Bandwidth / kib
	}
	return p
}

// Summarize turns the repetitions of a scenario (and of its TCP reference, if run) into
// results: the scenario with a tcp_ratio metric, and tcp_reference.
func Summarize(s Scenario, mode Mode, d time.Duration, runs, refs []Sample) []Result {
	main := Result{Benchmark: s.Name, Parameters: Parameters(s, mode, d), Metrics: collect(metricDefs, runs)}
	if s.Condition != nil {
		main.Metrics = append(main.Metrics, collect(simDefs, runs)...)
	}
	if len(refs) == 0 {
		return []Result{main}
	}
	ratio := Metric{Name: "tcp_ratio", Unit: "x", Direction: higher}
	for i := range min(len(runs), len(refs)) {
		ours, _ := metricDefs[0].value(runs[i])
		theirs, _ := metricDefs[0].value(refs[i])
		if theirs > 0 {
			ratio.Samples = append(ratio.Samples, round(ours/theirs))
		}
	}
	if len(ratio.Samples) > 0 {
		main.Metrics = append(main.Metrics, ratio)
	}
	params := Parameters(s, mode, d)
	params["scenario"] = s.Name
	ref := Result{Benchmark: "tcp_reference", Parameters: params, Metrics: collect(metricDefs, refs)}
	return []Result{main, ref}
}
