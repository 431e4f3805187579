package frame

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestRoundTripFullAndCompact(t *testing.T) {
	for _, tc := range []struct {
		name    string
		payload []byte
		flags   Flags
		wantLen int
	}{
		{"empty control", nil, Control, FullSize},
		{"small full", []byte("hello"), Normal, FullSize},
		{"small compact", []byte("hello"), Compact, CompactSize},
		{"compact falls back when too big", make([]byte, MaxCompactSize+1), Compact, FullSize},
		{"fragment", bytes.Repeat([]byte{7}, 4096), Fragmented | LastFrame, FullSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := New(tc.payload, tc.flags, true)
			enc := Append(nil, h)
			if len(enc) != tc.wantLen {
				t.Fatalf("encoded %d bytes, want %d", len(enc), tc.wantLen)
			}
			got, err := Read(bytes.NewReader(enc))
			if err != nil {
				t.Fatal(err)
			}
			if got != h {
				t.Fatalf("decoded %+v, want %+v", got, h)
			}
			if err := got.Verify(tc.payload); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestCorruptedPayloadIsDetected(t *testing.T) {
	payload := bytes.Repeat([]byte("pointsub"), 100)
	for _, flags := range []Flags{Normal, Compact} {
		h := New(payload, flags, true)
		bad := append([]byte(nil), payload...)
		bad[123] ^= 0x10
		if err := h.Verify(bad); !errors.Is(err, ErrChecksum) {
			t.Fatalf("%v: corrupted payload verified: %v", flags, err)
		}
	}
}

func TestBadHeadersAreRejected(t *testing.T) {
	for name, raw := range map[string][]byte{
		"unknown flag":       {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0},
		"first byte garbage": {0x83, 0, 0, 1},
		"empty with size":    {0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, byte(Empty)},
		"size without empty": {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		"last without frag":  {0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, byte(LastFrame)},
		"compact in full":    {0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, byte(Compact)},
		"compact empty size": {byte(Compact | Empty), 0, 0, 3},
	} {
		if _, err := Read(bytes.NewReader(raw)); !errors.Is(err, ErrBadHeader) {
			t.Errorf("%s: got %v, want ErrBadHeader", name, err)
		}
	}
}

func TestTruncatedHeaders(t *testing.T) {
	if _, err := Read(bytes.NewReader(nil)); err != io.EOF {
		t.Fatalf("empty stream: %v", err)
	}
	full := Append(nil, New([]byte("x"), Normal, true))
	if _, err := Read(bytes.NewReader(full[:7])); err != io.ErrUnexpectedEOF {
		t.Fatalf("cut header: %v", err)
	}
}

func TestAppendPanicsOnInvalidHeader(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an oversized frame")
		}
	}()
	Append(nil, Header{Size: MaxFrameSize + 1})
}

func TestFlagsString(t *testing.T) {
	if s := (Fragmented | LastFrame).String(); s != "fragmented|last" {
		t.Fatal(s)
	}
	if s := Normal.String(); s != "normal" {
		t.Fatal(s)
	}
}
