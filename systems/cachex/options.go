package cachex

import (
	"log/slog"
	"time"
)

// DoubleCheck selects whether a flight re-reads the caches before it calls the upstream.
type DoubleCheck int

const (
	// DoubleCheckAuto turns double-check on exactly when a not-found cache is configured.
	DoubleCheckAuto DoubleCheck = iota
	// DoubleCheckDisabled never re-reads the caches inside a flight.
	DoubleCheckDisabled
	// DoubleCheckEnabled always re-reads the caches inside a flight.
	DoubleCheckEnabled
)

// DefaultFetchTimeout bounds an upstream call when WithFetchTimeout is not given.
const DefaultFetchTimeout = 60 * time.Second

// Option configures a Client.
type Option func(*config)

type config struct {
	state        StateFunc
	notFound     any // Cache[time.Time]; kept untyped so Option needs no type parameter
	nfState      StateFunc
	serveStale   bool
	fetchTimeout time.Duration
	concurrency  int
	singleflight bool
	doubleCheck  DoubleCheck
	now          func() time.Time
	logger       *slog.Logger
}

func defaultConfig() config {
	return config{
		state:        alwaysFresh,
		nfState:      alwaysFresh,
		serveStale:   true,
		fetchTimeout: DefaultFetchTimeout,
		concurrency:  1,
		singleflight: true,
		doubleCheck:  DoubleCheckAuto,
		now:          time.Now,
		logger:       slog.New(slog.DiscardHandler),
	}
}

// WithState sets how entry age maps to a State (default: always Fresh).
func WithState(fn StateFunc) Option { return func(c *config) { c.state = fn } }

// WithTTL is WithState(TTLState(fresh, stale)).
func WithTTL(fresh, stale time.Duration) Option { return WithState(TTLState(fresh, stale)) }

// WithNotFound caches upstream "not found" answers in cache, as the time they
// were observed, aged by TTLState(fresh, stale).
func WithNotFound(cache Cache[time.Time], fresh, stale time.Duration) Option {
	return func(c *config) {
		c.notFound = cache
		c.nfState = TTLState(fresh, stale)
	}
}

// WithServeStale sets whether stale entries are served while a background
// refresh runs (default true). When false, a stale entry is fetched like a rotten one.
func WithServeStale(on bool) Option { return func(c *config) { c.serveStale = on } }

// WithFetchTimeout bounds each upstream call (default DefaultFetchTimeout).
func WithFetchTimeout(d time.Duration) Option { return func(c *config) { c.fetchTimeout = d } }

// WithFetchConcurrency spreads the callers of one key over n flights (default
// 1: one upstream call per key at a time). Values below 1 are treated as 1.
func WithFetchConcurrency(n int) Option {
	return func(c *config) { c.concurrency = max(n, 1) }
}

// WithSingleflight sets whether misses share flights (default true). Turning it
// off gives a naive cache-aside client in which every miss calls the upstream
// under the caller's own context; it exists as a baseline for benchmarks.
func WithSingleflight(on bool) Option { return func(c *config) { c.singleflight = on } }

// WithDoubleCheck sets the double-check mode (default DoubleCheckAuto).
func WithDoubleCheck(mode DoubleCheck) Option { return func(c *config) { c.doubleCheck = mode } }

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithLogger receives failures that do not reach a caller (cache writes,
// background refreshes). The default discards them.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }
