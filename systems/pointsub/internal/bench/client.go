package bench

import (
	"context"
	"net"
	"sync"
	"time"

	"benchdash.dev/pointsub/netsim"
	"benchdash.dev/pointsub/transport"
)

// entry is one message on its way: first send time and how often it was resent.
type entry struct {
	payload []byte
	start   time.Time
	attempt int
}

// tally is what one connection's worker counted.
type tally struct {
	sent, acked, failed, retried, reconnects, ackedBytes, checksum, desync, timedOut int64
	latencies                                                                        []time.Duration
	sim                                                                              netsim.Stats
}

// plan is what every worker of one run shares (read only).
type plan struct {
	dial     func(ctx context.Context) (net.Conn, error)
	cond     *netsim.Condition
	seed     uint64
	payloads [][]byte
	trOpts   transport.Options
	mode     Mode
	window   int
	retries  int
	quota    int           // paced: new messages per connection
	period   time.Duration // paced: ticker period
	deadline time.Time     // no new messages after this
	drainEnd time.Time     // unacknowledged messages fail after this
}

type worker struct {
	id    int
	p     *plan
	t     tally
	mu    sync.Mutex
	retry []*entry
	fifo  []*entry
	next  int // payload index
	made  int // new messages so far
	wake  chan struct{}
}

func newWorker(id int, p *plan) *worker {
	return &worker{id: id, p: p, next: id, wake: make(chan struct{}, 1)}
}

// run dials, runs sessions until the work is done, and re-dials after a broken connection.
func (w *worker) run(ctx context.Context) {
	var ticker *time.Ticker
	if w.p.mode == Paced {
		ticker = time.NewTicker(w.p.period)
		defer ticker.Stop()
	}
	for {
		conn, err := w.p.dial(ctx)
		if err != nil {
			w.failAll()
			return
		}
		if w.p.cond != nil {
			sim, err := netsim.Wrap(conn, *w.p.cond, w.p.seed+uint64(1000*w.id)+uint64(2*w.t.reconnects))
			if err != nil {
				conn.Close()
				w.failAll()
				return
			}
			defer func() { w.t.sim = w.t.sim.Add(sim.Stats()) }()
			conn = sim
		}
		if w.session(ctx, conn, ticker) == nil {
			w.mu.Lock()
			w.t.timedOut += int64(len(w.retry) + len(w.fifo))
			w.mu.Unlock()
			w.failAll() // the drain time ended (anything left is unacknowledged) or all done
			return
		}
		w.mu.Lock()
		for _, e := range w.fifo {
			w.requeue(e)
		}
		w.fifo = nil
		w.mu.Unlock()
		if !time.Now().Before(w.p.drainEnd) || ctx.Err() != nil {
			w.mu.Lock()
			w.t.timedOut += int64(len(w.retry))
			w.mu.Unlock()
			w.failAll()
			return
		}
		w.t.reconnects++
	}
}

// requeue schedules e for another attempt, or fails it; w.mu is held.
func (w *worker) requeue(e *entry) {
	if e.attempt >= w.p.retries {
		w.t.failed++
		return
	}
	e.attempt++
	w.t.retried++
	w.retry = append(w.retry, e)
}

func (w *worker) failAll() {
	w.mu.Lock()
	w.t.failed += int64(len(w.retry) + len(w.fifo))
	w.retry, w.fifo = nil, nil
	w.mu.Unlock()
}
