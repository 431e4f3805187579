// Package harness runs the product-search benchmark: a cold cachex client in
// front of a pooled mock database, driven by closed-loop workers with the
// traffic package's Pareto mix, plus two references measured the same way
// (no cache at all, and a naive cache without singleflight or stale serving).
// It turns the runs into metrics with samples, prints a readable report and
// serialises everything as JSON.
package harness
