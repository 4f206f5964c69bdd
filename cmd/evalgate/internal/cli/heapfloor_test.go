package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestFloorPercent(t *testing.T) {
	const floor = 128 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 3100},        // before the first collection: 4 MiB × 32 = floor
		{1 << 20, 3100},  // under the runtime's 4 MiB minimum: as 4 MiB
		{32 << 20, 300},  // 32 MiB × 4 = floor
		{60 << 20, 113},  // 60 MiB × 2.13 ≤ floor
		{64 << 20, 100},  // twice the live heap is the floor
		{500 << 20, 100}, // the collector's default
	} {
		if got := floorPercent(c.live, floor); got != c.want {
			t.Errorf("floorPercent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
		if c.live >= 4<<20 && c.live < floor/2 {
			if goal := c.live * uint64(100+floorPercent(c.live, floor)) / 100; goal > floor {
				t.Errorf("at %d MiB live the goal is %d bytes, past the floor %d", c.live>>20, goal, floor)
			}
		}
	}
}

// TestHoldHeapFloorRestores checks that the last release restores the
// percentage the first hold found, and that collections during a hold
// (which run the sentinel's finalizer) leave it set.
func TestHoldHeapFloorRestores(t *testing.T) {
	t.Setenv("GOGC", "") // holdHeapFloor leaves an explicit GOGC alone
	before := debug.SetGCPercent(77)
	defer debug.SetGCPercent(before)
	release := holdHeapFloor(128 << 20)
	inner := holdHeapFloor(128 << 20)
	runtime.GC()
	runtime.GC()
	inner()
	inner() // a second call does nothing
	if p := debug.SetGCPercent(-1); p == 77 {
		t.Errorf("percentage restored while a hold is still active")
	} else {
		debug.SetGCPercent(p)
	}
	release()
	if p := debug.SetGCPercent(77); p != 77 {
		t.Errorf("after the last release the percentage is %d, want 77", p)
	}
}
