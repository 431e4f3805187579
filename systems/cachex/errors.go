package cachex

import (
	"errors"
	"fmt"
)

// NotFoundError reports that a key does not exist. Backends return it on a
// miss and upstreams return it for keys they do not know; the Client returns
// it when the upstream said so, now or earlier (Cached).
type NotFoundError struct {
	// Key is the key that was looked up.
	Key string
	// Cached is true when the answer came from the not-found cache rather
	// than from an upstream call made for this request.
	Cached bool
	// State is the state of the cached not-found marker when Cached is true.
	State State
}

// Error describes the missing key and where the answer came from.
func (e *NotFoundError) Error() string {
	if e.Cached {
		return fmt.Sprintf("cachex: key %q not found (cached, %s)", e.Key, e.State)
	}
	return fmt.Sprintf("cachex: key %q not found", e.Key)
}

// ErrNotFound returns a *NotFoundError for key, for use by backends and upstreams.
func ErrNotFound(key string) error { return &NotFoundError{Key: key} }

// IsNotFound reports whether err is, or wraps, a *NotFoundError.
func IsNotFound(err error) bool {
	var nf *NotFoundError
	return errors.As(err, &nf)
}

// AsNotFound returns the *NotFoundError in err's chain, if any.
func AsNotFound(err error) (*NotFoundError, bool) {
	var nf *NotFoundError
	ok := errors.As(err, &nf)
	return nf, ok
}

// PanicError is returned to callers when the upstream panicked during a fetch.
type PanicError struct {
	// Key is the key being fetched.
	Key string
	// Value is what the upstream passed to panic.
	Value any
	// Stack is the goroutine stack at the time of the panic.
	Stack []byte
}

// Error describes the panic value.
func (e *PanicError) Error() string {
	return fmt.Sprintf("cachex: upstream panicked fetching %q: %v", e.Key, e.Value)
}

// ErrClosed is returned by a Client's methods after Close, and to callers
// whose fetch Close cut off.
var ErrClosed = errors.New("cachex: client is closed")
