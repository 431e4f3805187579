// Package cachex is a generic read-through cache client.
//
// A [Client] sits in front of an upstream (a database, a remote service) and a
// backend [Cache]. Every cached value is wrapped in an [Entry] that records when
// it was cached; a [StateFunc] maps the entry's age to [Fresh], [Stale] or
// [Rotten]:
//
//   - Fresh entries are returned as they are.
//   - Stale entries are returned at once when serve-stale is on, and one
//     background refresh per key brings them up to date.
//   - Rotten entries, and keys the backend does not hold, are fetched from the
//     upstream before the caller gets an answer.
//
// Fetches go through a singleflight group, so any number of concurrent callers
// asking for one cold key cause one upstream call. With double-check on, the
// flight re-reads the caches before it calls the upstream, which absorbs
// callers that arrive just after another flight finished. The upstream call
// runs under a context detached from the caller and bounded by the fetch
// timeout, so a caller that gives up does not cancel the work others wait for.
//
// Upstream "not found" answers can be cached too, in a separate cache of
// timestamps with their own TTLs; such answers come back as a
// [*NotFoundError] that says whether it was served from the cache and in which
// state.
//
// [Client.Close] refuses new calls with [ErrClosed], cancels the upstream
// calls under way and waits for every flight and background refresh, so the
// backends can be closed safely once it returns.
package cachex
