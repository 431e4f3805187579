// Package mockdb is the benchmark's stand-in for a product database: a fixed
// catalogue behind a connection pool. A query waits (in FIFO order) for one of
// the pool's slots, holds it for the configured latency, and counts as a query
// when it completes; a wait that ends because the caller's context expired
// counts as a rejection.
package mockdb
