// Package bench_test holds the benchmarks that watch evalgate's cost per
// session on a synthetic campaign (evalgate synth), so that a change which
// makes a session's state larger, a stage allocate more or synth slower
// shows as a number that moved:
//
//	go test ./bench -run '^$' -bench . -benchtime 3x
//
// Memory is reported per session (divided by the campaign's receipts), in
// bytes: live heap is what stays reachable after a full collection, alloc
// is every byte allocated on the way. The campaign is small (3,060
// sessions) so the benchmarks run in seconds, but has the shape of the
// 100,000-session one make bench-scale measures (34 repetitions of each
// task: 30 tasks here, 981 there), so what is kept per task weighs on a
// session as it does there. Each figure is of a run after a first,
// untimed one, so what a process computes once (compiled schemas,
// caches) is not counted. make bench-scale measures the same at 10^4 and
// 10^5 sessions on disk.
package bench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/report"
)

// The campaign the benchmarks measure: what make bench-scale writes (5%
// model faults, seed 741), at a size that takes seconds, in the shape of
// its 100,000 sessions (34 repetitions).
var benchCampaign = fixtures.SynthOptions{Sessions: 3000, MaxTasks: 30, FaultPPM: 50_000, Seed: 741}

// synthCampaign writes the benchmark campaign into a new directory under
// b.TempDir and returns it and its number of sessions (receipts).
func synthCampaign(b *testing.B) (string, int64) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "campaign")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	sum, err := fixtures.Synth("paired-review", dir, benchCampaign)
	if err != nil {
		b.Fatal(err)
	}
	return dir, sum.Sessions
}

// openCampaign opens dir the way evalgate run does (confined, os.Root).
func openCampaign(b *testing.B, dir string) *confined.CampaignDir {
	b.Helper()
	fsys, err := confined.OpenCampaignDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { fsys.Close() })
	return fsys
}

// heapNow collects garbage and returns the live heap and the bytes
// allocated so far. It collects twice: a sync.Pool's objects survive one
// collection (in its victim cache), and are not the work's live heap.
func heapNow() (live, allocated uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.TotalAlloc
}

// above is a live heap above the floor measured before the work, 0 when
// the collector found less.
func above(live, floor uint64) uint64 { return live - min(live, floor) }

// perSession reports v (bytes) per session under unit.
func perSession(b *testing.B, v uint64, sessions int64, unit string) {
	b.ReportMetric(float64(v)/float64(sessions), unit)
}

// BenchmarkSessionMemory measures, per session of the synthetic campaign:
//
//   - load: the loaded campaign's live heap (live-B/session: what every
//     later stage holds until the inputs are released), the bytes
//     allocated to decode it (alloc-B/session) and the time;
//   - run: what evalgate run does (every stage with the inputs released
//     as it releases them, then every table and report written): the
//     bytes allocated, the peak heap (sampled every millisecond), the
//     peak while each stage ran (STAGE-peak-B/session, report for
//     report.Write), the live heap at the start of each stage after load
//     (STAGE-live-B/session; the collections that measure it are not
//     timed) and the output tables' live heap once written
//     (tables-live-B/session: what the run's memory can at best be
//     bounded by).
func BenchmarkSessionMemory(b *testing.B) {
	dir, sessions := synthCampaign(b)
	b.Run("load", func(b *testing.B) {
		fsys := openCampaign(b, dir)
		loadOnce(b, fsys) // warm-up: what is computed once per process
		var live, allocated uint64
		for b.Loop() {
			l, a := loadOnce(b, fsys)
			live, allocated = max(live, l), allocated+a
		}
		perSession(b, live, sessions, "live-B/session")
		perSession(b, allocated/uint64(b.N), sessions, "alloc-B/session")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sessions), "ns/session")
	})
	b.Run("run", func(b *testing.B) {
		fsys := openCampaign(b, dir)
		out := b.TempDir()
		runOnce(b, fsys, filepath.Join(out, "warm-up"))
		var m runMemory
		for i := 0; b.Loop(); i++ {
			r := runOnce(b, fsys, filepath.Join(out, fmt.Sprint(i)))
			m.allocated += r.allocated
			m.peak, m.tables = max(m.peak, r.peak), max(m.tables, r.tables)
			if m.stages == nil {
				m.stages = r.stages
			}
			for k, st := range r.stages {
				m.stages[k].live, m.stages[k].peak = max(m.stages[k].live, st.live), max(m.stages[k].peak, st.peak)
			}
		}
		perSession(b, m.allocated/uint64(b.N), sessions, "alloc-B/session")
		perSession(b, m.peak, sessions, "peak-heap-B/session")
		for _, st := range m.stages {
			if st.name != "load" { // it starts at the floor
				perSession(b, st.live, sessions, st.name+"-live-B/session")
			}
			perSession(b, st.peak, sessions, st.name+"-peak-B/session")
		}
		perSession(b, m.tables, sessions, "tables-live-B/session")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sessions), "ns/session")
	})
}

