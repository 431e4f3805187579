// Command cachex-bench runs the product-search benchmark and prints a report.
//
//	cachex-bench -profile quick -json out.json
//	cachex-bench -scenarios cloud -duration 5s -reps 1 -think-time 1ms
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"benchdash.dev/cachex/internal/harness"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cachex-bench:", err)
		os.Exit(1)
	}
}

func run() error {
	profileName := flag.String("profile", "quick", "quick, standard or full")
	scenarios := flag.String("scenarios", "", "comma-separated scenario names (default: all)")
	duration := flag.Duration("duration", 0, "override the profile's duration per measured run")
	refDuration := flag.Duration("ref-duration", 0, "override the profile's duration per reference run")
	reps := flag.Int("reps", 0, "override the profile's repetitions")
	maxWorkers := flag.Int("max-workers", -1, "cap on workers per scenario (0 = the scenario's own; default: the profile's)")
	think := flag.Duration("think-time", 0, "pause after each request (1ms reproduces the seed's paced loop)")
	refs := flag.Bool("refs", true, "also run the no-cache and no-singleflight references")
	jsonPath := flag.String("json", "", "write the JSON report to this file")
	seed := flag.Uint64("seed", 1, "traffic seed")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile (pprof) of the scenario runs to this file")
	flag.Parse()

	p, ok := harness.Profiles[*profileName]
	if !ok {
		return fmt.Errorf("unknown profile %q", *profileName)
	}
	if *duration > 0 {
		p.Duration = *duration
		if *refDuration == 0 {
			p.RefDuration = *duration
		}
	}
	if *refDuration > 0 {
		p.RefDuration = *refDuration
	}
	if *reps > 0 {
		p.Repetitions = *reps
	}
	if *maxWorkers >= 0 {
		p.MaxWorkers = *maxWorkers
	}
	selected := harness.Scenarios
	if *scenarios != "" {
		selected = nil
		for _, name := range strings.Split(*scenarios, ",") {
			s, err := harness.FindScenario(strings.TrimSpace(name))
			if err != nil {
				return err
			}
			selected = append(selected, s)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := harness.Options{Profile: p, ThinkTime: *think, References: *refs, Seed: *seed}
	report := harness.NewReport(opts)
	fmt.Printf("cachex product-search benchmark: profile %s, %s, %d CPUs, %s, %v per run x %d repetitions\n",
		p.Name, report.Platform, report.CPUs, report.GoVersion, p.Duration, p.Repetitions)
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	for _, s := range selected {
		res, err := harness.RunScenario(ctx, s, opts, os.Stdout)
		if err != nil {
			return err
		}
		harness.Print(os.Stdout, s, res, opts)
		report.Scenarios = append(report.Scenarios, res)
	}
	report.FinishedAt = time.Now().UTC()
	if *jsonPath == "" {
		return nil
	}
	data, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(*jsonPath, append(data, '\n'), 0o644)
}

// startCPUProfile starts Go's CPU profiler writing to path; the returned func stops it and
// closes the file (the profile is complete only then).
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the CPU profile:", err)
		}
	}, nil
}
