package cachex_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/store"
)

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
