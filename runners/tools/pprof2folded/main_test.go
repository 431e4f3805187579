package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

//go:noinline
func spinHash(seed uint64) uint64 {
	h := seed | 1
	for i := 0; i < 1_000_000; i++ {
		h ^= h << 13
		h ^= h >> 7
		h ^= h << 17
	}
	return h
}

var sink uint64

const self = "benchdash.dev/runners/pprof2folded."

func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// recordCPU profiles this process while spinHash burns cpu of CPU time (at most 10 s of wall
// time on a busy machine), as a Go program's -cpuprofile would, and returns the profile's path.
func recordCPU(t *testing.T, cpu time.Duration) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		t.Skipf("a CPU profile is already running (go test -cpuprofile?): %v", err)
	}
	start, deadline := cpuTime(t), time.Now().Add(10*time.Second)
	for cpuTime(t)-start < cpu && time.Now().Before(deadline) {
		sink += spinHash(sink)
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func parseFolded(t *testing.T, text string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		cut := strings.LastIndexByte(line, ' ')
		if cut <= 0 {
			t.Fatalf("not a folded line: %q", line)
		}
		w, err := strconv.ParseInt(line[cut+1:], 10, 64)
		if err != nil || w <= 0 {
			t.Fatalf("bad weight in %q", line)
		}
		if _, dup := out[line[:cut]]; dup {
			t.Fatalf("stack printed twice: %q", line[:cut])
		}
		out[line[:cut]] = w
	}
	return out
}

func TestRealProfileFoldsRootFirstWithCPUTime(t *testing.T) {
	path := recordCPU(t, 300*time.Millisecond)
	var buf bytes.Buffer
	if err := run(path, &buf); err != nil {
		t.Fatal(err)
	}
	stacks := parseFolded(t, buf.String())

	raw, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	p, err := profile.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	var want, total, inSpin int64
	for _, s := range p.Sample {
		want += s.Value[1] // runtime/pprof writes samples/count, cpu/nanoseconds
	}
	for stack, w := range stacks {
		total += w
		frames := strings.Split(stack, ";")
		for _, f := range frames {
			if strings.Contains(f, ":") && !strings.HasPrefix(f, "0x") {
				t.Fatalf("frame with a file:line: %q", f)
			}
		}
		spin := indexOf(frames, self+"spinHash")
		if spin < 0 {
			continue
		}
		inSpin += w
		test := indexOf(frames, self+"TestRealProfileFoldsRootFirstWithCPUTime")
		runner := indexOf(frames, "testing.tRunner")
		if !(runner >= 0 && runner < test && test < spin) {
			t.Fatalf("frames not root-first: %q", stack)
		}
	}
	if total != want || total <= 0 {
		t.Fatalf("folded weights sum to %d ns, the profile's samples to %d ns", total, want)
	}
	if total < int64(100*time.Millisecond) || inSpin*2 < total {
		t.Fatalf("spinHash in %d of %d ns: the profile missed the busy function", inSpin, total)
	}
}

func indexOf(frames []string, name string) int {
	for i, f := range frames {
		if f == name {
			return i
		}
	}
	return -1
}

func fn(id uint64, name string) *profile.Function {
	return &profile.Function{ID: id, Name: name, SystemName: name}
}

func TestInlinedFramesAddressesAndSums(t *testing.T) {
	root, caller, inlined, leaf := fn(1, "main.main"), fn(2, "pkg.Outer"), fn(3, "pkg.inlined"), fn(4, "pkg.Leaf")
	// One location holding pkg.inlined inlined into pkg.Outer (innermost first, as pprof has it).
	both := &profile.Location{ID: 1, Line: []profile.Line{{Function: inlined}, {Function: caller}}}
	main := &profile.Location{ID: 2, Line: []profile.Line{{Function: root}}}
	leafLoc := &profile.Location{ID: 3, Line: []profile.Line{{Function: leaf}}}
	bare := &profile.Location{ID: 4, Address: 0x4a2f10}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{leafLoc, both, main}, Value: []int64{1, 10_000_000}},
			{Location: []*profile.Location{leafLoc, both, main}, Value: []int64{2, 20_000_000}},
			{Location: []*profile.Location{both, main}, Value: []int64{1, 7}},
			{Location: []*profile.Location{bare, main}, Value: []int64{1, 5}},
			{Location: []*profile.Location{main}, Value: []int64{0, 0}},
			{Location: nil, Value: []int64{1, 3}},
		},
	}
	got, err := Fold(p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"main.main;pkg.Outer;pkg.inlined;pkg.Leaf": 30_000_000,
		"main.main;pkg.Outer;pkg.inlined":          7,
		"main.main;0x4a2f10":                       5,
		"[unknown]":                                3,
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("%s: got %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, got); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if lines[0] != "[unknown] 3" || lines[1] != "main.main;0x4a2f10 5" || len(lines) != 4 {
		t.Fatalf("not sorted by stack: %q", lines)
	}
}

func TestNotACPUProfile(t *testing.T) {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}}
	if _, err := Fold(p); err == nil || !strings.Contains(err.Error(), "alloc_space/bytes") {
		t.Fatalf("heap profile accepted or unclear error: %v", err)
	}
	var buf bytes.Buffer
	bad := filepath.Join(t.TempDir(), "junk")
	if err := os.WriteFile(bad, []byte("not a profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(bad, &buf); err == nil || !strings.Contains(err.Error(), "junk") {
		t.Fatalf("junk accepted or error without the file name: %v", err)
	}
}

func TestFrameNames(t *testing.T) {
	cases := map[string]string{
		"":                     "[unknown]",
		"a;b":                  "a_b",
		"x\ny\rz\x00":          "x_y_z_",
		"pkg.F[...]":           "pkg.F[...]",
		"(*T).M.func1 wrapper": "(*T).M.func1 wrapper",
	}
	for in, want := range cases {
		if got := FrameName(in); got != want {
			t.Errorf("FrameName(%q) = %q, want %q", in, got, want)
		}
	}
	long := FrameName(strings.Repeat("é", 1500))
	if n := len([]rune(long)); n != MaxFrameLen {
		t.Errorf("long name kept %d characters", n)
	}
}

func TestConvertWritesTheOutputFile(t *testing.T) {
	path := recordCPU(t, 100*time.Millisecond)
	out := filepath.Join(t.TempDir(), "cpu.folded")
	if err := convert(path, []string{out}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if stacks := parseFolded(t, string(data)); len(stacks) == 0 {
		t.Fatal("no stacks written")
	}
	if err := convert(filepath.Join(t.TempDir(), "missing"), []string{out}); err == nil {
		t.Fatal("a missing profile was converted")
	}
}
