package cachex

import "context"

// Cache is a key-value store used as a backend by the Client.
// Get returns an error satisfying IsNotFound when the key is absent.
type Cache[T any] interface {
	Get(ctx context.Context, key string) (T, error)
	Set(ctx context.Context, key string, value T) error
	Del(ctx context.Context, key string) error
}

// Upstream is the source of truth behind a Client.
// Get returns an error satisfying IsNotFound when the key does not exist.
type Upstream[T any] interface {
	Get(ctx context.Context, key string) (T, error)
}

// UpstreamFunc adapts a function to the Upstream interface.
type UpstreamFunc[T any] func(ctx context.Context, key string) (T, error)

// Get calls f.
func (f UpstreamFunc[T]) Get(ctx context.Context, key string) (T, error) { return f(ctx, key) }
