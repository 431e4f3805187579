package cachex

import "context"

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
