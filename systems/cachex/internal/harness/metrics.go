package harness

import "math"

// Directions of a metric, as in benchdash/v1.
const (
	HigherIsBetter = "higher_is_better"
	LowerIsBetter  = "lower_is_better"
)

// Metric is one named measurement with one sample per repetition.
type Metric struct {
	Name      string    `json:"name"`
	Unit      string    `json:"unit"`
	Direction string    `json:"direction"`
	Samples   []float64 `json:"samples"`
}

// metricDef derives one metric from the cachex run of a repetition.
type metricDef struct {
	name, unit, direction string
	value                 func(r RunResult) float64
}

func pct(part, whole int64) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// cumulativePct returns the share of requests faster than BucketBounds[i].
func cumulativePct(r RunResult, i int) float64 {
	var n int64
	for _, c := range r.Buckets[:i+1] {
		n += c
	}
	return pct(n, r.Requests)
}

var metricDefs = []metricDef{
	{"requests", "requests", HigherIsBetter, func(r RunResult) float64 { return float64(r.Requests) }},
	{"successes", "requests", HigherIsBetter, func(r RunResult) float64 { return float64(r.Successes) }},
	{"not_found_pct", "%", LowerIsBetter, func(r RunResult) float64 { return pct(r.NotFound, r.Requests) }},
	{"errors", "requests", LowerIsBetter, func(r RunResult) float64 { return float64(r.Errors) }},
	{"qps", "req/s", HigherIsBetter, func(r RunResult) float64 { return r.QPS }},
	{"hit_rate_pct", "%", HigherIsBetter, func(r RunResult) float64 { return r.HitRatePct }},
	{"db_queries", "queries", LowerIsBetter, func(r RunResult) float64 { return float64(r.DBQueries) }},
	{"db_qps", "queries/s", LowerIsBetter, func(r RunResult) float64 { return r.DBQPS }},
	{"db_rejections", "queries", LowerIsBetter, func(r RunResult) float64 { return float64(r.DBRejections) }},
	{"db_utilization_pct", "%", LowerIsBetter, func(r RunResult) float64 { return r.DBUtilPct }},
	{"amplification", "x", HigherIsBetter, func(r RunResult) float64 { return r.Amplification }},
	{"latency_mean_us", "us", LowerIsBetter, func(r RunResult) float64 { return r.MeanUS }},
	{"latency_p50_us", "us", LowerIsBetter, func(r RunResult) float64 { return r.P50US }},
	{"latency_p95_us", "us", LowerIsBetter, func(r RunResult) float64 { return r.P95US }},
	{"latency_p99_us", "us", LowerIsBetter, func(r RunResult) float64 { return r.P99US }},
	{"latency_p999_us", "us", LowerIsBetter, func(r RunResult) float64 { return r.P999US }},
	{"latency_under_1ms_pct", "%", HigherIsBetter, func(r RunResult) float64 { return cumulativePct(r, 0) }},
	{"latency_under_10ms_pct", "%", HigherIsBetter, func(r RunResult) float64 { return cumulativePct(r, 1) }},
	{"latency_under_100ms_pct", "%", HigherIsBetter, func(r RunResult) float64 { return cumulativePct(r, 2) }},
	{"latency_under_1s_pct", "%", HigherIsBetter, func(r RunResult) float64 { return cumulativePct(r, 3) }},
	{"latency_under_10s_pct", "%", HigherIsBetter, func(r RunResult) float64 { return cumulativePct(r, 4) }},
}

// Ratios compares a reference run with the cachex run of the same repetition.
// Every ratio is reference ÷ cachex, so a larger value means cachex saves more.
type Ratios struct {
	// DBQueries compares database queries per second of the two runs.
	DBQueries float64 `json:"db_queries"`
	// DBPerRequest compares database queries per request served, which is
	// what "the same traffic" costs the database under each client.
	DBPerRequest float64 `json:"db_per_request"`
	// P99 compares the 99th-percentile latencies.
	P99 float64 `json:"p99"`
}

// safeDiv divides, treating a zero denominator as the smallest countable amount.
func safeDiv(a, b, floor float64) float64 {
	return a / math.Max(b, floor)
}

// Compare returns ref ÷ cx ratios.
func Compare(ref, cx RunResult) Ratios {
	perReq := func(r RunResult) float64 { return float64(r.DBQueries) / math.Max(float64(r.Requests), 1) }
	return Ratios{
		DBQueries:    safeDiv(ref.DBQPS, cx.DBQPS, 1/math.Max(cx.ElapsedS, 1e-9)),
		DBPerRequest: safeDiv(perReq(ref), perReq(cx), 1/math.Max(float64(cx.Requests), 1)),
		P99:          safeDiv(ref.P99US, cx.P99US, 0.001),
	}
}

// refPrefix names a reference in metric names.
var refPrefix = map[Variant]string{NoCache: "ref_nocache", NoSingleflight: "ref_nosf"}

// Metrics turns the runs of one scenario into metrics: cachex's own figures,
// then for each reference that ran as often as cachex its three ratios.
func Metrics(runs map[Variant][]RunResult) []Metric {
	cx := runs[Cachex]
	var out []Metric
	for _, d := range metricDefs {
		m := Metric{Name: d.name, Unit: d.unit, Direction: d.direction}
		for _, r := range cx {
			m.Samples = append(m.Samples, d.value(r))
		}
		out = append(out, m)
	}
	for _, v := range []Variant{NoCache, NoSingleflight} {
		refs := runs[v]
		if len(refs) == 0 || len(refs) != len(cx) {
			continue
		}
		q := Metric{Name: refPrefix[v] + "_db_queries_ratio", Unit: "x", Direction: HigherIsBetter}
		pr := Metric{Name: refPrefix[v] + "_db_per_request_ratio", Unit: "x", Direction: HigherIsBetter}
		p := Metric{Name: refPrefix[v] + "_p99_ratio", Unit: "x", Direction: HigherIsBetter}
		for i := range cx {
			r := Compare(refs[i], cx[i])
			q.Samples = append(q.Samples, r.DBQueries)
			pr.Samples = append(pr.Samples, r.DBPerRequest)
			p.Samples = append(p.Samples, r.P99)
		}
		out = append(out, q, pr, p)
	}
	return out
}
