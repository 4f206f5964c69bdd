package cli

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// run and validate pace the Go collector by the live heap each collection
// leaves, unless the environment sets GOGC or GOMEMLIMIT (then the runtime's own
// pacing, as the user set it, is left alone). Pacing changes when memory
// is reclaimed, never a result.
//
// The collector's goal is the larger of runHeapFloor and twice the live
// heap (the runtime's default), and the memory the runtime holds is kept
// under that goal plus runLimitMargin, at most runMemoryLimit:
//
//   - while the live heap is under half the floor, the heap may grow to the
//     floor before the next collection. At 10,000 sessions the live heap
//     stays under 90 MiB: the default goal ran 18 collections, whose marking
//     (on every idle core) was 15% of the run's CPU; under the floor it runs
//     two or three;
//   - the limit keeps what the runtime holds beside the heap (memory freed
//     but not yet returned to the system, above all) near the goal: without
//     it, at 100,000 sessions, the heap that grew to the floor and then to
//     twice a larger live heap took the peak RSS to 253 MiB;
//   - at a million sessions the stages' live heap reaches 400–460 MiB and
//     the default goal took the process past 1 GiB; under runMemoryLimit
//     the collector runs sooner instead (never more than half the CPU: the
//     runtime bounds it).
//
// The limit follows the live heap each collection leaves, so a live heap
// that grows past it makes the collector run sooner until the next
// collection raises it.
const (
	runHeapFloor   = 176 << 20
	runLimitMargin = 24 << 20
	runMemoryLimit = 800 << 20
)

// heapPacer sets GOGC (and the memory limit) after every collection from
// the live heap that collection left.
type heapPacer struct {
	mu      sync.Mutex
	users   int // runs holding the pacer; the last to stop restores the runtime's settings
	gen     int // incremented whenever the pacer starts or stops: a stale cycle ends
	percent int // GOGC before the pacer started
	limit   int64
}

var runHeap heapPacer

// start paces the collector until the returned stop is called. Runs in one
// process (tests) share the pacer.
func (h *heapPacer) start() (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.users++
	if h.users == 1 {
		h.gen++
		h.percent = debug.SetGCPercent(100)
		h.limit = debug.SetMemoryLimit(math.MaxInt64)
		h.pace(0)
		h.arm(h.gen)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.users--
			if h.users == 0 {
				h.gen++
				debug.SetGCPercent(h.percent)
				debug.SetMemoryLimit(h.limit)
			}
		})
	}
}

// pace sets GOGC and the memory limit for a heap of live bytes live: the
// GOGC whose goal is max(floor, 2 × live) (the runtime's goal is
// live × (1 + GOGC/100), and 4 MiB for an empty heap at GOGC 100), and the
// limit min(goal + runLimitMargin, runMemoryLimit).
func (h *heapPacer) pace(live int64) {
	const emptyGoal = 4 << 20
	switch {
	case 2*live >= runHeapFloor:
		debug.SetGCPercent(100)
	case live < emptyGoal:
		debug.SetGCPercent(int(runHeapFloor * 100 / emptyGoal))
	default:
		debug.SetGCPercent(int(runHeapFloor*100/live - 100))
	}
	goal := max(runHeapFloor, 2*live)
	debug.SetMemoryLimit(min(goal+runLimitMargin, runMemoryLimit))
}

// sentinel is garbage from birth: its cleanup runs once per collection.
// It holds a pointer so that it is never one of the tiny allocations the
// runtime packs together (those are freed only with their neighbours).
type sentinel struct {
	_ *byte
	_ [8]byte
}

// arm registers a cleanup that runs after the next collection, paces the
// collector by the live heap it left and arms the one after, for as long
// as the pacer of generation gen runs.
func (h *heapPacer) arm(gen int) {
	runtime.AddCleanup(new(sentinel), func(gen int) {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.gen != gen {
			return
		}
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			h.pace(int64(sample[0].Value.Uint64()))
		}
		h.arm(gen)
	}, gen)
}
