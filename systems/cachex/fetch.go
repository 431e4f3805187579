package cachex

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
)

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
