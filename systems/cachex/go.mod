module benchdash.dev/cachex

go 1.24.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/dgraph-io/ristretto/v2 v2.4.2
	golang.org/x/sync v0.17.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dustin/go-humanize v1.0.1 // indirect
	golang.org/x/sys v0.36.0 // indirect
)
