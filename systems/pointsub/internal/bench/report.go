package bench

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// Line is a one-line account of one run, for the log.
func Line(s Sample) string {
	mbs, _ := metricDefs[0].value(s)
	p50, _ := latency(0.5)(s)
	p99, _ := latency(0.99)(s)
	line := fmt.Sprintf("%.2f MiB/s, %d acked, %d failed, %d resent, p50 %s, p99 %s, heap %.1f MiB, %s",
		mbs, s.Acked, s.Failed, s.Retried, us(p50), us(p99), float64(s.PeakHeap)/mib, s.Elapsed.Round(time.Millisecond))
	if s.Sim.Segments > 0 {
		line += fmt.Sprintf(", sim: %d/%d segments lost, %d corrupted, %d checksum failures, %d reconnects",
			s.Sim.Lost, s.Sim.Segments, s.Sim.Corrupted, s.Checksum, s.Reconnects)
	}
	return line
}

// us formats microseconds the way the seed formats durations.
func us(v float64) string {
	d := time.Duration(v * float64(time.Microsecond))
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f µs", v)
	case d < time.Second:
		return fmt.Sprintf("%.2f ms", v/1e3)
	}
	return fmt.Sprintf("%.2f s", v/1e6)
}

func size(n int) string {
	if n < kib {
		return fmt.Sprintf("%d B", n)
	}
	v, units := float64(n)/kib, "KMG"
	i := 0
	for v >= kib && i < len(units)-1 {
		v /= kib
		i++
	}
	return fmt.Sprintf("%.1f %cB", v, units[i])
}

func median(m Metric) float64 {
	s := slices.Clone(m.Samples)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// PrintSummary writes the seed's per-test block with medians over the repetitions.
func PrintSummary(w io.Writer, s Scenario, results []Result) {
	get := func(r Result, name string) (float64, bool) {
		for _, m := range r.Metrics {
			if m.Name == name {
				return median(m), true
			}
		}
		return 0, false
	}
	fmt.Fprintf(w, "--- %s 测试结果 (%s, median of repetitions) ---\n", s.Title, s.Name)
	fmt.Fprintf(w, "消息大小: %s, 并发连接: %d, 缓冲区: %s\n", size(s.MessageSize), s.Conns, size(min(s.BufferSize, 2*mib)))
	for _, r := range results {
		label := "libp2p"
		if r.Benchmark == "tcp_reference" {
			label = "loopback TCP (reference)"
		}
		mbs, _ := get(r, "throughput")
		rate, _ := get(r, "messages_per_second")
		fmt.Fprintf(w, "  %s: 吞吐量 %.2f MB/s, 消息速率 %.2f msgs/s", label, mbs, rate)
		for _, q := range []string{"avg", "p50", "p90", "p99", "max"} {
			if v, ok := get(r, "latency_"+q+"_us"); ok {
				fmt.Fprintf(w, ", %s %s", q, us(v))
			}
		}
		errs, _ := get(r, "errors")
		ok, _ := get(r, "success_pct")
		mem, _ := get(r, "memory_mb")
		fmt.Fprintf(w, ", 错误数 %.0f, 成功率 %.2f%%, 内存 %.2f MB\n", errs, ok, mem)
		if ratio, ok := get(r, "tcp_ratio"); ok {
			fmt.Fprintf(w, "  libp2p / TCP throughput: %.3fx\n", ratio)
		}
		if loss, ok := get(r, "sim_loss_pct"); ok {
			corrupt, _ := get(r, "sim_corrupt_pct")
			fmt.Fprintf(w, "  simulated network: %.2f %% of segments lost and retransmitted, %.2f %% corrupted\n", loss, corrupt)
		}
	}
}
