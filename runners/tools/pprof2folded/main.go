// Command pprof2folded turns a Go CPU profile (the pprof protobuf that `-cpuprofile` or
// runtime/pprof writes, gzipped or not) into folded stacks: one line per distinct stack,
// frames root-first separated by ';', one space, then the stack's CPU time in nanoseconds.
//
//	pprof2folded cpu.pprof [cpu.folded]   (without an output file: standard output)
//
// Frames are function names only (no file:line); functions the compiler inlined into their
// caller get a frame each, as `go tool pprof` shows them. Lines are sorted, so the same
// profile always gives the same text. Capping the number of stacks is the caller's job
// (runners/benchdash_runner/pprof.py).
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/google/pprof/profile"
)

// MaxFrameLen is the longest frame name the benchdash profile contract accepts.
const MaxFrameLen = 1000

func main() {
	args := os.Args[1:]
	if len(args) < 1 || len(args) > 2 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(os.Stderr, "usage: pprof2folded CPU_PROFILE [FOLDED]")
		os.Exit(2)
	}
	if err := convert(args[0], args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "pprof2folded:", err)
		os.Exit(1)
	}
}

// convert writes the folded stacks of the profile at in to out[0], or to standard output.
func convert(in string, out []string) error {
	if len(out) == 0 {
		return run(in, os.Stdout)
	}
	var buf bytes.Buffer
	if err := run(in, &buf); err != nil {
		return err
	}
	return os.WriteFile(out[0], buf.Bytes(), 0o644)
}

func run(path string, w io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	stacks, err := Fold(p)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	out := bufio.NewWriter(w)
	if err := Write(out, stacks); err != nil {
		return err
	}
	return out.Flush()
}

// CPUIndex is the index of the sample value that holds CPU time in nanoseconds.
func CPUIndex(p *profile.Profile) (int, error) {
	var seen []string
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			return i, nil
		}
		seen = append(seen, st.Type+"/"+st.Unit)
	}
	return 0, fmt.Errorf("not a CPU profile: no cpu/nanoseconds sample type (has %s)",
		strings.Join(seen, ", "))
}

// Fold sums the CPU time of the profile's samples per stack (frames root-first, joined by ';').
func Fold(p *profile.Profile) (map[string]int64, error) {
	idx, err := CPUIndex(p)
	if err != nil {
		return nil, err
	}
	stacks := make(map[string]int64)
	var frames []string
	for _, s := range p.Sample {
		if idx >= len(s.Value) || s.Value[idx] <= 0 {
			continue
		}
		frames = frames[:0]
		// The leaf is Location[0]; within a location, Line[0] is the innermost inlined function.
		for i := len(s.Location) - 1; i >= 0; i-- {
			frames = appendFrames(frames, s.Location[i])
		}
		if len(frames) == 0 {
			frames = append(frames, "[unknown]")
		}
		stacks[strings.Join(frames, ";")] += s.Value[idx]
	}
	return stacks, nil
}

func appendFrames(frames []string, loc *profile.Location) []string {
	if len(loc.Line) == 0 { // not symbolized: the address is all there is
		return append(frames, fmt.Sprintf("0x%x", loc.Address))
	}
	for j := len(loc.Line) - 1; j >= 0; j-- {
		name := ""
		if fn := loc.Line[j].Function; fn != nil {
			name = fn.Name
		}
		frames = append(frames, FrameName(name))
	}
	return frames
}

// FrameName makes a function name a valid frame: no ';', newline or NUL, 1..MaxFrameLen
// characters.
func FrameName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch r {
		case ';', '\n', '\r', 0:
			return '_'
		}
		return r
	}, strings.ToValidUTF8(name, "?"))
	if name == "" {
		return "[unknown]"
	}
	if utf8.RuneCountInString(name) > MaxFrameLen {
		name = string([]rune(name)[:MaxFrameLen])
	}
	return name
}

// Write prints the stacks as folded lines, sorted by stack.
func Write(w io.Writer, stacks map[string]int64) error {
	keys := make([]string, 0, len(stacks))
	for k := range stacks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := fmt.Fprintf(w, "%s %d\n", k, stacks[k]); err != nil {
			return err
		}
	}
	return nil
}
