package transport

import (
	"errors"
	"fmt"
	"io"

	"benchdash.dev/pointsub/frame"
)

// Buffered returns how many received bytes wait in the read buffer (0: a Receive would block).
func (t *Transport) Buffered() int { return t.r.Buffered() }

// Receive reads the next message into buf (grown as needed) and returns it. Its error is
// recoverable (see Recoverable) or fatal.
func (t *Transport) Receive(buf []byte) (Message, error) {
	t.rmu.Lock()
	defer t.rmu.Unlock()
	var (
		total, frames int
		kind          Kind
		flags         frame.Flags
		problem       error
	)
	buf = buf[:0]
	for {
		h, err := frame.Read(t.r)
		if err != nil {
			if frames > 0 && errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return Message{}, err
		}
		k := kindOf(h.Flags)
		if frames > 0 && (h.Flags&frame.Fragmented == 0 || k != kind) {
			return Message{}, fmt.Errorf("%w: %v frame inside a fragmented message", ErrBadHeader, h.Flags)
		}
		kind, flags = k, h.Flags
		frames++
		size := int(h.Size)
		if problem == nil && total+size > t.opts.MaxMessageSize {
			problem = fmt.Errorf("%w: more than %d bytes", ErrTooLarge, t.opts.MaxMessageSize)
		}
		if problem != nil && errors.Is(problem, ErrTooLarge) {
			if _, err := t.r.Discard(size); err != nil {
				return Message{}, noEOF(err)
			}
		} else {
			buf = grow(buf, total+size)
			if _, err := io.ReadFull(t.r, buf[total:total+size]); err != nil {
				return Message{}, noEOF(err)
			}
			if !t.opts.NoChecksum && problem == nil {
				problem = h.Verify(buf[total : total+size])
			}
			if h.Flags&frame.Compressed != 0 && problem == nil {
				problem = ErrUnsupported
			}
		}
		total += size
		last := h.Flags&frame.Fragmented == 0 || h.Flags&frame.LastFrame != 0
		if t.opts.OnProgress != nil && flags&frame.Fragmented != 0 && total >= t.opts.ProgressThreshold {
			p := Progress{Bytes: int64(total), Total: -1, Frames: frames, Done: last}
			if last {
				p.Total = int64(total)
			}
			t.opts.OnProgress(p)
		}
		if last {
			if problem != nil {
				return Message{Kind: kind}, problem
			}
			return Message{Kind: kind, Data: buf[:total]}, nil
		}
	}
}

func kindOf(f frame.Flags) Kind {
	switch {
	case f&frame.Error != 0:
		return Error
	case f&frame.Control != 0:
		return Control
	}
	return Data
}

func grow(buf []byte, n int) []byte {
	if cap(buf) >= n {
		return buf[:n]
	}
	bigger := make([]byte, n, max(n, 2*cap(buf)))
	copy(bigger, buf)
	return bigger
}

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
