package cachex_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/store"
)

// fakeClock is a manually advanced clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fakeUpstream answers from a map, counts calls and can hold calls at a gate.
type fakeUpstream struct {
	mu      sync.Mutex
	values  map[string]string
	calls   atomic.Int64
	active  atomic.Int64  // calls under way
	gate    chan struct{} // when non-nil, calls wait for it to close
	deaf    bool          // when true, calls held at the gate ignore cancellation
	entered chan struct{} // when non-nil, receives one token per call
}

func newFakeUpstream(kv ...string) *fakeUpstream {
	u := &fakeUpstream{values: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		u.values[kv[i]] = kv[i+1]
	}
	return u
}

func (u *fakeUpstream) put(key, value string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.values[key] = value
}

func (u *fakeUpstream) remove(key string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.values, key)
}

func (u *fakeUpstream) Get(ctx context.Context, key string) (string, error) {
	u.calls.Add(1)
	u.active.Add(1)
	defer u.active.Add(-1)
	if u.entered != nil {
		u.entered <- struct{}{}
	}
	if u.gate != nil {
		cancelled := ctx.Done()
		if u.deaf {
			cancelled = nil
		}
		select {
		case <-u.gate:
		case <-cancelled:
			return "", ctx.Err()
		}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	v, ok := u.values[key]
	if !ok {
		return "", cachex.ErrNotFound(key)
	}
	return v, nil
}

// missOnce wraps a cache so that the first Get of each key reports a miss,
// as if it had raced with the write of a flight that just finished.
type missOnce[T any] struct {
	cachex.Cache[T]
	mu   sync.Mutex
	seen map[string]bool
}

func newMissOnce[T any](c cachex.Cache[T]) *missOnce[T] {
	return &missOnce[T]{Cache: c, seen: map[string]bool{}}
}

func (m *missOnce[T]) Get(ctx context.Context, key string) (T, error) {
	m.mu.Lock()
	first := !m.seen[key]
	m.seen[key] = true
	m.mu.Unlock()
	if first {
		var zero T
		return zero, cachex.ErrNotFound(key)
	}
	return m.Cache.Get(ctx, key)
}

type fixture struct {
	clock    *fakeClock
	up       *fakeUpstream
	backend  *store.SyncMap[cachex.Entry[string]]
	notFound *store.SyncMap[time.Time]
	client   *cachex.Client[string]
}

const (
	freshTTL   = 10 * time.Second
	staleTTL   = time.Minute
	nfFreshTTL = 2 * time.Second
	nfStaleTTL = 5 * time.Second
)

// newFixture builds a client with TTLs, a not-found cache and a fake clock.
func newFixture(up *fakeUpstream, opts ...cachex.Option) *fixture {
	f := &fixture{
		clock:    newFakeClock(),
		up:       up,
		backend:  &store.SyncMap[cachex.Entry[string]]{},
		notFound: &store.SyncMap[time.Time]{},
	}
	base := []cachex.Option{
		cachex.WithClock(f.clock.Now),
		cachex.WithTTL(freshTTL, staleTTL),
		cachex.WithNotFound(f.notFound, nfFreshTTL, nfStaleTTL),
		cachex.WithFetchTimeout(5 * time.Second),
	}
	f.client = cachex.NewClient[string](f.backend, up, append(base, opts...)...)
	return f
}

func mustGet(t *testing.T, c *cachex.Client[string], key, want string) {
	t.Helper()
	got, err := c.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	if got != want {
		t.Fatalf("Get(%q) = %q, want %q", key, got, want)
	}
}

func mustNotFound(t *testing.T, c *cachex.Client[string], key string, cached bool, state cachex.State) {
	t.Helper()
	_, err := c.Get(context.Background(), key)
	nf, ok := cachex.AsNotFound(err)
	if !ok {
		t.Fatalf("Get(%q): got %v, want a not-found error", key, err)
	}
	if nf.Key != key || nf.Cached != cached || (cached && nf.State != state) {
		t.Fatalf("Get(%q): got %+v, want cached=%v state=%v", key, *nf, cached, state)
	}
}

func wantCalls(t *testing.T, up *fakeUpstream, want int64) {
	t.Helper()
	if got := up.calls.Load(); got != want {
		t.Fatalf("upstream calls = %d, want %d", got, want)
	}
}

// startGated makes the upstream hold every call until release is called.
func startGated(up *fakeUpstream) (release func()) {
	up.gate = make(chan struct{})
	var once sync.Once
	return func() { once.Do(func() { close(up.gate) }) }
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
