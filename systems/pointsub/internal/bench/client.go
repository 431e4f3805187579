package bench

import (
	"context"
	"errors"
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

func (w *worker) notify() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// nextEntry returns the next message to send, or nil when the session's work is over.
func (w *worker) nextEntry(stop <-chan struct{}, ticker *time.Ticker) *entry {
	for {
		now := time.Now()
		w.mu.Lock()
		if len(w.retry) > 0 {
			e := w.retry[0]
			w.retry = w.retry[1:]
			w.mu.Unlock()
			return e
		}
		idle := len(w.fifo) == 0
		w.mu.Unlock()
		past := !now.Before(w.p.deadline)
		if (past && idle) || !now.Before(w.p.drainEnd) {
			return nil
		}
		if !past && w.p.mode == Saturate {
			return w.newEntry()
		}
		var tick <-chan time.Time
		if !past && w.made < w.p.quota {
			tick = ticker.C
		}
		until := w.p.drainEnd
		if !past {
			until = w.p.deadline
		}
		timer := time.NewTimer(time.Until(until))
		select {
		case <-tick:
			timer.Stop()
			return w.newEntry()
		case <-w.wake:
		case <-timer.C:
		case <-stop:
			timer.Stop()
			return nil
		}
		timer.Stop()
	}
}

func (w *worker) newEntry() *entry {
	e := &entry{payload: w.p.payloads[w.next%len(w.p.payloads)]}
	w.next++
	w.made++
	w.t.sent++
	return e
}

// acquire takes a window slot for e. It gives up when the session stops or the drain time
// ends (the acknowledgements stopped coming): then e goes back to the retry queue, or, never
// sent, is dropped.
func (w *worker) acquire(slots chan struct{}, stop <-chan struct{}, e *entry) bool {
	timer := time.NewTimer(time.Until(w.p.drainEnd))
	defer timer.Stop()
	select {
	case slots <- struct{}{}:
		return true
	case <-stop:
	case <-timer.C:
	}
	w.mu.Lock()
	if e.start.IsZero() {
		w.t.sent--
	} else {
		w.retry = append([]*entry{e}, w.retry...)
	}
	w.mu.Unlock()
	return false
}

// session sends and acknowledges over one connection. It returns nil when the work is done
// or the drain time is over, or the error that broke the connection.
func (w *worker) session(ctx context.Context, conn net.Conn, ticker *time.Ticker) error {
	tr := transport.New(conn, w.p.trOpts)
	slots := make(chan struct{}, w.p.window)
	stop := make(chan struct{})
	errs := make(chan error, 2)
	fail := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	writerDone, readerDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(writerDone)
		for {
			e := w.nextEntry(stop, ticker)
			if e == nil {
				return
			}
			if !w.acquire(slots, stop, e) {
				return
			}
			w.mu.Lock()
			if e.start.IsZero() && !time.Now().Before(w.p.deadline) {
				w.t.sent-- // made before the deadline, but its turn came after: never sent
				w.mu.Unlock()
				<-slots
				continue
			}
			if e.start.IsZero() {
				e.start = time.Now()
			}
			w.fifo = append(w.fifo, e)
			w.mu.Unlock()
			if err := tr.Send(e.payload); err != nil {
				fail(err)
				return
			}
		}
	}()
	go func() {
		defer close(readerDone)
		w.read(tr, slots, fail)
	}()
	var err error
	select {
	case <-writerDone:
	case err = <-errs:
	case <-ctx.Done():
		err = ctx.Err()
	}
	close(stop)
	conn.Close()
	<-writerDone
	<-readerDone
	return err
}

// read matches acknowledgements and error reports to the messages in flight, in order.
func (w *worker) read(tr *transport.Transport, slots chan struct{}, fail func(error)) {
	var buf []byte
	for {
		m, err := tr.Receive(buf)
		if err != nil && !transport.Recoverable(err) {
			if errors.Is(err, transport.ErrBadHeader) {
				w.mu.Lock()
				w.t.desync++
				w.mu.Unlock()
			}
			fail(err)
			return
		}
		now := time.Now()
		w.mu.Lock()
		if len(w.fifo) == 0 {
			w.mu.Unlock()
			fail(errors.New("acknowledgement without a message"))
			return
		}
		e := w.fifo[0]
		w.fifo = w.fifo[1:]
		switch {
		case err == nil && m.Kind == transport.Control:
			w.t.acked++
			w.t.ackedBytes += int64(len(e.payload))
			w.t.latencies = append(w.t.latencies, now.Sub(e.start))
		default: // an error report, or an answer that failed its own check: resend
			if err != nil {
				w.t.checksum++
			}
			w.requeue(e)
		}
		w.mu.Unlock()
		<-slots
		w.notify()
		buf = m.Data
	}
}
