// Package store holds in-memory backends for cachex: [SyncMap], a map with no
// eviction for tests and small key sets, and [Ristretto], a bounded cache with
// TTLs and admission control built on ristretto v2.
package store
