package cachex

import (
	"context"
	"fmt"
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
