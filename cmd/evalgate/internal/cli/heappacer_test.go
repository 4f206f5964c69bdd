package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcSettings reads GOGC and the memory limit from the runtime.
func gcSettings(t *testing.T) (percent int, limit int64) {
	t.Helper()
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

// restoreGC puts GOGC and the memory limit back as they were when the
// test began.
func restoreGC(t *testing.T) {
	percent, limit := gcSettings(t)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// TestHeapPacerGoal: under half the floor the goal is the floor (the
// runtime's goal is live × (1 + GOGC/100); 4 MiB for an empty heap at
// GOGC 100), from half the floor on the runtime's default goal, twice the
// live heap; the memory limit is the goal plus 24 MiB, at most 800 MiB.
func TestHeapPacerGoal(t *testing.T) {
	restoreGC(t)
	const MiB = 1 << 20
	for _, c := range []struct {
		live    int64
		percent int
		limit   int64
	}{
		{0, 4400, 200 * MiB},           // 4 MiB × 44 = 176 MiB
		{3 * MiB, 4400, 200 * MiB},     // under the empty heap's goal
		{16 * MiB, 1000, 200 * MiB},    // 16 MiB × 11 = 176 MiB
		{50 * MiB, 252, 200 * MiB},     // 176 × 100 / 50 − 100, rounded down
		{87 * MiB, 102, 200 * MiB},     // just under half the floor
		{88 * MiB, 100, 200 * MiB},     // half the floor: the default goal, 176 + 24 MiB
		{96 * MiB, 100, 216 * MiB},     // 100,000 sessions' live heap: 2 × 96 + 24
		{runHeapFloor, 100, 376 * MiB}, // the floor itself: 2 × 176 + 24
		{388 * MiB, 100, 800 * MiB},    // 2 × 388 + 24 = 800, the run's limit
		{460 * MiB, 100, 800 * MiB},    // a million sessions' live heap
	} {
		var h heapPacer
		h.pace(c.live)
		if percent, limit := gcSettings(t); percent != c.percent || limit != c.limit {
			t.Errorf("live %d MiB: GOGC %d, limit %d MiB; want %d, %d MiB", c.live/MiB, percent, limit/MiB, c.percent, c.limit/MiB)
		}
	}
}

// TestHeapPacerCycles: the pacer sets GOGC from the live heap after each
// collection, for as long as a run holds it, and restores the runtime's
// settings when the last run stops.
func TestHeapPacerCycles(t *testing.T) {
	// The environment of the test binary may set them; the runtime read
	// them when it started, and the pacer reads them at each start.
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	restoreGC(t)
	debug.SetGCPercent(150)
	debug.SetMemoryLimit(1 << 40)

	var h heapPacer
	stop := h.start()
	stopToo := h.start() // a second run in the same process
	if percent, limit := gcSettings(t); percent != 4400 || limit != runHeapFloor+runLimitMargin {
		t.Fatalf("started: GOGC %d, limit %d; want 4400, %d", percent, limit, runHeapFloor+runLimitMargin)
	}
	// At least 32 MiB live, with whatever else the test binary holds: GOGC
	// at most 176/32 × 100 − 100 = 450, and at least 100.
	live := make([]byte, 32<<20)
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if percent, _ := gcSettings(t); percent < 4400 {
			if percent < 100 || percent > 450 {
				t.Errorf("after a collection with at least 32 MiB live: GOGC %d, want 100–450", percent)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("GOGC unchanged 10 s after collections")
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)

	stop()
	stop() // a second call changes nothing
	if percent, _ := gcSettings(t); percent == 150 {
		t.Error("restored GOGC while a run still holds the pacer")
	}
	stopToo()
	if percent, limit := gcSettings(t); percent != 150 || limit != 1<<40 {
		t.Errorf("stopped: GOGC %d, limit %d; want 150, %d", percent, limit, int64(1<<40))
	}
	// A collection after the stop leaves the restored settings alone.
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	if percent, _ := gcSettings(t); percent != 150 {
		t.Errorf("a collection after the stop set GOGC %d, want 150", percent)
	}
}

// TestHeapPacerLeavesUserSettings: with GOGC or GOMEMLIMIT in the
// environment, start changes neither GOGC nor the memory limit.
func TestHeapPacerLeavesUserSettings(t *testing.T) {
	restoreGC(t)
	debug.SetGCPercent(150)
	debug.SetMemoryLimit(1 << 40)
	for _, env := range [][2]string{{"GOGC", "150"}, {"GOMEMLIMIT", "1TiB"}} {
		t.Run(env[0], func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env[0], env[1])
			var h heapPacer
			stop := h.start()
			defer stop()
			if percent, limit := gcSettings(t); percent != 150 || limit != 1<<40 {
				t.Errorf("%s=%s: start set GOGC %d, limit %d; want 150, %d", env[0], env[1], percent, limit, int64(1<<40))
			}
		})
	}
}
