package bench

import (
	"context"
	"errors"
	"net"
	"time"

	"benchdash.dev/pointsub/transport"
)

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
