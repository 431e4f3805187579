package transport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"

	"benchdash.dev/pointsub/frame"
	"benchdash.dev/pointsub/sizeclass"
)

// Defaults for zero Options fields.
const (
	DefaultMaxMessageSize    = 32 << 20
	DefaultBufferSize        = 8 << 10
	DefaultProgressThreshold = 1 << 20
)

// Errors of Send and Receive. ErrChecksum and ErrBadHeader are the frame package's.
var (
	ErrTooLarge    = errors.New("transport: message over the maximum size")
	ErrUnsupported = errors.New("transport: compressed frames are not supported")
	ErrChecksum    = frame.ErrChecksum
	ErrBadHeader   = frame.ErrBadHeader
)

// Recoverable reports whether the stream is still usable after err from Receive.
func Recoverable(err error) bool {
	return errors.Is(err, ErrChecksum) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrUnsupported)
}

// Kind is what a message carries.
type Kind int

// Message kinds.
const (
	Data    Kind = iota // application data
	Control             // a control message (acknowledgements)
	Error               // an error report from the peer
)

var kindFlags = [...]frame.Flags{Data: frame.Normal, Control: frame.Control, Error: frame.Error}

// Message is one received message. Data aliases the buffer given to Receive.
type Message struct {
	Kind Kind
	Data []byte
}

// Progress reports how far a large message has travelled.
type Progress struct {
	Sending bool  // true while sending, false while receiving
	Bytes   int64 // payload bytes so far
	Total   int64 // message size (-1 while receiving, until Done)
	Frames  int   // frames so far
	Done    bool  // the message is complete
}

// Options configure a Transport; the zero value is usable.
type Options struct {
	MaxMessageSize    int            // largest message sent or accepted (default 32 MiB)
	NoChecksum        bool           // send zero checksums and skip verification (both ends)
	Compact           bool           // use 4-byte headers for frames under 64 KiB
	ChunkSize         int            // frame payload size; 0 picks it by size class
	ReadBufferSize    int            // bufio size on the read side (default 8 KiB)
	WriteBufferSize   int            // bufio size on the write side (default 8 KiB)
	ProgressThreshold int            // messages at least this large report progress (default 1 MiB)
	OnProgress        func(Progress) // called after every frame of a large message
}

// Transport frames messages over one stream. Sends and receives may run concurrently.
type Transport struct {
	opts Options
	rmu  sync.Mutex
	r    *bufio.Reader
	wmu  sync.Mutex
	w    *bufio.Writer
	hdr  []byte
}

// New returns a Transport over rw.
func New(rw io.ReadWriter, opts Options) *Transport {
	if opts.MaxMessageSize <= 0 {
		opts.MaxMessageSize = DefaultMaxMessageSize
	}
	if opts.ReadBufferSize <= 0 {
		opts.ReadBufferSize = DefaultBufferSize
	}
	if opts.WriteBufferSize <= 0 {
		opts.WriteBufferSize = DefaultBufferSize
	}
	if opts.ProgressThreshold <= 0 {
		opts.ProgressThreshold = DefaultProgressThreshold
	}
	return &Transport{
		opts: opts,
		r:    bufio.NewReaderSize(rw, opts.ReadBufferSize),
		w:    bufio.NewWriterSize(rw, opts.WriteBufferSize),
		hdr:  make([]byte, 0, frame.FullSize),
	}
}

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

// Buffered returns how many received bytes wait in the read buffer (0: a Receive would block).
func (t *Transport) Buffered() int { return t.r.Buffered() }

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
