package cachex

import (
	"testing"
	"time"
)

func TestTTLState(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fn := TTLState(time.Second, 10*time.Second)
	cases := []struct {
		age  time.Duration
		want State
	}{
		{0, Fresh},
		{999 * time.Millisecond, Fresh},
		{time.Second, Stale},
		{10 * time.Second, Stale},
		{11*time.Second - time.Nanosecond, Stale},
		{11 * time.Second, Rotten},
		{time.Hour, Rotten},
	}
	for _, tc := range cases {
		if got := fn(at, at.Add(tc.age)); got != tc.want {
			t.Errorf("age %v: got %v, want %v", tc.age, got, tc.want)
		}
	}
}

func TestTTLStateWithoutStaleWindow(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fn := TTLState(time.Second, 0)
	if got := fn(at, at.Add(time.Second)); got != Rotten {
		t.Fatalf("got %v, want rotten", got)
	}
}

func TestStateString(t *testing.T) {
	for s, want := range map[State]string{Fresh: "fresh", Stale: "stale", Rotten: "rotten", State(9): "unknown"} {
		if s.String() != want {
			t.Errorf("%d: got %q, want %q", int(s), s.String(), want)
		}
	}
}
