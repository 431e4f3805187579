package cachex_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/store"
)

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

func TestEntryLifecycle(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"))

	mustGet(t, f.client, "k", "v1") // miss -> fetch
	wantCalls(t, f.up, 1)

	f.clock.Advance(freshTTL - time.Millisecond) // still fresh
	mustGet(t, f.client, "k", "v1")
	wantCalls(t, f.up, 1)

	f.up.put("k", "v2")
	f.clock.Advance(time.Millisecond) // stale: served at once, refreshed behind
	mustGet(t, f.client, "k", "v1")
	f.client.Wait()
	wantCalls(t, f.up, 2)
	mustGet(t, f.client, "k", "v2") // the refresh made it fresh again
	wantCalls(t, f.up, 2)

	f.up.put("k", "v3")
	f.clock.Advance(freshTTL + staleTTL) // rotten: the caller waits for the fetch
	mustGet(t, f.client, "k", "v3")
	wantCalls(t, f.up, 3)
}

func TestStaleWithoutServeStaleFetches(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"), cachex.WithServeStale(false))
	mustGet(t, f.client, "k", "v1")
	f.up.put("k", "v2")
	f.clock.Advance(freshTTL)
	mustGet(t, f.client, "k", "v2")
	wantCalls(t, f.up, 2)
}

func TestDefaultStateNeverExpires(t *testing.T) {
	up := newFakeUpstream("k", "v1")
	clock := newFakeClock()
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up, cachex.WithClock(clock.Now))
	mustGet(t, c, "k", "v1")
	clock.Advance(1000 * time.Hour)
	mustGet(t, c, "k", "v1")
	wantCalls(t, up, 1)
}

func TestNotFoundLifecycle(t *testing.T) {
	f := newFixture(newFakeUpstream())

	mustNotFound(t, f.client, "x", false, 0) // upstream says not found
	wantCalls(t, f.up, 1)

	f.clock.Advance(nfFreshTTL - time.Millisecond)
	mustNotFound(t, f.client, "x", true, cachex.Fresh)
	wantCalls(t, f.up, 1)

	f.clock.Advance(time.Millisecond)
	mustNotFound(t, f.client, "x", true, cachex.Stale)
	f.client.Wait()
	wantCalls(t, f.up, 2) // one background refresh
	mustNotFound(t, f.client, "x", true, cachex.Fresh)

	f.up.put("x", "born")
	f.clock.Advance(nfFreshTTL + nfStaleTTL) // rotten marker: fetch again
	mustGet(t, f.client, "x", "born")
	wantCalls(t, f.up, 3)
	if _, err := f.notFound.Get(context.Background(), "x"); !cachex.IsNotFound(err) {
		t.Fatalf("not-found marker survived a successful fetch: %v", err)
	}
}

func TestNotFoundDeletesCachedValue(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"), cachex.WithServeStale(false))
	mustGet(t, f.client, "k", "v1")
	f.up.remove("k")
	f.clock.Advance(freshTTL)
	mustNotFound(t, f.client, "k", false, 0)
	if _, err := f.backend.Get(context.Background(), "k"); !cachex.IsNotFound(err) {
		t.Fatalf("backend still holds a key the upstream lost: %v", err)
	}
	mustNotFound(t, f.client, "k", true, cachex.Fresh)
	wantCalls(t, f.up, 2)
}

func TestWithoutNotFoundCacheEveryLookupCallsUpstream(t *testing.T) {
	up := newFakeUpstream()
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up)
	for range 3 {
		mustNotFound(t, c, "x", false, 0)
	}
	wantCalls(t, up, 3)
}

// startGated makes the upstream hold every call until release is called.
func startGated(up *fakeUpstream) (release func()) {
	up.gate = make(chan struct{})
	var once sync.Once
	return func() { once.Do(func() { close(up.gate) }) }
}

func TestThousandCallersOnColdKeyCallUpstreamOnce(t *testing.T) {
	f := newFixture(newFakeUpstream("hot", "v"))
	release := startGated(f.up)
	defer release()

	const callers = 1000
	var started, done sync.WaitGroup
	errs := make(chan error, callers)
	started.Add(callers)
	done.Add(callers)
	for range callers {
		go func() {
			defer done.Done()
			started.Done()
			v, err := f.client.Get(context.Background(), "hot")
			if err == nil && v != "v" {
				err = errors.New("wrong value " + v)
			}
			errs <- err
		}()
	}
	started.Wait()
	time.Sleep(20 * time.Millisecond) // let most callers join the flight; correctness does not depend on it
	release()
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	wantCalls(t, f.up, 1)
}

func TestFetchConcurrencySpreadsCallers(t *testing.T) {
	const n = 4
	f := newFixture(newFakeUpstream("hot", "v"), cachex.WithFetchConcurrency(n))
	release := startGated(f.up)
	var wg sync.WaitGroup
	for range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.client.Get(context.Background(), "hot"); err != nil {
				t.Error(err)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond)
	release()
	wg.Wait()
	if got := f.up.calls.Load(); got < 1 || got > n {
		t.Fatalf("upstream calls = %d, want between 1 and %d", got, n)
	}
}

func TestStaleEntryRefreshesOnce(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"))
	mustGet(t, f.client, "k", "v1")
	f.up.put("k", "v2")
	f.clock.Advance(freshTTL)

	release := startGated(f.up) // hold the refresh while callers pile up
	var wg sync.WaitGroup
	for range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := f.client.Get(context.Background(), "k")
			if err != nil || v != "v1" {
				t.Errorf("stale read: %q, %v", v, err)
			}
		}()
	}
	wg.Wait() // every stale read returned while the refresh was still held
	release()
	f.client.Wait()
	wantCalls(t, f.up, 2)
	mustGet(t, f.client, "k", "v2")
}

