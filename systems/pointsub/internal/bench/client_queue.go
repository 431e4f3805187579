package bench

import "time"

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
