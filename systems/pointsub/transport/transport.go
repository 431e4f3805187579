package transport

import (
	"bufio"
	"errors"
	"io"
	"sync"

	"benchdash.dev/pointsub/frame"
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
