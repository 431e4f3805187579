package frame

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
)

// Flags describe a frame. The values are part of the wire format.
type Flags uint32

// Frame flags.
const (
	Normal     Flags = 0x00 // a whole message in one frame
	Fragmented Flags = 0x01 // one fragment of a message split over several frames
	LastFrame  Flags = 0x02 // the last fragment (always with Fragmented)
	Compressed Flags = 0x04 // payload is compressed (reserved: this transport never sets it)
	Error      Flags = 0x08 // payload is an error report from the peer
	Control    Flags = 0x10 // payload is a control message (for example an acknowledgement)
	Empty      Flags = 0x20 // zero-length payload
	Compact    Flags = 0x40 // header is the 4-byte compact layout
	known            = Fragmented | LastFrame | Compressed | Error | Control | Empty | Compact
)

// Header sizes and limits.
const (
	FullSize       = 12
	CompactSize    = 4
	MaxFrameSize   = 1<<24 - 1 // largest payload of a full frame
	MaxCompactSize = 1<<16 - 1 // largest payload of a compact frame
)

// Errors reported by the codec.
var (
	// ErrBadHeader means the bytes read are not a valid header: the stream is out of step.
	ErrBadHeader = errors.New("frame: bad header")
	// ErrChecksum means a payload does not match its header's checksum.
	ErrChecksum = errors.New("frame: checksum mismatch")
)

var table = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC-32C of p.
func Checksum(p []byte) uint32 { return crc32.Checksum(p, table) }

// Header is one decoded frame header.
type Header struct {
	Size  uint32 // payload length in bytes
	CRC   uint32 // CRC-32C of the payload (only the low byte for compact headers)
	Flags Flags
}

// Len returns the encoded length of the header.
func (h Header) Len() int {
	if h.Flags&Compact != 0 {
		return CompactSize
	}
	return FullSize
}

// Verify checks payload against the header's checksum (8 bits for compact headers).
func (h Header) Verify(payload []byte) error {
	sum := Checksum(payload)
	if h.Flags&Compact != 0 {
		sum &= 0xff
	}
	if sum != h.CRC {
		return fmt.Errorf("%w: header %#x, payload %#x", ErrChecksum, h.CRC, sum)
	}
	return nil
}

// String names the flags, for logs and errors.
func (f Flags) String() string {
	if f == Normal {
		return "normal"
	}
	names := []string{}
	for _, n := range []struct {
		f Flags
		s string
	}{{Fragmented, "fragmented"}, {LastFrame, "last"}, {Compressed, "compressed"}, {Error, "error"},
		{Control, "control"}, {Empty, "empty"}, {Compact, "compact"}} {
		if f&n.f != 0 {
			names = append(names, n.s)
		}
	}
	if f&^known != 0 {
		names = append(names, fmt.Sprintf("unknown(%#x)", uint32(f&^known)))
	}
	return strings.Join(names, "|")
}

// New builds the header for payload: the checksum is computed unless checksum is false,
// Empty is set for an empty payload, and Compact is honoured only when the payload fits.
func New(payload []byte, flags Flags, checksum bool) Header {
	flags &^= Empty
	if len(payload) == 0 {
		flags |= Empty
	}
	if flags&Compact != 0 && len(payload) > MaxCompactSize {
		flags &^= Compact
	}
	h := Header{Size: uint32(len(payload)), Flags: flags}
	if checksum {
		h.CRC = Checksum(payload)
		if flags&Compact != 0 {
			h.CRC &= 0xff
		}
	}
	return h
}

func (h Header) validate() error {
	switch {
	case h.Flags&^known != 0:
		return fmt.Errorf("%w: unknown flags %#x", ErrBadHeader, uint32(h.Flags))
	case h.Size > MaxFrameSize:
		return fmt.Errorf("%w: size %d over %d", ErrBadHeader, h.Size, MaxFrameSize)
	case h.Flags&Compact != 0 && (h.Size > MaxCompactSize || h.CRC > 0xff):
		return fmt.Errorf("%w: compact header with size %d", ErrBadHeader, h.Size)
	case (h.Flags&Empty != 0) != (h.Size == 0):
		return fmt.Errorf("%w: empty flag with size %d", ErrBadHeader, h.Size)
	case h.Flags&LastFrame != 0 && h.Flags&Fragmented == 0:
		return fmt.Errorf("%w: last frame without fragmented", ErrBadHeader)
	}
	return nil
}

// Append appends the encoded header to dst. It panics on a header that could not be decoded
// again (a programming error, not bad input).
func Append(dst []byte, h Header) []byte {
	if err := h.validate(); err != nil {
		panic(err)
	}
	if h.Flags&Compact != 0 {
		return append(dst, byte(h.Flags), byte(h.CRC), byte(h.Size>>8), byte(h.Size))
	}
	dst = binary.BigEndian.AppendUint32(dst, h.Size)
	dst = binary.BigEndian.AppendUint32(dst, h.CRC)
	return binary.BigEndian.AppendUint32(dst, uint32(h.Flags))
}

// Read reads and validates one header from r. A stream that ends before the first byte
// returns io.EOF; one that ends inside a header returns io.ErrUnexpectedEOF.
func Read(r io.Reader) (Header, error) {
	var buf [FullSize]byte
	if _, err := io.ReadFull(r, buf[:CompactSize]); err != nil {
		return Header{}, err
	}
	var h Header
	switch {
	case Flags(buf[0])&Compact != 0:
		h = Header{Flags: Flags(buf[0]), CRC: uint32(buf[1]), Size: uint32(binary.BigEndian.Uint16(buf[2:4]))}
	case buf[0] == 0:
		if _, err := io.ReadFull(r, buf[CompactSize:]); err != nil {
			return Header{}, noEOF(err)
		}
		h = Header{
			Size:  binary.BigEndian.Uint32(buf[0:4]),
			CRC:   binary.BigEndian.Uint32(buf[4:8]),
			Flags: Flags(binary.BigEndian.Uint32(buf[8:12])),
		}
		if h.Flags&Compact != 0 {
			return Header{}, fmt.Errorf("%w: compact flag in a full header", ErrBadHeader)
		}
	default:
		return Header{}, fmt.Errorf("%w: first byte %#x", ErrBadHeader, buf[0])
	}
	return h, h.validate()
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
