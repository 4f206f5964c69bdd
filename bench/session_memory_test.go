// Package bench_test holds the benchmarks that watch evalgate's cost per
// session on a synthetic campaign (evalgate synth), so that a change which
// makes a session's state larger, a stage allocate more or synth slower
// shows as a number that moved:
//
//	go test ./bench -run '^$' -bench . -benchtime 3x
//
// Memory is reported per session (divided by the campaign's receipts), in
// bytes: live heap is what stays reachable after a full collection, alloc
// is every byte allocated on the way. The campaign is small (a few
// thousand sessions) so the benchmarks run in seconds; fixed costs
// (compiled schemas, the embedded prompts) are then a visible share of
// each per-session figure, which is the same at every run, so a regression
// still shows. make bench-scale measures the same at 10^4 and 10^5
// sessions on disk.
package bench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/internal/heaptest"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/report"
	"github.com/evalgate/evalgate/tables"
)

// The campaign the benchmarks measure: what make bench-scale writes (5%
// model faults, seed 741), at a size that takes seconds.
const (
	benchSessions = 3000
	benchFaultPPM = 50_000
	benchSeed     = 741
)

// synthCampaign writes the benchmark campaign into a new directory under
// b.TempDir and returns it and its number of sessions (receipts).
func synthCampaign(b *testing.B) (string, int64) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "campaign")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	sum, err := fixtures.Synth("paired-review", dir, fixtures.SynthOptions{Sessions: benchSessions, FaultPPM: benchFaultPPM, Seed: benchSeed})
	if err != nil {
		b.Fatal(err)
	}
	return dir, sum.Sessions
}

// openCampaign opens dir the way evalgate run does (confined, os.Root).
func openCampaign(b *testing.B, dir string) *tables.CampaignDir {
	b.Helper()
	fsys, err := tables.OpenCampaignDir(dir)
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
//     bytes allocated, the peak heap (sampled), the live heap at the
//     start of each stage (STAGE-live-B/session, the collections that
//     measure it are not timed) and the output tables' live heap once
//     written (tables-live-B/session: what the run's memory can at best
//     be bounded by).
func BenchmarkSessionMemory(b *testing.B) {
	dir, sessions := synthCampaign(b)
	b.Run("load", func(b *testing.B) {
		fsys := openCampaign(b, dir)
		var live, allocated uint64
		for b.Loop() {
			floor, before := heapNow()
			c, findings := load.Campaign(fsys, "bench")
			if c == nil || findings.Rejected() {
				b.Fatalf("the synthetic campaign does not load: %v", findings)
			}
			after, total := heapNow()
			runtime.KeepAlive(c)
			live, allocated = max(live, above(after, floor)), allocated+total-before
		}
		perSession(b, live, sessions, "live-B/session")
		perSession(b, allocated/uint64(b.N), sessions, "alloc-B/session")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sessions), "ns/session")
	})
	b.Run("run", func(b *testing.B) {
		fsys := openCampaign(b, dir)
		out := b.TempDir()
		stageLive := map[string]uint64{}
		var order []string
		var peak, tablesLive, allocated uint64
		for i := 0; b.Loop(); i++ {
			floor, before := heapNow()
			mark := func(stage string) { // collections outside the timer
				b.StopTimer()
				live, _ := heapNow()
				if _, seen := stageLive[stage]; !seen {
					order = append(order, stage)
				}
				stageLive[stage] = max(stageLive[stage], above(live, floor))
				b.StartTimer()
			}
			var res *stages.Result
			p := heaptest.Peak(func() {
				res = stages.Run(fsys, "bench", stages.Options{Progress: mark, ReleaseInputs: true})
				if !res.Admissible() {
					b.Fatal("the synthetic campaign is not admissible")
				}
				mark("report")
				target := filepath.Join(out, fmt.Sprint(i))
				if err := report.Write(target, res.Campaign, res.Tables, res.Figures, report.Meta{ToolVersion: "bench"}); err != nil {
					b.Fatal(err)
				}
			})
			after, total := heapNow()
			runtime.KeepAlive(res)
			peak, tablesLive = max(peak, above(p, floor)), max(tablesLive, above(after, floor))
			allocated += total - before
		}
		perSession(b, allocated/uint64(b.N), sessions, "alloc-B/session")
		perSession(b, peak, sessions, "peak-heap-B/session")
		for _, stage := range order {
			if stage == "load" {
				continue // it starts at the floor
			}
			perSession(b, stageLive[stage], sessions, stage+"-live-B/session")
		}
		perSession(b, tablesLive, sessions, "tables-live-B/session")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sessions), "ns/session")
	})
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
		sum, err := fixtures.Synth("paired-review", dir, fixtures.SynthOptions{Sessions: benchSessions, FaultPPM: benchFaultPPM, Seed: benchSeed})
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
