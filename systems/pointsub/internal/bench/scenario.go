package bench

import (
	"fmt"
	"time"

	"benchdash.dev/pointsub/netsim"
)

// Scenario is one row of the seed report's tables.
type Scenario struct {
	Name         string // group/variant, the benchmark's name in results
	Title        string // the seed report's name for it
	MessageSize  int
	MessageCount int // messages per run in paced mode (the seed's count)
	BufferSize   int // read/write buffer of both ends (capped at 2 MiB)
	Conns        int
	Duration     time.Duration // the seed's duration (the full profile)
	Condition    *netsim.Condition
}

// Group returns the part of the name before the slash.
func (s Scenario) Group() string {
	for i := range len(s.Name) {
		if s.Name[i] == '/' {
			return s.Name[:i]
		}
	}
	return s.Name
}

// Protocol returns the libp2p protocol ID of the scenario's group, as in the seed.
func (s Scenario) Protocol() string { return "/pointsub/perf/" + s.Group() + "/1.0.0" }

const (
	kib = 1 << 10
	mib = 1 << 20
	sec = time.Second
)

func preset(name string) *netsim.Condition {
	c, err := netsim.Preset(name)
	if err != nil {
		panic(err)
	}
	return &c
}

// Scenarios are the seed report's thirteen scenarios in its order.
var Scenarios = []Scenario{
	{"throughput/1kb", "小消息吞吐量(1KB)", 1 * kib, 10000, 64 * kib, 1, 10 * sec, nil},
	{"throughput/100kb", "中型消息吞吐量(100KB)", 100 * kib, 1000, 256 * kib, 1, 10 * sec, nil},
	{"throughput/1mb", "大型消息吞吐量(1MB)", 1 * mib, 100, 2 * mib, 1, 10 * sec, nil},
	{"throughput/10mb", "超大消息吞吐量(10MB)", 10 * mib, 10, 2 * mib, 1, 20 * sec, nil},
	{"concurrent/5", "低并发(5连接)", 100 * kib, 1000, 256 * kib, 5, 10 * sec, nil},
	{"concurrent/20", "中并发(20连接)", 10 * kib, 10000, 64 * kib, 20, 10 * sec, nil},
	{"concurrent/50", "高并发(50连接)", 1 * kib, 50000, 32 * kib, 50, 10 * sec, nil},
	{"buffer/4kb", "小缓冲区(4KB)", 1 * mib, 10, 4 * kib, 1, 10 * sec, nil},
	{"buffer/64kb", "中缓冲区(64KB)", 1 * mib, 10, 64 * kib, 1, 10 * sec, nil},
	{"buffer/1mb", "大缓冲区(1MB)", 1 * mib, 10, 1 * mib, 1, 10 * sec, nil},
	{"network/delay-100ms", "延迟网络(100ms)", 100 * kib, 500, 256 * kib, 1, 15 * sec,
		&netsim.Condition{Name: "delay-100ms", LatencyMin: 100 * time.Millisecond, LatencyMax: 100 * time.Millisecond}},
	{"network/loss-5pct", "不稳定网络(5%丢包)", 100 * kib, 500, 256 * kib, 1, 15 * sec, preset("unstable")},
	{"network/extreme", "极端网络条件", 10 * kib, 1000, 128 * kib, 1, 20 * sec, preset("extreme")},
}

// Find returns the scenario called name.
func Find(name string) (Scenario, error) {
	for _, s := range Scenarios {
		if s.Name == name {
			return s, nil
		}
	}
	return Scenario{}, fmt.Errorf("unknown scenario %q", name)
}

// Profile sets how long and how often scenarios run.
type Profile struct {
	Name     string
	Duration time.Duration // 0: the seed's duration
	Drain    time.Duration // how long unacknowledged messages may still be acknowledged
	Reps     int
}

// Profiles are quick (CI), standard and full (the seed's durations).
var Profiles = map[string]Profile{
	"quick":    {Name: "quick", Duration: 2 * sec, Drain: 4 * sec, Reps: 3},
	"standard": {Name: "standard", Duration: 5 * sec, Drain: 8 * sec, Reps: 5},
	"full":     {Name: "full", Drain: 10 * sec, Reps: 3},
}

// DurationOf returns the scenario's duration under the profile.
func (p Profile) DurationOf(s Scenario) time.Duration {
	if p.Duration > 0 {
		return p.Duration
	}
	return s.Duration
}

// Mode is how messages are offered.
type Mode string

// The two modes.
const (
	Saturate Mode = "saturate"
	Paced    Mode = "paced"
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case Saturate, Paced:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown mode %q (saturate or paced)", s)
}

// Window returns the number of unacknowledged messages a connection may have: 16, or 4
// over a simulated network, where a deeper queue only adds seconds of waiting.
func (s Scenario) Window() int {
	if s.Condition != nil {
		return 4
	}
	return 16
}
