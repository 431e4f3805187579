package netsim

import (
	"fmt"
	"slices"
	"time"
)

// Condition describes one direction of a network link.
type Condition struct {
	Name       string
	LatencyMin time.Duration // one-way latency, lower bound
	LatencyMax time.Duration // one-way latency, upper bound
	Jitter     time.Duration // extra random delay in [0, Jitter]
	Loss       float64       // probability that a segment is lost (and retransmitted), 0..1
	Corruption float64       // probability that a segment gets a flipped bit, 0..1
	Bandwidth  int64         // bytes per second; 0 is unlimited
}

const (
	kib = 1 << 10
	mib = 1 << 20
	ms  = time.Millisecond
)

// The seed report's presets (one direction each).
var presets = []Condition{
	{Name: "local", LatencyMin: 1 * ms, LatencyMax: 5 * ms, Jitter: 1 * ms, Bandwidth: 100 * mib},
	{Name: "low-latency-wan", LatencyMin: 10 * ms, LatencyMax: 50 * ms, Jitter: 10 * ms,
		Loss: 0.001, Corruption: 0.0001, Bandwidth: 10 * mib},
	{Name: "high-latency-wan", LatencyMin: 200 * ms, LatencyMax: 500 * ms, Jitter: 50 * ms,
		Loss: 0.01, Corruption: 0.001, Bandwidth: 1 * mib},
	{Name: "unstable", LatencyMin: 50 * ms, LatencyMax: 300 * ms, Jitter: 100 * ms,
		Loss: 0.05, Corruption: 0.01, Bandwidth: 512 * kib},
	{Name: "extreme", LatencyMin: 300 * ms, LatencyMax: 1000 * ms, Jitter: 200 * ms,
		Loss: 0.20, Corruption: 0.05, Bandwidth: 128 * kib},
	{Name: "simulated-delay", LatencyMin: 50 * ms, LatencyMax: 150 * ms, Jitter: 30 * ms,
		Bandwidth: 10 * mib},
	{Name: "simulated-loss", LatencyMin: 10 * ms, LatencyMax: 50 * ms, Jitter: 10 * ms,
		Loss: 0.05, Corruption: 0.01, Bandwidth: 5 * mib},
}

// Presets returns the seed's presets.
func Presets() []Condition { return slices.Clone(presets) }

// Preset returns the preset called name.
func Preset(name string) (Condition, error) {
	for _, c := range presets {
		if c.Name == name {
			return c, nil
		}
	}
	names := make([]string, len(presets))
	for i, c := range presets {
		names[i] = c.Name
	}
	return Condition{}, fmt.Errorf("netsim: no preset %q (known: %v)", name, names)
}

// Validate reports the first field out of range.
func (c Condition) Validate() error {
	switch {
	case c.LatencyMin < 0 || c.Jitter < 0:
		return fmt.Errorf("netsim: %s: negative latency or jitter", c.Name)
	case c.LatencyMax < c.LatencyMin:
		return fmt.Errorf("netsim: %s: latency max %v below min %v", c.Name, c.LatencyMax, c.LatencyMin)
	case c.Loss < 0 || c.Loss >= 1:
		return fmt.Errorf("netsim: %s: loss %v outside [0, 1)", c.Name, c.Loss)
	case c.Corruption < 0 || c.Corruption > 1:
		return fmt.Errorf("netsim: %s: corruption %v outside [0, 1]", c.Name, c.Corruption)
	case c.Bandwidth < 0:
		return fmt.Errorf("netsim: %s: negative bandwidth", c.Name)
	}
	return nil
}

// QueueLimit is how many bytes may be in flight before Write blocks: a second of bandwidth,
// at least 256 KiB, at most 4 MiB (4 MiB when the bandwidth is unlimited).
func (c Condition) QueueLimit() int {
	if c.Bandwidth == 0 {
		return 4 * mib
	}
	return int(min(max(c.Bandwidth, 256*kib), 4*mib))
}
