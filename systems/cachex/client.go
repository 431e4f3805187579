package cachex

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Client is a read-through cache over a backend Cache and an Upstream.
// It is safe for concurrent use. Close it before closing its backends.
type Client[T any] struct {
	backend  Cache[Entry[T]]
	upstream Upstream[T]
	notFound Cache[time.Time]
	cfg      config
	dcheck   bool

	group      singleflight.Group
	refreshing sync.Map // key -> struct{}: keys with a background refresh under way
	refreshes  sync.WaitGroup

	// Lifetime: every call and every goroutine the client starts enters
	// before it touches a cache; Close refuses new entries and waits for the
	// ones under way, so nothing touches a backend once Close has returned.
	life   context.Context // cancelled by Close: upstream calls under way stop
	stop   context.CancelFunc
	mu     sync.RWMutex // guards closed against concurrent entries
	closed bool
	work   sync.WaitGroup
}

// NewClient returns a Client that caches upstream values in backend.
func NewClient[T any](backend Cache[Entry[T]], upstream Upstream[T], opts ...Option) *Client[T] {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	c := &Client[T]{backend: backend, upstream: upstream, cfg: cfg}
	c.life, c.stop = context.WithCancel(context.Background())
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

// Close stops the client and waits until nothing of it touches a cache any
// more: later calls return ErrClosed, no background refresh starts, upstream
// calls under way are cancelled, and Close returns once every Get, Set, Del,
// flight and refresh under way has finished. The backends may be closed after
// it returns. Close may be called more than once and from several goroutines.
func (c *Client[T]) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.stop()
	c.work.Wait()
	return nil
}

// enter registers one unit of work, or reports false once the client is closed.
func (c *Client[T]) enter() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return false
	}
	c.work.Add(1)
	return true
}

// Get returns the value for key, from the cache when it is usable and from
// the upstream otherwise. Keys the upstream does not know yield a *NotFoundError;
// a closed client yields ErrClosed.
func (c *Client[T]) Get(ctx context.Context, key string) (T, error) {
	var zero T
	if !c.enter() {
		return zero, ErrClosed
	}
	defer c.work.Done()
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
	if !c.enter() {
		return ErrClosed
	}
	defer c.work.Done()
	if c.notFound != nil {
		if err := c.notFound.Del(ctx, key); err != nil {
			return err
		}
	}
	return c.backend.Set(ctx, key, Entry[T]{Data: value, CachedAt: c.cfg.now()})
}

// Del removes key and its not-found marker, so the next Get fetches it.
func (c *Client[T]) Del(ctx context.Context, key string) error {
	if !c.enter() {
		return ErrClosed
	}
	defer c.work.Done()
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

// refresh starts a background fetch of key unless one is already running or
// the client is closed.
func (c *Client[T]) refresh(ctx context.Context, key string) {
	if !c.enter() {
		return
	}
	if _, busy := c.refreshing.LoadOrStore(key, struct{}{}); busy {
		c.work.Done()
		return
	}
	c.refreshes.Add(1)
	go func() {
		defer c.work.Done()
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
		fctx, cancel := c.fetchContext(ctx)
		defer cancel()
		return c.load(fctx, key)
	}
	ch := c.group.DoChan(c.slot(key), func() (any, error) {
		// The flight runs in its own goroutine and may outlive its callers.
		if !c.enter() {
			return nil, ErrClosed
		}
		defer c.work.Done()
		fctx, cancel := c.fetchContext(context.WithoutCancel(ctx))
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

// fetchContext bounds an upstream call by the fetch timeout and ends it when
// the client is closed.
func (c *Client[T]) fetchContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(parent, c.cfg.fetchTimeout)
	detach := context.AfterFunc(c.life, cancel)
	return ctx, func() { detach(); cancel() }
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
	if err != nil && c.life.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
		return zero, ErrClosed // cut off by Close: say so, whatever the upstream made of it
	}
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
