package cachex

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Client is a read-through cache over a backend Cache and an Upstream.
// It is safe for concurrent use.
type Client[T any] struct {
	backend  Cache[Entry[T]]
	upstream Upstream[T]
	notFound Cache[time.Time]
	cfg      config
	dcheck   bool

	group      singleflight.Group
	refreshing sync.Map // key -> struct{}: keys with a background refresh under way
	refreshes  sync.WaitGroup
}

// NewClient returns a Client that caches upstream values in backend.
func NewClient[T any](backend Cache[Entry[T]], upstream Upstream[T], opts ...Option) *Client[T] {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	c := &Client[T]{backend: backend, upstream: upstream, cfg: cfg}
	if cfg.notFound != nil {
		c.notFound = cfg.notFound.(Cache[time.Time])
	}
	switch cfg.doubleCheck {
	case DoubleCheckEnabled:
		c.dcheck = true
	case DoubleCheckAuto:
		c.dcheck = c.notFound != nil
	}
	return c
}

// DoubleCheck reports whether flights re-read the caches before calling the upstream.
func (c *Client[T]) DoubleCheck() bool { return c.dcheck }

// Get returns the value for key, from the cache when it is usable and from
// the upstream otherwise. Keys the upstream does not know yield a *NotFoundError.
func (c *Client[T]) Get(ctx context.Context, key string) (T, error) {
	var zero T
	now := c.cfg.now()
	e, err := c.backend.Get(ctx, key)
	switch {
	case err == nil:
		switch c.cfg.state(e.CachedAt, now) {
		case Fresh:
			return e.Data, nil
		case Stale:
			if c.cfg.serveStale {
				c.refresh(ctx, key)
				return e.Data, nil
			}
		}
		return c.fetch(ctx, key)
	case !IsNotFound(err):
		return zero, fmt.Errorf("cachex: backend get %q: %w", key, err)
	}
	if c.notFound != nil {
		at, err := c.notFound.Get(ctx, key)
		switch {
		case err == nil:
			switch st := c.cfg.nfState(at, now); st {
			case Fresh:
				return zero, &NotFoundError{Key: key, Cached: true, State: st}
			case Stale:
				if c.cfg.serveStale {
					c.refresh(ctx, key)
					return zero, &NotFoundError{Key: key, Cached: true, State: st}
				}
			}
		case !IsNotFound(err):
			return zero, fmt.Errorf("cachex: not-found cache get %q: %w", key, err)
		}
	}
	return c.fetch(ctx, key)
}

// Set stores value for key as freshly fetched and forgets any not-found marker.
func (c *Client[T]) Set(ctx context.Context, key string, value T) error {
	if c.notFound != nil {
		if err := c.notFound.Del(ctx, key); err != nil {
			return err
		}
	}
	return c.backend.Set(ctx, key, Entry[T]{Data: value, CachedAt: c.cfg.now()})
}

// Del removes key and its not-found marker, so the next Get fetches it.
func (c *Client[T]) Del(ctx context.Context, key string) error {
	if c.notFound != nil {
		if err := c.notFound.Del(ctx, key); err != nil {
			return err
		}
	}
	return c.backend.Del(ctx, key)
}

// Wait blocks until the background refreshes started so far have finished.
// Call it after the Gets that may start refreshes have returned.
func (c *Client[T]) Wait() { c.refreshes.Wait() }

// refresh starts a background fetch of key unless one is already running.
func (c *Client[T]) refresh(ctx context.Context, key string) {
	if _, busy := c.refreshing.LoadOrStore(key, struct{}{}); busy {
		return
	}
	c.refreshes.Add(1)
	go func() {
		defer c.refreshes.Done()
		defer c.refreshing.Delete(key)
		_, err := c.fetch(context.WithoutCancel(ctx), key)
		if err != nil && !IsNotFound(err) {
			c.cfg.logger.Warn("cachex: background refresh failed", "key", key, "err", err)
		}
	}()
}

type flightResult[T any] struct{ v T }

// fetch loads key from the upstream, sharing the call with concurrent callers.
func (c *Client[T]) fetch(ctx context.Context, key string) (T, error) {
	var zero T
	if !c.cfg.singleflight {
		fctx, cancel := context.WithTimeout(ctx, c.cfg.fetchTimeout)
		defer cancel()
		return c.load(fctx, key)
	}
	ch := c.group.DoChan(c.slot(key), func() (any, error) {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.fetchTimeout)
		defer cancel()
		v, err := c.load(fctx, key)
		return flightResult[T]{v}, err
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return zero, r.Err
		}
		return r.Val.(flightResult[T]).v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// slot names the flight for key; with fetch concurrency n > 1 callers are
// spread at random over n flights.
func (c *Client[T]) slot(key string) string {
	if c.cfg.concurrency <= 1 {
		return key
	}
	return strconv.Itoa(rand.IntN(c.cfg.concurrency)) + "\x00" + key
}

// load runs inside a flight: optional double-check, then the upstream call
// and the cache writes that record its answer.
func (c *Client[T]) load(ctx context.Context, key string) (T, error) {
	var zero T
	if c.dcheck {
		now := c.cfg.now()
		if e, err := c.backend.Get(ctx, key); err == nil && c.cfg.state(e.CachedAt, now) == Fresh {
			return e.Data, nil
		}
		if c.notFound != nil {
			if at, err := c.notFound.Get(ctx, key); err == nil && c.cfg.nfState(at, now) == Fresh {
				return zero, &NotFoundError{Key: key, Cached: true, State: Fresh}
			}
		}
	}
	v, err := c.callUpstream(ctx, key)
	now := c.cfg.now()
	switch {
	case err == nil:
		if c.notFound != nil {
			c.logWrite(key, c.notFound.Del(ctx, key))
		}
		c.logWrite(key, c.backend.Set(ctx, key, Entry[T]{Data: v, CachedAt: now}))
		return v, nil
	case IsNotFound(err):
		if c.notFound != nil {
			c.logWrite(key, c.notFound.Set(ctx, key, now))
		}
		c.logWrite(key, c.backend.Del(ctx, key))
		return zero, &NotFoundError{Key: key}
	default:
		return zero, err
	}
}

// callUpstream calls the upstream and turns a panic into a *PanicError.
func (c *Client[T]) callUpstream(ctx context.Context, key string) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Key: key, Value: r, Stack: debug.Stack()}
		}
	}()
	return c.upstream.Get(ctx, key)
}

func (c *Client[T]) logWrite(key string, err error) {
	if err != nil {
		c.cfg.logger.Warn("cachex: cache write failed", "key", key, "err", err)
	}
}
