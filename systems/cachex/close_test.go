package cachex_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/store"
)

// watched wraps a cache and counts the calls made after it was marked closed.
type watched[T any] struct {
	cachex.Cache[T]
	closed atomic.Bool
	late   atomic.Int64
}

func (w *watched[T]) note() {
	if w.closed.Load() {
		w.late.Add(1)
	}
}

func (w *watched[T]) Get(ctx context.Context, key string) (T, error) {
	w.note()
	return w.Cache.Get(ctx, key)
}

func (w *watched[T]) Set(ctx context.Context, key string, v T) error {
	w.note()
	return w.Cache.Set(ctx, key, v)
}

func (w *watched[T]) Del(ctx context.Context, key string) error {
	w.note()
	return w.Cache.Del(ctx, key)
}

// TestCloseUnderLoad closes a client over real Ristretto stores while workers
// hammer it with callers that give up early (so flights outlive them) and with
// stale keys (so background refreshes run), then closes the stores as the
// benchmark harness does. Nothing may touch a store after Close returned.
func TestCloseUnderLoad(t *testing.T) {
	for _, sf := range []bool{true, false} {
		t.Run("singleflight="+strconv.FormatBool(sf), func(t *testing.T) {
			up := newFakeUpstream()
			for i := range 50 {
				up.put("k"+strconv.Itoa(i), "v") // k50..k59 stay unknown
			}
			clock := newFakeClock()
			data, err := store.NewRistretto[cachex.Entry[string]](store.RistrettoConfig{MaxItems: 1000})
			if err != nil {
				t.Fatal(err)
			}
			nf, err := store.NewRistretto[time.Time](store.RistrettoConfig{MaxItems: 1000})
			if err != nil {
				t.Fatal(err)
			}
			wd, wn := &watched[cachex.Entry[string]]{Cache: data}, &watched[time.Time]{Cache: nf}
			c := cachex.NewClient[string](wd, up,
				cachex.WithClock(clock.Now), cachex.WithTTL(freshTTL, staleTTL),
				cachex.WithNotFound(wn, nfFreshTTL, nfStaleTTL), cachex.WithFetchTimeout(time.Minute),
				cachex.WithSingleflight(sf), cachex.WithServeStale(sf))
			for i := range 25 {
				mustGet(t, c, "k"+strconv.Itoa(i), "v")
			}
			clock.Advance(freshTTL) // the warm keys are stale now
			release := startGated(up)
			defer release()

			const workers = 32
			var wg sync.WaitGroup
			var sawClosed atomic.Int64
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := w; ; i++ {
						ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
						_, err := c.Get(ctx, "k"+strconv.Itoa(i%60))
						cancel()
						if errors.Is(err, cachex.ErrClosed) {
							sawClosed.Add(1)
							return
						}
					}
				}()
			}
			waitFor(t, "upstream calls held at the gate", func() bool { return up.active.Load() >= 4 })

			closed := make(chan error, 1)
			go func() { closed <- c.Close() }()
			select {
			case err := <-closed:
				if err != nil {
					t.Fatalf("Close: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Close did not return: the upstream calls under way were not cancelled")
			}
			if n := up.active.Load(); n != 0 {
				t.Fatalf("%d upstream calls still under way after Close returned", n)
			}
			wd.closed.Store(true)
			wn.closed.Store(true)
			data.Close()
			nf.Close()
			release()
			wg.Wait()
			c.Wait()
			if got := sawClosed.Load(); got != workers {
				t.Fatalf("%d of %d workers saw ErrClosed", got, workers)
			}
			if late := wd.late.Load() + wn.late.Load(); late != 0 {
				t.Fatalf("%d cache calls after Close returned", late)
			}
		})
	}
}

// TestCloseWaitsForWorkOutlivingCallers: a flight whose caller gave up, or a
// background refresh, in an upstream that ignores cancellation keeps Close
// waiting; its cache write happens before Close returns, never after.
func TestCloseWaitsForWorkOutlivingCallers(t *testing.T) {
	for _, tc := range []struct {
		name, key, want string
		singleflight    bool
	}{
		{"flight", "cold", "c", true},
		{"refresh", "warm", "w2", true},
		{"refresh without singleflight", "warm", "w2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := newFakeUpstream("cold", "c", "warm", "w1")
			f := newFixture(up)
			wd := &watched[cachex.Entry[string]]{Cache: f.backend}
			c := cachex.NewClient[string](wd, up, cachex.WithClock(f.clock.Now),
				cachex.WithTTL(freshTTL, staleTTL), cachex.WithFetchTimeout(time.Minute),
				cachex.WithSingleflight(tc.singleflight))
			mustGet(t, c, "warm", "w1")
			up.put("warm", "w2")
			f.clock.Advance(freshTTL)
			up.deaf = true
			release := startGated(up)
			defer release()

			if tc.key == "warm" {
				mustGet(t, c, "warm", "w1") // stale: served at once, refresh held at the gate
			} else {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
				_, err := c.Get(ctx, "cold")
				cancel()
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("caller giving up: %v", err)
				}
			}
			waitFor(t, "the upstream call", func() bool { return up.active.Load() == 1 })

			closed := make(chan struct{})
			go func() {
				_ = c.Close()
				close(closed)
			}()
			select {
			case <-closed:
				t.Fatal("Close returned while work was still under way")
			case <-time.After(100 * time.Millisecond):
			}
			release()
			select {
			case <-closed:
			case <-time.After(10 * time.Second):
				t.Fatal("Close did not return after the upstream answered")
			}
			wd.closed.Store(true)
			if e, err := f.backend.Get(context.Background(), tc.key); err != nil || e.Data != tc.want {
				t.Fatalf("%s: %+v, %v; want the write made before Close returned", tc.key, e, err)
			}
			if n := wd.late.Load(); n != 0 {
				t.Fatalf("%d cache calls after Close returned", n)
			}
		})
	}
}
