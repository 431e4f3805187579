package cachex

import "time"

// State says how usable a cached entry is at a given moment.
type State int

const (
	// Fresh entries are served without contacting the upstream.
	Fresh State = iota
	// Stale entries may be served while a refresh runs in the background.
	Stale
	// Rotten entries are never served; the caller waits for a fetch.
	Rotten
)

// String returns the lower-case name of the state.
func (s State) String() string {
	switch s {
	case Fresh:
		return "fresh"
	case Stale:
		return "stale"
	case Rotten:
		return "rotten"
	default:
		return "unknown"
	}
}

// StateFunc maps the time an entry was cached and the current time to a State.
type StateFunc func(cachedAt, now time.Time) State

// TTLState returns a StateFunc for which an entry is Fresh while younger than
// fresh, Stale for the following stale duration, and Rotten after that.
func TTLState(fresh, stale time.Duration) StateFunc {
	return func(cachedAt, now time.Time) State {
		age := now.Sub(cachedAt)
		switch {
		case age < fresh:
			return Fresh
		case age < fresh+stale:
			return Stale
		default:
			return Rotten
		}
	}
}

// alwaysFresh is the default StateFunc: entries never expire.
func alwaysFresh(time.Time, time.Time) State { return Fresh }

// Entry is a cached value together with the time it was cached.
type Entry[T any] struct {
	// Data is the value the upstream returned.
	Data T `json:"data"`
	// CachedAt is when the value was fetched from the upstream.
	CachedAt time.Time `json:"cachedAt"`
}
