package pointsub

import (
	"fmt"
	"time"
)

// Defaults and limits of Options.
const (
	DefaultDialTimeout = 5 * time.Second
	DefaultRetryWait   = 100 * time.Millisecond
	DefaultBufferSize  = 8 << 10
	MaxBufferSize      = 2 << 20
)

// LargeMessage configures the large-message mode of a connection's writes.
type LargeMessage struct {
	Enabled       bool          // split writes into chunks (otherwise into WriteBufferSize pieces)
	EstimatedSize int           // expected message size, picks the chunk size up front (0: each write's length)
	ChunkSize     int           // fixed chunk size (0: by size class, see package sizeclass)
	BlockDelay    time.Duration // pause between chunks, to yield the link to other streams
}

// Options configure Listen and Dial.
type Options struct {
	DialTimeout     time.Duration // bound on one stream open (default 5 s)
	ReadTimeout     time.Duration // deadline set before every Read (0: none)
	WriteTimeout    time.Duration // deadline set before every chunk written (0: none)
	Retries         int           // extra stream-open attempts after a failure or reset
	RetryWait       time.Duration // wait between attempts (default 100 ms)
	ReadBufferSize  int           // read-ahead buffer (default 8 KiB, at most 2 MiB)
	WriteBufferSize int           // largest single write to the stream (default 8 KiB, at most 2 MiB)
	LargeMessage    LargeMessage
	MaxConns        int // Listen only: concurrent incoming connections (0: unlimited)
}

// Option changes Options.
type Option func(*Options)

// WithTimeouts sets the dial, read and write timeouts.
func WithTimeouts(dial, read, write time.Duration) Option {
	return func(o *Options) { o.DialTimeout, o.ReadTimeout, o.WriteTimeout = dial, read, write }
}

// WithRetries sets reset recovery: n extra attempts, wait apart.
func WithRetries(n int, wait time.Duration) Option {
	return func(o *Options) { o.Retries, o.RetryWait = n, wait }
}

// WithBuffers sets the read and write buffer sizes.
func WithBuffers(read, write int) Option {
	return func(o *Options) { o.ReadBufferSize, o.WriteBufferSize = read, write }
}

// WithLargeMessages turns on the large-message mode.
func WithLargeMessages(lm LargeMessage) Option {
	return func(o *Options) { o.LargeMessage = lm; o.LargeMessage.Enabled = true }
}

// WithMaxConns caps a listener's concurrent connections.
func WithMaxConns(n int) Option { return func(o *Options) { o.MaxConns = n } }

func buildOptions(opts []Option) (Options, error) {
	o := Options{}
	for _, f := range opts {
		f(&o)
	}
	if o.DialTimeout == 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	if o.RetryWait == 0 {
		o.RetryWait = DefaultRetryWait
	}
	if o.ReadBufferSize == 0 {
		o.ReadBufferSize = DefaultBufferSize
	}
	if o.WriteBufferSize == 0 {
		o.WriteBufferSize = DefaultBufferSize
	}
	switch {
	case o.DialTimeout < 0 || o.ReadTimeout < 0 || o.WriteTimeout < 0 || o.RetryWait < 0:
		return o, fmt.Errorf("pointsub: negative timeout")
	case o.Retries < 0 || o.MaxConns < 0:
		return o, fmt.Errorf("pointsub: negative retries or max connections")
	case o.ReadBufferSize < 0 || o.ReadBufferSize > MaxBufferSize,
		o.WriteBufferSize < 0 || o.WriteBufferSize > MaxBufferSize:
		return o, fmt.Errorf("pointsub: buffer sizes must be within 1 B..%d B", MaxBufferSize)
	case o.LargeMessage.ChunkSize < 0 || o.LargeMessage.EstimatedSize < 0 || o.LargeMessage.BlockDelay < 0:
		return o, fmt.Errorf("pointsub: negative large-message setting")
	}
	return o, nil
}
