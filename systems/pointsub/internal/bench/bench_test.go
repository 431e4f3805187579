package bench

import (
	"context"
	"testing"
	"time"

	"benchdash.dev/pointsub/netsim"
)

func run(t *testing.T, s Scenario, nw Network, mode Mode, d time.Duration) Sample {
	t.Helper()
	out, err := Run(context.Background(), Config{Scenario: s, Network: nw, Mode: mode,
		Duration: d, Drain: 3 * time.Second, Retries: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if out.Acked+out.Failed != out.Sent {
		t.Fatalf("%s over %s: %d acked + %d failed != %d sent", s.Name, nw, out.Acked, out.Failed, out.Sent)
	}
	if int64(len(out.Latencies)) != out.Acked {
		t.Fatalf("%d latencies for %d acks", len(out.Latencies), out.Acked)
	}
	return out
}

func TestSaturateOverBothNetworks(t *testing.T) {
	s := Scenario{Name: "throughput/test", MessageSize: 20 << 10, BufferSize: 64 << 10, Conns: 3}
	for _, nw := range []Network{Libp2p, TCP} {
		out := run(t, s, nw, Saturate, 300*time.Millisecond)
		if out.Acked < 10 || out.Failed != 0 || out.AckedBytes != out.Acked*int64(s.MessageSize) {
			t.Fatalf("%s: %+v", nw, out)
		}
		if out.PeakHeap == 0 || out.Elapsed < 300*time.Millisecond {
			t.Fatalf("%s: heap %d, elapsed %v", nw, out.PeakHeap, out.Elapsed)
		}
	}
}

func TestPacedSendsTheSeedsCount(t *testing.T) {
	s := Scenario{Name: "throughput/paced", MessageSize: 1 << 10, MessageCount: 20, BufferSize: 8 << 10, Conns: 2}
	out := run(t, s, TCP, Paced, 500*time.Millisecond)
	if out.Sent < 10 || out.Sent > 20 || out.Failed != 0 {
		t.Fatalf("paced 20 messages over 0.5 s: sent %d, failed %d", out.Sent, out.Failed)
	}
	if out.Elapsed < 500*time.Millisecond {
		t.Fatalf("paced run ended after %v", out.Elapsed)
	}
}

func TestLatencyConditionShowsInRoundTrips(t *testing.T) {
	cond := netsim.Condition{Name: "delay-30ms", LatencyMin: 30 * time.Millisecond, LatencyMax: 30 * time.Millisecond}
	s := Scenario{Name: "network/test", MessageSize: 4 << 10, BufferSize: 64 << 10, Conns: 1, Condition: &cond}
	out := run(t, s, Libp2p, Saturate, 300*time.Millisecond)
	if out.Acked == 0 || out.Failed != 0 {
		t.Fatalf("%+v", out)
	}
	for _, l := range out.Latencies {
		if l < 60*time.Millisecond {
			t.Fatalf("round trip %v under the 2 x 30 ms the condition adds", l)
		}
	}
}

func TestCorruptionIsCaughtAndResent(t *testing.T) {
	cond := netsim.Condition{Name: "bitrot", Corruption: 0.05}
	s := Scenario{Name: "network/bitrot", MessageSize: 16 << 10, BufferSize: 64 << 10, Conns: 1, Condition: &cond}
	out := run(t, s, TCP, Saturate, 500*time.Millisecond)
	if out.Sim.Corrupted == 0 || out.Checksum+out.Desync == 0 || out.Retried == 0 {
		t.Fatalf("corruption went unnoticed: %+v", out.Sim)
	}
	if out.Acked == 0 {
		t.Fatal("nothing got through")
	}
}

func TestSummarizeNamesAndRatio(t *testing.T) {
	s, err := Find("throughput/1kb")
	if err != nil {
		t.Fatal(err)
	}
	a := Sample{Acked: 10, Sent: 10, AckedBytes: 10 << 20, Elapsed: time.Second, Latencies: []time.Duration{time.Millisecond}}
	b := a
	b.Elapsed = 2 * time.Second
	res := Summarize(s, Saturate, time.Second, []Sample{a}, []Sample{b})
	if len(res) != 2 || res[1].Benchmark != "tcp_reference" || res[1].Parameters["scenario"] != s.Name {
		t.Fatalf("%+v", res)
	}
	names := map[string]float64{}
	for _, m := range res[0].Metrics {
		names[m.Name] = m.Samples[0]
	}
	if names["throughput"] != 10 || names["tcp_ratio"] != 2 || names["success_pct"] != 100 || names["latency_p99_us"] != 1000 {
		t.Fatalf("%v", names)
	}
	if _, err := Find("nope"); err == nil {
		t.Fatal("unknown scenario found")
	}
	if len(Scenarios) != 13 {
		t.Fatal("the seed has thirteen scenarios")
	}
}
