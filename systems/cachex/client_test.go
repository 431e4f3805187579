package cachex_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"benchdash.dev/cachex"
	"benchdash.dev/cachex/store"
)

func TestEntryLifecycle(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"))

	mustGet(t, f.client, "k", "v1") // miss -> fetch
	wantCalls(t, f.up, 1)

	f.clock.Advance(freshTTL - time.Millisecond) // still fresh
	mustGet(t, f.client, "k", "v1")
	wantCalls(t, f.up, 1)

	f.up.put("k", "v2")
	f.clock.Advance(time.Millisecond) // stale: served at once, refreshed behind
	mustGet(t, f.client, "k", "v1")
	f.client.Wait()
	wantCalls(t, f.up, 2)
	mustGet(t, f.client, "k", "v2") // the refresh made it fresh again
	wantCalls(t, f.up, 2)

	f.up.put("k", "v3")
	f.clock.Advance(freshTTL + staleTTL) // rotten: the caller waits for the fetch
	mustGet(t, f.client, "k", "v3")
	wantCalls(t, f.up, 3)
}

func TestStaleWithoutServeStaleFetches(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"), cachex.WithServeStale(false))
	mustGet(t, f.client, "k", "v1")
	f.up.put("k", "v2")
	f.clock.Advance(freshTTL)
	mustGet(t, f.client, "k", "v2")
	wantCalls(t, f.up, 2)
}

func TestDefaultStateNeverExpires(t *testing.T) {
	up := newFakeUpstream("k", "v1")
	clock := newFakeClock()
	c := cachex.NewClient[string](&store.SyncMap[cachex.Entry[string]]{}, up, cachex.WithClock(clock.Now))
	mustGet(t, c, "k", "v1")
	clock.Advance(1000 * time.Hour)
	mustGet(t, c, "k", "v1")
	wantCalls(t, up, 1)
}

func TestStaleEntryRefreshesOnce(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "v1"))
	mustGet(t, f.client, "k", "v1")
	f.up.put("k", "v2")
	f.clock.Advance(freshTTL)

	release := startGated(f.up) // hold the refresh while callers pile up
	var wg sync.WaitGroup
	for range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := f.client.Get(context.Background(), "k")
			if err != nil || v != "v1" {
				t.Errorf("stale read: %q, %v", v, err)
			}
		}()
	}
	wg.Wait() // every stale read returned while the refresh was still held
	release()
	f.client.Wait()
	wantCalls(t, f.up, 2)
	mustGet(t, f.client, "k", "v2")
}

func TestSetAndDel(t *testing.T) {
	f := newFixture(newFakeUpstream("k", "upstream"))
	mustNotFound(t, f.client, "new", false, 0)
	if err := f.client.Set(context.Background(), "new", "set"); err != nil {
		t.Fatal(err)
	}
	mustGet(t, f.client, "new", "set") // Set cleared the not-found marker
	if err := f.client.Del(context.Background(), "new"); err != nil {
		t.Fatal(err)
	}
	mustNotFound(t, f.client, "new", false, 0)
	wantCalls(t, f.up, 2)
}
