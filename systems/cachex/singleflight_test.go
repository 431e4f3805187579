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
