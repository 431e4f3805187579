package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/dgraph-io/ristretto/v2"

	"benchdash.dev/cachex"
)

// RistrettoConfig sizes a Ristretto cache. Every item costs 1, so MaxItems
// is the capacity in items.
type RistrettoConfig struct {
	// MaxItems bounds the number of cached items (default 1,000,000).
	MaxItems int64
	// TTL makes the backend drop items this long after they were set; zero
	// keeps them until evicted. Set it to the client's fresh+stale TTL so
	// rotten entries free their memory.
	TTL time.Duration
}

// Ristretto is a bounded in-memory cache built on ristretto v2.
// Set and Del wait until the write is visible to Get. After Close every call
// returns cachex.ErrClosed (ristretto itself panics when used while it closes).
type Ristretto[T any] struct {
	c   *ristretto.Cache[string, T]
	ttl time.Duration

	mu     sync.RWMutex // held shared by calls, exclusively by Close
	closed bool
}

var _ cachex.Cache[int] = (*Ristretto[int])(nil)

// NewRistretto builds a Ristretto backend; call Close when done with it.
func NewRistretto[T any](cfg RistrettoConfig) (*Ristretto[T], error) {
	if cfg.MaxItems <= 0 {
		cfg.MaxItems = 1_000_000
	}
	c, err := ristretto.NewCache(&ristretto.Config[string, T]{
		NumCounters: cfg.MaxItems * 10,
		MaxCost:     cfg.MaxItems,
		BufferItems: 64,
		// Count items, not bytes: without this every item also costs its
		// internal bookkeeping and the cache holds far fewer than MaxItems.
		IgnoreInternalCost: true,
	})
	if err != nil {
		return nil, fmt.Errorf("store: ristretto: %w", err)
	}
	return &Ristretto[T]{c: c, ttl: cfg.TTL}, nil
}

// Get returns the value for key or a not-found error.
func (r *Ristretto[T]) Get(_ context.Context, key string) (T, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		var zero T
		return zero, cachex.ErrClosed
	}
	v, ok := r.c.Get(key)
	if !ok {
		return v, cachex.ErrNotFound(key)
	}
	return v, nil
}

// Set stores value under key. Ristretto may refuse an item (admission policy
// or a full write buffer); that is a cache decision, not an error.
func (r *Ristretto[T]) Set(_ context.Context, key string, value T) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return cachex.ErrClosed
	}
	r.c.SetWithTTL(key, value, 1, r.ttl)
	r.c.Wait()
	return nil
}

// Del removes key.
func (r *Ristretto[T]) Del(_ context.Context, key string) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return cachex.ErrClosed
	}
	r.c.Del(key)
	r.c.Wait()
	return nil
}

// Close waits for the calls under way, then stops the cache's background
// goroutines. Calling it again does nothing.
func (r *Ristretto[T]) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.closed = true
		r.c.Close()
	}
}
