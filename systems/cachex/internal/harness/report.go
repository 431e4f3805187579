package harness

import (
	"fmt"
	"io"
	"strings"
)

// Print writes a readable block for one scenario: the configuration, the
// cachex repetition with the median QPS in full, and the references.
func Print(w io.Writer, s Scenario, res ScenarioResult, o Options) {
	cx := res.Runs[Cachex]
	if len(cx) == 0 {
		return
	}
	k := medianIndex(cx)
	r := cx[k]
	loop := "closed loop"
	if o.ThinkTime > 0 {
		loop = fmt.Sprintf("paced, %v think time", o.ThinkTime)
	}
	fmt.Fprintf(w, "\n========== Scenario: %s ==========\n", s.Name)
	fmt.Fprintf(w, "Configuration:\n")
	row := func(label string, format string, args ...any) {
		fmt.Fprintf(w, "  %-21s"+format+"\n", append([]any{label + ":"}, args...)...)
	}
	row("DB pool", "%d connections", s.Pool)
	row("DB latency", "%v", s.Latency)
	row("Fetch timeout", "%v", s.FetchTimeout)
	row("Fresh / stale TTL", "%v / %v", s.FreshTTL, s.StaleTTL)
	row("Not-found TTLs", "%v / %v", s.NFFreshTTL, s.NFStaleTTL)
	row("Workers", "%d (%s)", r.Workers, loop)
	row("Duration", "%v x %d repetitions, cold start", o.Profile.Duration, len(cx))
	fmt.Fprintf(w, "Results (repetition %d of %d, the median by QPS):\n", k+1, len(cx))
	row("Total requests", "%d", r.Requests)
	row("Success", "%d (%.1f%%)", r.Successes, pct(r.Successes, r.Requests))
	row("Not found", "%d (%.1f%%)", r.NotFound, pct(r.NotFound, r.Requests))
	row("Errors", "%d (%.1f%%)", r.Errors, pct(r.Errors, r.Requests))
	row("QPS", "%.0f req/s", r.QPS)
	row("QPS per repetition", "%s", joinRuns(cx, func(r RunResult) string { return fmt.Sprintf("%.0f", r.QPS) }))
	fmt.Fprintf(w, "Cache performance:\n")
	row("Hit rate", "%.2f%%", r.HitRatePct)
	row("DB queries", "%d (%.2f%% of requests)", r.DBQueries, pct(r.DBQueries, r.Requests))
	row("DB QPS", "%.1f queries/s", r.DBQPS)
	row("DB rejections", "%d", r.DBRejections)
	row("DB utilisation", "%.1f%% of capacity", r.DBUtilPct)
	row("Amplification", "%.1fx", r.Amplification)
	fmt.Fprintf(w, "Latency (every request, HDR histogram):\n")
	row("P50 / P95 / P99", "%v / %v / %v", usDuration(r.P50US), usDuration(r.P95US), usDuration(r.P99US))
	row("P99.9 / max", "%v / %v", usDuration(r.P999US), usDuration(r.MaxUS))
	fmt.Fprintf(w, "Latency distribution (cumulative):\n")
	for i, label := range BucketLabels {
		p := cumulativePct(r, i)
		fmt.Fprintf(w, "  <%-8s %6.1f%%  %s\n", label, p, strings.Repeat("█", int(p/2)))
	}
	printReferences(w, res)
	fmt.Fprintln(w, strings.Repeat("=", 42))
}

func joinRuns(runs []RunResult, f func(RunResult) string) string {
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = f(r)
	}
	return strings.Join(parts, ", ")
}

// printReferences compares the references with cachex, with the median run of each client.
func printReferences(w io.Writer, res ScenarioResult) {
	if len(res.Runs[NoCache]) == 0 && len(res.Runs[NoSingleflight]) == 0 {
		return
	}
	fmt.Fprintf(w, "References (same traffic, same pool; medians over repetitions):\n")
	fmt.Fprintf(w, "  %-16s %10s %10s %9s %11s %8s\n", "client", "req/s", "DB q/s", "DB q/req", "P99", "errors")
	for _, v := range Variants {
		runs := res.Runs[v]
		if len(runs) == 0 {
			continue
		}
		r := runs[medianIndex(runs)]
		perReq := float64(r.DBQueries) / float64(max(r.Requests, 1))
		fmt.Fprintf(w, "  %-16s %10.0f %10.1f %9.5f %11v %8d\n", v, r.QPS, r.DBQPS, perReq, usDuration(r.P99US), r.Errors)
	}
	for _, m := range res.Metrics {
		if strings.HasPrefix(m.Name, "ref_") {
			fmt.Fprintf(w, "  %-32s median %10.1fx  (%s)\n", m.Name, median(m.Samples), joinFloats(m.Samples))
		}
	}
}

func joinFloats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.1f", x)
	}
	return strings.Join(parts, ", ")
}

// median returns the median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	for i := 1; i < len(s); i++ { // insertion sort: a handful of samples
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
