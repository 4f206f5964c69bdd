package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// peakRSS runs the evalgate binary with args and returns its peak resident
// set in KiB (measureRSS: through GNU time, so that this test binary's own
// peak is not counted as the child's).
func peakRSS(t *testing.T, args ...string) int64 {
	t.Helper()
	cmd := exec.Command("evalgate", args...)
	peak := measureRSS(cmd)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("evalgate %v: %v\n%s", args, err, out)
	}
	kib := peak()
	if kib < 0 {
		t.Skip("no rusage on this platform")
	}
	return kib
}

// leastPeakRSS is the lower peakRSS of two runs of the evalgate binary with
// args: a run's peak moves by a few MiB with when the collector happens to
// run, the lower of two much less.
func leastPeakRSS(t *testing.T, args ...string) int64 {
	t.Helper()
	return min(peakRSS(t, args...), peakRSS(t, args...))
}

// TestStreamedCommandsMemory runs `prompts render --all` (text and --json)
// and `blind export` in a subprocess, twice each, on two synthetic campaigns
// of 300 and 2,400 sessions and bounds the growth of the lower peak RSS per
// added session. (With 1,200 sessions and one run, a few MiB of the
// collector's timing were 4 KiB a session: the text render measured 20.2
// KiB once and 10.5–18.6 KiB in five runs by hand, where 300 against 2,400
// sessions measured 9.3–13.5.) Each session's rendering (~39 KB, the prompt
// files, task, packet and draft) and each blind item are written as they
// are made and dropped, never held: before, the peak of prompts render
// grew about 34 KiB a session (measured 40.7 MB at 500 sessions, 91.4 MB
// at 2,000), now about 8 KiB, what the loader holds per receipt. The
// bound, 20 KiB a session, lies between the two; blind export's bound is
// the pipeline's (it runs every stage before exporting), 24 KiB a session.
func TestStreamedCommandsMemory(t *testing.T) {
	t.Parallel() // its own directories and child processes: it runs beside the other parallel tests
	base := t.TempDir()
	sizes := []int64{300, 2400}
	rss := map[string][]int64{}
	for _, n := range sizes {
		camp := filepath.Join(base, fmt.Sprint(n))
		if out, err := exec.Command("evalgate", "synth", "--kind", "paired-review", "--sessions", fmt.Sprint(n), "--out", camp).CombinedOutput(); err != nil {
			t.Fatalf("synth: %v\n%s", err, out)
		}
		rss["prompts render --all"] = append(rss["prompts render --all"], leastPeakRSS(t, "prompts", "render", camp, "--all"))
		rss["prompts render --all --json"] = append(rss["prompts render --all --json"], leastPeakRSS(t, "prompts", "render", camp, "--all", "--json"))
		rss["blind export"] = append(rss["blind export"], min(
			peakRSS(t, "blind", "export", camp, "--out", filepath.Join(base, fmt.Sprint("blind", n, "-1"))),
			peakRSS(t, "blind", "export", camp, "--out", filepath.Join(base, fmt.Sprint("blind", n, "-2")))))
	}
	bounds := map[string]int64{"prompts render --all": 20, "prompts render --all --json": 20, "blind export": 24}
	for cmd, kib := range rss {
		per := float64(kib[1]-kib[0]) / float64(sizes[1]-sizes[0])
		t.Logf("%s: peak RSS %d KiB at %d sessions, %d KiB at %d: %.1f KiB a session", cmd, kib[0], sizes[0], kib[1], sizes[1], per)
		if per > float64(bounds[cmd]) {
			t.Errorf("%s grows %.1f KiB a session, more than %d KiB: a session's output is held", cmd, per, bounds[cmd])
		}
	}
}

// TestBlindExportFixedBound exports a synthetic campaign of 10,008
// sessions (6,672 items) and bounds the peak RSS at a fixed 160 MiB, a
// size at which the export that held every item before writing any
// (evalgate before 25e7f5f) peaked at 179 MiB. The export runs load and
// validate only (stages.RunForBlind) and holds one item at a time, so its
// peak is validation's (120–132 MiB here; 156 MiB at 50,000 sessions,
// where the old export took 699 MiB), however many items it writes.
func TestBlindExportFixedBound(t *testing.T) {
	t.Parallel() // its own directories and child processes: it runs beside the other parallel tests
	if testing.Short() {
		t.Skip("writes a 10,000-session campaign")
	}
	base := t.TempDir()
	camp := filepath.Join(base, "camp")
	if out, err := exec.Command("evalgate", "synth", "--kind", "paired-review", "--sessions", "10000", "--out", camp).CombinedOutput(); err != nil {
		t.Fatalf("synth: %v\n%s", err, out)
	}
	const boundMiB = 160
	kib := peakRSS(t, "blind", "export", camp, "--out", filepath.Join(base, "blind"))
	t.Logf("blind export of 10,008 sessions: peak RSS %d MiB (bound %d MiB)", kib>>10, boundMiB)
	if kib>>10 > boundMiB {
		t.Errorf("blind export of 10,008 sessions peaked at %d MiB, more than %d MiB: items are held", kib>>10, boundMiB)
	}
	items, err := os.ReadDir(filepath.Join(base, "blind", "items"))
	if err != nil || len(items) != 6672 {
		t.Fatalf("exported %d items (%v), want 6,672", len(items), err)
	}
}
