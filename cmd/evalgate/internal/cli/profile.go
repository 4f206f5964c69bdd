package cli

import (
	gocontext "context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiler writes run's Go profiles when asked (the hidden flags
// --cpuprofile and --memprofile, which `make profile` uses): a CPU profile
// whose samples carry the label stage=NAME of the stage that ran them
// (load … intervals, then report; goroutines a stage starts inherit it, so
// `go tool pprof -tags` gives each stage's CPU), and an allocation profile
// (every allocation of the run, sampled). It only observes: no output
// changes.
type profiler struct {
	cpuPath, memPath string
	cpu              *os.File
	stopped          bool
}

func profileFlags(cmd *cobra.Command) *profiler {
	p := &profiler{}
	cmd.Flags().StringVar(&p.cpuPath, "cpuprofile", "", "write a Go CPU profile, labelled by stage, to this file")
	cmd.Flags().StringVar(&p.memPath, "memprofile", "", "write a Go allocation profile to this file")
	_ = cmd.Flags().MarkHidden("cpuprofile")
	_ = cmd.Flags().MarkHidden("memprofile")
	return p
}

// memProfileRate is the runtime's rate of sampling allocations for the
// heap profile as the process started (512 KiB, or GODEBUG's
// memprofilerate), kept by PauseMemProfile; 0 when it was not paused.
var memProfileRate int

// PauseMemProfile stops the runtime's sampling of allocations, which
// nothing reads unless --memprofile is given: it records the stack of
// one allocation in every 512 KiB allocated, in tables of its own whose
// fresh pages each fault twice, about 1% of evalgate run's CPU at
// 100,000 sessions. main calls it before anything else; --memprofile
// samples again, at the rate the process started with, from the start of
// the run.
func PauseMemProfile() {
	memProfileRate, runtime.MemProfileRate = runtime.MemProfileRate, 0
}

// start begins the CPU profile, and resumes sampling allocations for
// the allocation profile.
func (p *profiler) start() error {
	if p != nil && p.memPath != "" && memProfileRate > 0 {
		runtime.MemProfileRate = memProfileRate
	}
	if p == nil || p.cpuPath == "" {
		return nil
	}
	f, err := os.Create(p.cpuPath)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	p.cpu = f
	return nil
}

// stage labels the calling goroutine, and those it starts from now on,
// with the stage, then tells next (the progress display, or nil).
func (p *profiler) stage(next func(string)) func(string) {
	if p == nil || p.cpuPath == "" {
		return next
	}
	return func(name string) {
		pprof.SetGoroutineLabels(pprof.WithLabels(gocontext.Background(), pprof.Labels("stage", name)))
		if next != nil {
			next(name)
		}
	}
}

// stop ends the CPU profile and writes the allocation profile, once.
func (p *profiler) stop() error {
	if p == nil || p.stopped {
		return nil
	}
	p.stopped = true
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			return err
		}
		p.cpu = nil
	}
	if p.memPath == "" {
		return nil
	}
	f, err := os.Create(p.memPath)
	if err != nil {
		return err
	}
	runtime.GC() // the live heap at the end, beside every allocation
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", p.memPath, err)
	}
	return f.Close()
}
