package store

import (
	"context"
	"sync"

	"benchdash.dev/cachex"
)

// SyncMap is an unbounded in-memory cache backed by sync.Map.
// The zero value is ready to use.
type SyncMap[T any] struct {
	m sync.Map
}

var _ cachex.Cache[int] = (*SyncMap[int])(nil)

// Get returns the value for key or a not-found error.
func (s *SyncMap[T]) Get(_ context.Context, key string) (T, error) {
	v, ok := s.m.Load(key)
	if !ok {
		var zero T
		return zero, cachex.ErrNotFound(key)
	}
	return v.(T), nil
}

// Set stores value under key.
func (s *SyncMap[T]) Set(_ context.Context, key string, value T) error {
	s.m.Store(key, value)
	return nil
}

// Del removes key; removing an absent key is not an error.
func (s *SyncMap[T]) Del(_ context.Context, key string) error {
	s.m.Delete(key)
	return nil
}
