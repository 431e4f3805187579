package mockdb

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"benchdash.dev/cachex"
)

func TestQuery(t *testing.T) {
	db := New(Config{Products: 10, Pool: 2})
	p, err := db.Query(context.Background(), ProductID(3))
	if err != nil || p.ID != "product-3" || p.Price < 1000 || p.Price > 9999 {
		t.Fatalf("Query = %+v, %v", p, err)
	}
	if _, err := db.Query(context.Background(), "product-11"); !cachex.IsNotFound(err) {
		t.Fatalf("got %v, want not found", err)
	}
	if s := db.Stats(); s.Queries != 2 || s.Rejected != 0 {
		t.Fatalf("stats = %+v", s)
	}
}

func TestPoolLimitsConcurrencyAndRejectsOnTimeout(t *testing.T) {
	db := New(Config{Products: 10, Pool: 1, Latency: 200 * time.Millisecond})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // occupies the only connection
		defer wg.Done()
		_, _ = db.Query(context.Background(), ProductID(1))
	}()
	for db.pool.TryAcquire(1) { // wait until the goroutine holds the slot
		db.pool.Release(1)
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := db.Query(ctx, ProductID(2)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a deadline error", err)
	}
	wg.Wait()
	if s := db.Stats(); s.Queries != 1 || s.Rejected != 1 {
		t.Fatalf("stats = %+v, want 1 query and 1 rejection", s)
	}
}
