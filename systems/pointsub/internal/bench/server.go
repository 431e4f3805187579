package bench

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"

	"benchdash.dev/pointsub/netsim"
	"benchdash.dev/pointsub/transport"
)

// server acknowledges every framed message it receives.
type server struct {
	ln       net.Listener
	cond     *netsim.Condition
	seed     uint64
	trOpts   transport.Options
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	sims     []*netsim.Conn
	checksum atomic.Int64 // data frames that failed their checksum
	desync   atomic.Int64 // connections closed because a header was bad
	closed   bool
}

func (s *server) serve() {
	s.conns = map[net.Conn]struct{}{}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for i := uint64(0); ; i++ {
			c, err := s.ln.Accept()
			if err != nil {
				return
			}
			if s.cond != nil {
				sim, err := netsim.Wrap(c, *s.cond, s.seed+2*i+1)
				if err != nil {
					c.Close()
					return
				}
				s.mu.Lock()
				s.sims = append(s.sims, sim)
				s.mu.Unlock()
				c = sim
			}
			if !s.track(c) {
				c.Close()
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer s.untrack(c)
				s.handle(c)
			}()
		}
	}()
}

func (s *server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

// handle answers each message with an ack, each recoverable failure with an error report,
// and closes the connection on anything else. Answers are flushed when no more input waits.
func (s *server) handle(c net.Conn) {
	tr := transport.New(c, s.trOpts)
	var buf []byte
	for {
		m, err := tr.Receive(buf)
		switch {
		case err == nil && m.Kind == transport.Data:
			buf = m.Data[:0]
			err = tr.Queue(transport.Control, nil)
		case transport.Recoverable(err):
			s.checksum.Add(1)
			err = tr.Queue(transport.Error, []byte(err.Error()))
		case err == nil:
			return // the client sends only data
		default:
			if errors.Is(err, transport.ErrBadHeader) {
				s.desync.Add(1)
			}
			return
		}
		if err == nil && tr.Buffered() == 0 {
			err = tr.Flush()
		}
		if err != nil {
			return
		}
	}
}

// close stops accepting, closes every connection and waits for the handlers.
func (s *server) close() netsim.Stats {
	s.ln.Close()
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	var st netsim.Stats
	for _, sim := range s.sims {
		st = st.Add(sim.Stats())
	}
	return st
}