// loadOnce loads the campaign and returns its live heap and the bytes
// allocated to load it.
func loadOnce(b *testing.B, fsys *confined.CampaignDir) (live, allocated uint64) {
	floor, before := heapNow()
	c, findings := load.Campaign(fsys, "bench")
	if c == nil || findings.Rejected() {
		b.Fatalf("the synthetic campaign does not load: %v", findings)
	}
	after, total := heapNow()
	runtime.KeepAlive(c)
	return above(after, floor), total - before
}

// runMemory is what one run of the pipeline and the report holds and
// allocates, in bytes.
type runMemory struct {
	allocated, peak, tables uint64
	stages                  []stageLive // in the order they ran
}

type stageLive struct {
	name       string
	live, peak uint64 // at the stage's start; the most while it ran
}

// runOnce runs the pipeline as evalgate run does and writes the outputs
// into out.
func runOnce(b *testing.B, fsys *confined.CampaignDir, out string) runMemory {
	var m runMemory
	floor, before := heapNow()
	sampler := sampleHeap()
	mark := func(stage string) {
		b.StopTimer() // the collections are not the work's
		live, _ := heapNow()
		// After the collections: what was sampled during them, the heap
		// before they freed it, is the previous stage's.
		peak := sampler.reset()
		if n := len(m.stages); n > 0 {
			m.stages[n-1].peak = above(peak, floor)
		}
		m.stages = append(m.stages, stageLive{name: stage, live: above(live, floor)})
		b.StartTimer()
	}
	res := stages.Run(fsys, "bench", stages.Options{Progress: mark, ReleaseInputs: true})
	if !res.Admissible() {
		b.Fatal("the synthetic campaign is not admissible")
	}
	mark("report")
	if err := report.Write(out, res.Campaign, res.Tables, res.Figures, report.Meta{ToolVersion: "bench"}); err != nil {
		b.Fatal(err)
	}
	m.stages[len(m.stages)-1].peak = above(sampler.stop(), floor)
	after, total := heapNow()
	runtime.KeepAlive(res)
	m.allocated, m.tables = total-before, above(after, floor)
	for _, st := range m.stages {
		m.peak = max(m.peak, st.peak)
	}
	return m
}

// heapSampler records the largest heap seen (runtime.MemStats.HeapAlloc,
// sampled every millisecond, so a shorter spike can be missed) since it
// started or was last reset.
type heapSampler struct {
	mu         sync.Mutex
	peak       uint64
	quit, done chan struct{}
}

func sampleHeap() *heapSampler {
	s := &heapSampler{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			s.mu.Lock()
			s.peak = max(s.peak, ms.HeapAlloc)
			s.mu.Unlock()
			select {
			case <-s.quit:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return s
}

// reset returns the peak so far and starts again from the heap now.
func (s *heapSampler) reset() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s.mu.Lock()
	defer s.mu.Unlock()
	p := max(s.peak, ms.HeapAlloc)
	s.peak = 0
	return p
}

// stop ends sampling and returns the peak since the last reset.
func (s *heapSampler) stop() uint64 {
	p := s.reset()
	close(s.quit)
	<-s.done
	return max(p, s.peak)
}

// BenchmarkSynth measures evalgate synth itself: the time and bytes
// allocated per session written (the files go to a temporary directory,
// removed between iterations outside the timer).
func BenchmarkSynth(b *testing.B) {
	root := b.TempDir()
	var sessions int64
	var allocated uint64
	for i := 0; b.Loop(); i++ {
		dir := filepath.Join(root, fmt.Sprint(i))
		b.StopTimer()
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		_, before := heapNow()
		b.StartTimer()
		sum, err := fixtures.Synth("paired-review", dir, benchCampaign)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		allocated += ms.TotalAlloc - before
		sessions = sum.Sessions
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	perSession(b, allocated/uint64(b.N), sessions, "alloc-B/session")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sessions), "ns/session")
}
