package store_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/store"
)

// exercise checks the Cache contract: miss, set, get, overwrite, delete.
func exercise(t *testing.T, c cachex.Cache[string]) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.Get(ctx, "k"); !cachex.IsNotFound(err) {
		t.Fatalf("empty cache: got %v, want not found", err)
	}
	for _, v := range []string{"a", "b"} {
		if err := c.Set(ctx, "k", v); err != nil {
			t.Fatal(err)
		}
		if got, err := c.Get(ctx, "k"); err != nil || got != v {
			t.Fatalf("Get = %q, %v; want %q", got, err, v)
		}
	}
	if err := c.Del(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, "k"); !cachex.IsNotFound(err) {
		t.Fatalf("after Del: got %v, want not found", err)
	}
	if err := c.Del(ctx, "absent"); err != nil {
		t.Fatalf("Del of an absent key: %v", err)
	}
}

func TestSyncMap(t *testing.T) {
	exercise(t, &store.SyncMap[string]{})
}

func TestRistretto(t *testing.T) {
	r, err := store.NewRistretto[string](store.RistrettoConfig{MaxItems: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	exercise(t, r)
}

func TestRistrettoTTLDropsItems(t *testing.T) {
	r, err := store.NewRistretto[string](store.RistrettoConfig{MaxItems: 1000, TTL: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	if err := r.Set(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second) // generous: only correctness is checked
	for {
		if _, err := r.Get(ctx, "k"); cachex.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("item outlived its TTL")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestClientOverRistretto(t *testing.T) {
	data, err := store.NewRistretto[cachex.Entry[int]](store.RistrettoConfig{MaxItems: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer data.Close()
	nf, err := store.NewRistretto[time.Time](store.RistrettoConfig{MaxItems: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer nf.Close()
	calls := 0
	up := cachex.UpstreamFunc[int](func(_ context.Context, key string) (int, error) {
		calls++
		if key == "missing" {
			return 0, cachex.ErrNotFound(key)
		}
		return len(key), nil
	})
	c := cachex.NewClient[int](data, up, cachex.WithTTL(time.Hour, time.Hour), cachex.WithNotFound(nf, time.Hour, time.Hour))
	for range 3 {
		if v, err := c.Get(context.Background(), "four"); err != nil || v != 4 {
			t.Fatalf("Get = %d, %v", v, err)
		}
		if _, err := c.Get(context.Background(), "missing"); !cachex.IsNotFound(err) {
			t.Fatalf("got %v, want not found", err)
		}
	}
	if calls != 2 {
		t.Fatalf("upstream calls = %d, want 2", calls)
	}
}

func TestRistrettoAfterClose(t *testing.T) {
	r, err := store.NewRistretto[string](store.RistrettoConfig{MaxItems: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 8 { // writers racing with Close must not panic inside ristretto
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				key := strconv.Itoa(w*1_000_000 + i)
				if err := r.Set(ctx, key, "v"); errors.Is(err, cachex.ErrClosed) {
					return
				} else if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	time.Sleep(5 * time.Millisecond)
	r.Close()
	r.Close()
	wg.Wait()
	if _, err := r.Get(ctx, "0"); !errors.Is(err, cachex.ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}
	if err := r.Del(ctx, "0"); !errors.Is(err, cachex.ErrClosed) {
		t.Fatalf("Del after Close: %v", err)
	}
}
