package cachex_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"benchdash.dev/cachex"
)

func TestClosedClientRefusesCalls(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v"))
	mustGet(t, f.client, "k", "v")
	var wg sync.WaitGroup
	for range 4 { // concurrent and repeated Close calls are fine
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.client.Close(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	ctx := context.Background()
	if _, err := f.client.Get(ctx, "k"); !errors.Is(err, cachex.ErrClosed) {
		t.Fatalf("Get after Close: %v, want ErrClosed", err)
	}
	if err := f.client.Set(ctx, "k", "w"); !errors.Is(err, cachex.ErrClosed) {
		t.Fatalf("Set after Close: %v, want ErrClosed", err)
	}
	if err := f.client.Del(ctx, "k"); !errors.Is(err, cachex.ErrClosed) {
		t.Fatalf("Del after Close: %v, want ErrClosed", err)
	}
	if e, err := f.backend.Get(ctx, "k"); err != nil || e.Data != "v" {
		t.Fatalf("the refused Set or Del reached the backend: %+v, %v", e, err)
	}
	wantCalls(t, f.up, 1)
}

func TestCloseCancelsAWaitingCaller(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v"))
	release := startGated(f.up)
	defer release()
	got := make(chan error, 1)
	go func() {
		_, err := f.client.Get(context.Background(), "k")
		got <- err
	}()
	waitFor(t, "the upstream call", func() bool { return f.up.active.Load() == 1 })
	if err := f.client.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-got; !errors.Is(err, cachex.ErrClosed) {
		t.Fatalf("caller cut off by Close got %v, want ErrClosed", err)
	}
	if _, err := f.backend.Get(context.Background(), "k"); !cachex.IsNotFound(err) {
		t.Fatalf("a fetch cut off by Close was cached: %v", err)
	}
}