func TestFetchTimeout(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v"), cachex.WithFetchTimeout(20*time.Millisecond))
	release := startGated(f.up)
	defer release()
	_, err := f.client.Get(context.Background(), "k")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a deadline error", err)
	}
	if _, err := f.backend.Get(context.Background(), "k"); !cachex.IsNotFound(err) {
		t.Fatal("a timed-out fetch wrote to the cache")
	}
}

func TestCallerCancelDoesNotCancelFetch(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v"))
	f.up.entered = make(chan struct{}, 1)
	release := startGated(f.up)

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := f.client.Get(ctx, "k")
		errc <- err
	}()
	<-f.up.entered // the flight reached the upstream
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("caller got %v, want context.Canceled", err)
	}
	release() // the detached fetch goes on and fills the cache
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := f.backend.Get(context.Background(), "k"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the abandoned fetch never filled the cache")
		}
		time.Sleep(time.Millisecond)
	}
	f.up.entered = nil
	mustGet(t, f.client, "k", "v")
	wantCalls(t, f.up, 1)
}

func TestDoubleCheck(t *testing.T) {
	cases := []struct {
		name      string
		mode      cachex.DoubleCheck
		notFound  bool
		wantOn    bool
		wantCalls int64
	}{
		{"enabled", cachex.DoubleCheckEnabled, false, true, 0},
		{"disabled", cachex.DoubleCheckDisabled, true, false, 1},
		{"auto with not-found cache", cachex.DoubleCheckAuto, true, true, 0},
		{"auto without not-found cache", cachex.DoubleCheckAuto, false, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			up := newFakeUpstream("k", "upstream")
			clock := newFakeClock()
			inner := &store.SyncMap[cachex.Entry[string]]{}
			// A fresh entry is present, but the caller's first read misses it,
			// as when it raced with the write of a flight that just ended.
			_ = inner.Set(context.Background(), "k", cachex.Entry[string]{Data: "cached", CachedAt: clock.Now()})
			opts := []cachex.Option{cachex.WithClock(clock.Now), cachex.WithTTL(time.Minute, time.Minute), cachex.WithDoubleCheck(tc.mode)}
			if tc.notFound {
				opts = append(opts, cachex.WithNotFound(&store.SyncMap[time.Time]{}, time.Minute, time.Minute))
			}
			c := cachex.NewClient[string](newMissOnce[cachex.Entry[string]](inner), up, opts...)
			if c.DoubleCheck() != tc.wantOn {
				t.Fatalf("DoubleCheck() = %v, want %v", c.DoubleCheck(), tc.wantOn)
			}
			want := "cached"
			if !tc.wantOn {
				want = "upstream"
			}
			mustGet(t, c, "k", want)
			wantCalls(t, up, tc.wantCalls)
		})
	}
}

func TestDoubleCheckFindsNotFoundMarker(t *testing.T) {
	up := newFakeUpstream()
	clock := newFakeClock()
	nf := &store.SyncMap[time.Time]{}
	_ = nf.Set(context.Background(), "gone", clock.Now())
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up,
		cachex.WithClock(clock.Now),
		cachex.WithNotFound(newMissOnce[time.Time](nf), time.Minute, time.Minute))
	mustNotFound(t, c, "gone", true, cachex.Fresh)
	wantCalls(t, up, 0)
}

func TestPanicBecomesError(t *testing.T) {
	up := cachex.UpstreamFunc[string](func(context.Context, string) (string, error) { panic("boom") })
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up)
	_, err := c.Get(context.Background(), "k")
	var pe *cachex.PanicError
	if !errors.As(err, &pe) || pe.Value != "boom" || pe.Key != "k" || len(pe.Stack) == 0 {
		t.Fatalf("got %v, want a PanicError carrying the value and stack", err)
	}
}

func TestUpstreamErrorIsNotCached(t *testing.T) {
	fail := errors.New("db down")
	var calls int
	up := cachex.UpstreamFunc[string](func(context.Context, string) (string, error) {
		calls++
		return "", fail
	})
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up,
		cachex.WithNotFound(&store.SyncMap[time.Time]{}, time.Minute, time.Minute))
	for range 2 {
		if _, err := c.Get(context.Background(), "k"); !errors.Is(err, fail) {
			t.Fatalf("got %v, want %v", err, fail)
		}
	}
	if calls != 2 {
		t.Fatalf("upstream calls = %d, want 2", calls)
	}
}

func TestSetAndDel(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "upstream"))
	mustNotFound(t, f.client, "new", false, 0)
	if err := f.client.Set(context.Background(), "new", "set"); err != nil {
		t.Fatal(err)
	}
	mustGet(t, f.client, "new", "set") // Set cleared the not-found marker
	if err := f.client.Del(context.Background(), "new"); err != nil {
		t.Fatal(err)
	}
	mustNotFound(t, f.client, "new", false, 0)
	wantCalls(t, f.up, 2)
}

func TestWithoutSingleflightEveryMissCallsUpstream(t *testing.T) {
	const callers = 8
	up := newFakeUpstream("k", "v")
	up.entered = make(chan struct{}, callers)
	release := startGated(up)
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up, cachex.WithSingleflight(false))
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Get(context.Background(), "k"); err != nil {
				t.Error(err)
			}
		}()
	}
	timeout := time.After(10 * time.Second)
	for i := range callers { // every caller reaches the upstream on its own
		select {
		case <-up.entered:
		case <-timeout:
			release()
			t.Fatalf("only %d of %d callers reached the upstream", i, callers)
		}
	}
	release()
	wg.Wait()
	wantCalls(t, up, callers)
}
