package mockdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"benchdash.dev/cachex"
)

// Product is one catalogue row.
type Product struct {
	ID          string
	Name        string
	Price       int // cents, 1000..9999
	Stock       int // 0..999
	Description string
}

// Config describes the database.
type Config struct {
	// Products is the catalogue size; ids are "product-1".."product-N".
	Products int
	// Pool is the number of connections; 0 means unlimited.
	Pool int
	// Latency is how long every query holds its connection.
	Latency time.Duration
}

// Stats are the database's counters.
type Stats struct {
	// Queries is the number of completed queries.
	Queries int64
	// Rejected is the number of queries that gave up waiting for a connection.
	Rejected int64
}

// DB is a mock product database. It is safe for concurrent use.
type DB struct {
	products map[string]*Product
	pool     *semaphore.Weighted
	latency  time.Duration
	queries  atomic.Int64
	rejected atomic.Int64
}

// ProductID returns the id of the i-th product (1-based).
func ProductID(i int) string { return "product-" + strconv.Itoa(i) }

// New builds a database with a deterministic catalogue.
func New(cfg Config) *DB {
	rng := rand.New(rand.NewPCG(20260101, uint64(cfg.Products)))
	db := &DB{products: make(map[string]*Product, cfg.Products), latency: cfg.Latency}
	for i := 1; i <= cfg.Products; i++ {
		id := ProductID(i)
		db.products[id] = &Product{
			ID:          id,
			Name:        "Product " + strconv.Itoa(i),
			Price:       1000 + rng.IntN(9000),
			Stock:       rng.IntN(1000),
			Description: fmt.Sprintf("Catalogue item %d of %d", i, cfg.Products),
		}
	}
	if cfg.Pool > 0 {
		db.pool = semaphore.NewWeighted(int64(cfg.Pool))
	}
	return db
}

// Query looks a product up. Unknown ids yield a cachex not-found error.
func (db *DB) Query(ctx context.Context, id string) (*Product, error) {
	if db.pool != nil {
		if err := db.pool.Acquire(ctx, 1); err != nil {
			db.rejected.Add(1)
			return nil, fmt.Errorf("mockdb: waiting for a connection: %w", err)
		}
		defer db.pool.Release(1)
	}
	time.Sleep(db.latency) // the connection is busy for the whole query
	db.queries.Add(1)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mockdb: query: %w", err)
	}
	p, ok := db.products[id]
	if !ok {
		return nil, cachex.ErrNotFound(id)
	}
	return p, nil
}

// Stats returns the current counters.
func (db *DB) Stats() Stats {
	return Stats{Queries: db.queries.Load(), Rejected: db.rejected.Load()}
}
