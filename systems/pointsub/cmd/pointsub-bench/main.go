// Command pointsub-bench runs the pointsub benchmark scenarios and writes their results.
//
//	pointsub-bench -profile quick [-scenarios throughput/1kb,network] [-mode saturate|paced] [-json out.json]
//
// Each repetition runs the scenario over libp2p and then, for scenarios without a simulated
// network in saturate mode, over loopback TCP (the same-run reference).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"benchdash.dev/pointsub/internal/bench"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pointsub-bench:", err)
		os.Exit(1)
	}
}

func selectScenarios(list string) ([]bench.Scenario, error) {
	if list == "" {
		return bench.Scenarios, nil
	}
	var out []bench.Scenario
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		n := len(out)
		for _, s := range bench.Scenarios {
			if s.Name == name || s.Group() == name {
				out = append(out, s)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("unknown scenario or group %q", name)
		}
	}
	return out, nil
}

func run() error {
	profileName := flag.String("profile", "quick", "quick, standard or full")
	list := flag.String("scenarios", "", "comma-separated scenarios or groups (default: all)")
	modeName := flag.String("mode", "saturate", "saturate (as fast as acknowledged) or paced (the seed's ticker)")
	reps := flag.Int("reps", 0, "repetitions (default: the profile's)")
	duration := flag.Duration("duration", 0, "duration of each run (default: the profile's)")
	retries := flag.Int("retries", 3, "resends of a message and re-dials of a connection")
	seed := flag.Uint64("seed", 1, "seed of the payloads and the simulated network")
	reference := flag.Bool("reference", true, "also run the loopback TCP reference")
	out := flag.String("json", "", "write the results here")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile (pprof) of the scenario runs to this file")
	flag.Parse()

	profile, ok := bench.Profiles[*profileName]
	if !ok {
		return fmt.Errorf("unknown profile %q", *profileName)
	}
	mode, err := bench.ParseMode(*modeName)
	if err != nil {
		return err
	}
	scenarios, err := selectScenarios(*list)
	if err != nil {
		return err
	}
	if *reps > 0 {
		profile.Reps = *reps
	}
	if *duration > 0 {
		profile.Duration = *duration
	}
	if *retries < 0 {
		return fmt.Errorf("-retries must not be negative")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	var results []bench.Result
	for _, s := range scenarios {
		d := profile.DurationOf(s)
		withRef := *reference && s.Condition == nil && mode == bench.Saturate
		var runs, refs []bench.Sample
		for rep := 1; rep <= profile.Reps; rep++ {
			cfg := bench.Config{Scenario: s, Network: bench.Libp2p, Mode: mode, Duration: d,
				Drain: profile.Drain, Retries: *retries, Seed: *seed + uint64(rep)}
			sample, err := bench.Run(ctx, cfg)
			if err != nil {
				return err
			}
			fmt.Printf("[%s] %s rep %d/%d libp2p: %s\n", s.Name, mode, rep, profile.Reps, bench.Line(sample))
			runs = append(runs, sample)
			if withRef {
				cfg.Network = bench.TCP
				if sample, err = bench.Run(ctx, cfg); err != nil {
					return err
				}
				fmt.Printf("[%s] %s rep %d/%d tcp:    %s\n", s.Name, mode, rep, profile.Reps, bench.Line(sample))
				refs = append(refs, sample)
			}
		}
		res := bench.Summarize(s, mode, d, runs, refs)
		bench.PrintSummary(os.Stdout, s, res)
		results = append(results, res...)
	}
	if *out == "" {
		return nil
	}
	doc := map[string]any{
		"profile": profile.Name, "mode": mode, "repetitions": profile.Reps, "retries": *retries,
		"drain_s": profile.Drain.Seconds(), "seed": *seed, "go_version": runtime.Version(),
		"finished_at": time.Now().UTC().Format(time.RFC3339), "results": results,
	}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(*out, append(data, '\n'), 0o644)
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
