package harness

import (
	"context"
	"fmt"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/internal/mockdb"
	"benchdash.dev/cachex/store"
)

// Variant is the client under test.
type Variant string

const (
	// Cachex is the client under test: singleflight, double-check (auto, on),
	// serve-stale and not-found caching over Ristretto.
	Cachex Variant = "cachex"
	// NoCache sends every request to the database.
	NoCache Variant = "no-cache"
	// NoSingleflight is a naive cache-aside client over the same backends and
	// TTLs: every miss queries the database itself and stale entries are
	// re-fetched by the caller instead of being served.
	NoSingleflight Variant = "no-singleflight"
)

// Variants lists the variants in the order they run.
var Variants = []Variant{Cachex, NoCache, NoSingleflight}

// build returns the request function of a variant and a cleanup function.
func build(cfg RunConfig, db *mockdb.DB) (getter, func(), error) {
	s := cfg.Scenario
	if cfg.Variant == NoCache {
		return func(ctx context.Context, id string) error {
			fctx, cancel := context.WithTimeout(ctx, s.FetchTimeout)
			defer cancel()
			_, err := db.Query(fctx, id)
			return err
		}, func() {}, nil
	}
	data, err := store.NewRistretto[cachex.Entry[*mockdb.Product]](store.RistrettoConfig{MaxItems: 4 * Products, TTL: s.FreshTTL + s.StaleTTL})
	if err != nil {
		return nil, nil, err
	}
	nf, err := store.NewRistretto[time.Time](store.RistrettoConfig{MaxItems: 4 * Products, TTL: s.NFFreshTTL + s.NFStaleTTL})
	if err != nil {
		data.Close()
		return nil, nil, err
	}
	opts := []cachex.Option{
		cachex.WithTTL(s.FreshTTL, s.StaleTTL),
		cachex.WithNotFound(nf, s.NFFreshTTL, s.NFStaleTTL),
		cachex.WithFetchTimeout(s.FetchTimeout),
	}
	switch cfg.Variant {
	case Cachex:
		opts = append(opts, cachex.WithServeStale(true), cachex.WithDoubleCheck(cachex.DoubleCheckAuto))
	case NoSingleflight:
		opts = append(opts, cachex.WithSingleflight(false), cachex.WithServeStale(false), cachex.WithDoubleCheck(cachex.DoubleCheckDisabled))
	default:
		return nil, nil, fmt.Errorf("unknown variant %q", cfg.Variant)
	}
	client := cachex.NewClient[*mockdb.Product](data, cachex.UpstreamFunc[*mockdb.Product](db.Query), opts...)
	get := func(ctx context.Context, id string) error {
		_, err := client.Get(ctx, id)
		return err
	}
	// The client first: Close waits for its flights and background refreshes,
	// which may still write to the stores after the last worker returned.
	cleanup := func() {
		_ = client.Close()
		data.Close()
		nf.Close()
	}
	return get, cleanup, nil
}
