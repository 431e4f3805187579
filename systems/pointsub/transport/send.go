package transport

import (
	"fmt"

	"benchdash.dev/pointsub/frame"
	"benchdash.dev/pointsub/sizeclass"
)

// Send writes one data message and flushes it.
func (t *Transport) Send(msg []byte) error { return t.send(Data, msg, true) }

// SendControl writes one control message and flushes it.
func (t *Transport) SendControl(payload []byte) error { return t.send(Control, payload, true) }

// SendError writes an error report and flushes it.
func (t *Transport) SendError(reason string) error { return t.send(Error, []byte(reason), true) }

// Queue writes one message of kind into the write buffer without flushing it.
func (t *Transport) Queue(kind Kind, payload []byte) error { return t.send(kind, payload, false) }

// Flush writes out whatever Queue left in the write buffer.
func (t *Transport) Flush() error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	return t.w.Flush()
}

func (t *Transport) chunkSize(n int) int {
	c := t.opts.ChunkSize
	if c <= 0 {
		c = sizeclass.Of(n).ChunkSize()
	}
	return min(c, frame.MaxFrameSize)
}

func (t *Transport) send(kind Kind, msg []byte, flush bool) error {
	if len(msg) > t.opts.MaxMessageSize {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(msg), t.opts.MaxMessageSize)
	}
	t.wmu.Lock()
	defer t.wmu.Unlock()
	base := kindFlags[kind]
	if t.opts.Compact {
		base |= frame.Compact
	}
	chunk := t.chunkSize(len(msg))
	report := t.opts.OnProgress != nil && len(msg) >= t.opts.ProgressThreshold
	frames := 0
	for off := 0; off < len(msg) || frames == 0; {
		end := min(off+chunk, len(msg))
		flags := base
		if len(msg) > chunk {
			flags |= frame.Fragmented
			if end == len(msg) {
				flags |= frame.LastFrame
			}
		}
		p := msg[off:end]
		t.hdr = frame.Append(t.hdr[:0], frame.New(p, flags, !t.opts.NoChecksum))
		if _, err := t.w.Write(t.hdr); err != nil {
			return err
		}
		if _, err := t.w.Write(p); err != nil {
			return err
		}
		off, frames = end, frames+1
		if report {
			t.opts.OnProgress(Progress{Sending: true, Bytes: int64(off), Total: int64(len(msg)),
				Frames: frames, Done: off == len(msg)})
		}
	}
	if flush {
		return t.w.Flush()
	}
	return nil
}
