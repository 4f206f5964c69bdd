package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// runHeapFloor is the smallest heap goal the collector works to during
// run unless GOGC is set: while the live heap is under half of it, the
// collector's percentage is raised after each collection so that the next
// one starts at about runHeapFloor, not at twice a small live heap. A
// campaign of 10,000 sessions (a live heap of 30–85 MiB) is collected about
// a third as often; from a live heap of runHeapFloor/2 on (100,000
// sessions and more) the collector's default percentage applies, under
// runMemoryLimit, so peak RSS there does not move. It changes when memory
// is reclaimed, never a result.
const runHeapFloor = 128 << 20

// heapFloor holds the heap goal at a floor while at least one hold is
// active (see holdHeapFloor).
var heapFloor floorHold

type floorHold struct {
	mu      sync.Mutex
	holds   int
	armed   bool // a sentinel is set
	floor   uint64
	before  int // the percentage before the first hold
	current int // the percentage set last
	sample  []metrics.Sample
}

// holdHeapFloor keeps the collector's heap goal at floor bytes or more
// until the returned release is called: after every collection, a
// finalizer (re-armed each time) reads the live heap and sets the
// percentage whose goal is floor, or 100 once the live heap passes floor/2.
// Holds nest; the last release restores the percentage it found.
func holdHeapFloor(floor uint64) (release func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	h := &heapFloor
	h.mu.Lock()
	defer h.mu.Unlock()
	h.holds++
	if h.holds == 1 {
		h.floor = floor
		h.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		h.current = h.percent()
		h.before = debug.SetGCPercent(h.current)
		if !h.armed {
			h.armed = true
			runtime.SetFinalizer(&floorSentinel{}, afterCollection)
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.holds--; h.holds == 0 {
				debug.SetGCPercent(h.before)
			}
		})
	}
}

// percent is floorPercent of the live heap measured last; h.mu is held.
func (h *floorHold) percent() int {
	metrics.Read(h.sample)
	live := uint64(0)
	if h.sample[0].Value.Kind() == metrics.KindUint64 {
		live = h.sample[0].Value.Uint64()
	}
	return floorPercent(live, h.floor)
}

// floorPercent is the collector percentage whose heap goal is floor at a
// live heap of live bytes (0 before the first collection), or 100 when
// twice the live heap reaches floor anyway.
func floorPercent(live, floor uint64) int {
	if live < 4<<20 {
		// the runtime's own minimum goal is 4 MiB × percentage / 100
		// (before the first collection, that is its goal): a smaller
		// live heap would put that minimum past floor
		live = 4 << 20
	}
	if live >= floor/2 {
		return 100
	}
	return int(floor*100/live) - 100
}

// floorSentinel is unreachable from its allocation on; its finalizer runs
// after each collection and sets it again.
type floorSentinel struct{ _ *byte }

func afterCollection(s *floorSentinel) {
	h := &heapFloor
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holds == 0 {
		h.armed = false // released: the sentinel is not set again
		return
	}
	if p := h.percent(); p != h.current {
		h.current = p
		debug.SetGCPercent(p)
	}
	runtime.SetFinalizer(s, afterCollection)
}
