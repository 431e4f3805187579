package cachex

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
