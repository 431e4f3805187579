package cachex_test

import (
	"context"
	"testing"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/store"
)

func TestNotFoundLifecycle(t *testing.T) {
	f := newFixture(newFakeUpstream())

	mustNotFound(t, f.client, "x", false, 0) // upstream says not found
	wantCalls(t, f.up, 1)

	f.clock.Advance(nfFreshTTL - time.Millisecond)
	mustNotFound(t, f.client, "x", true, cachex.Fresh)
	wantCalls(t, f.up, 1)

	f.clock.Advance(time.Millisecond)
	mustNotFound(t, f.client, "x", true, cachex.Stale)
	f.client.Wait()
	wantCalls(t, f.up, 2) // one background refresh
	mustNotFound(t, f.client, "x", true, cachex.Fresh)

	f.up.put("x", "born")
	f.clock.Advance(nfFreshTTL + nfStaleTTL) // rotten marker: fetch again
	mustGet(t, f.client, "x", "born")
	wantCalls(t, f.up, 3)
	if _, err := f.notFound.Get(context.Background(), "x"); !cachex.IsNotFound(err) {
		t.Fatalf("not-found marker survived a successful fetch: %v", err)
	}
}

func TestNotFoundDeletesCachedValue(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"), cachex.WithServeStale(false))
	mustGet(t, f.client, "k", "v1")
	f.up.remove("k")
	f.clock.Advance(freshTTL)
	mustNotFound(t, f.client, "k", false, 0)
	if _, err := f.backend.Get(context.Background(), "k"); !cachex.IsNotFound(err) {
		t.Fatalf("backend still holds a key the upstream lost: %v", err)
	}
	mustNotFound(t, f.client, "k", true, cachex.Fresh)
	wantCalls(t, f.up, 2)
}

func TestWithoutNotFoundCacheEveryLookupCallsUpstream(t *testing.T) {
	up := newFakeUpstream()
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up)
	for range 3 {
		mustNotFound(t, c, "x", false, 0)
	}
	wantCalls(t, up, 3)
}
