package main

// Semantic controls (fixtures/controls/semantic*.go) run through the
// public entry point, cli.Main: each must give its rule's required result
// in runs.parquet, gates.parquet and scorecard.json, and the pipeline must
// agree with the independent recomputation (recompute_test.go) on every
// run, gate and the decision of the edited campaign.

import (
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// semCampaign applies edits to a fresh copy of the example and writes it
// into a temporary directory, returning the campaign directory.
func semCampaign(t *testing.T, edits ...func(*controls.Campaign) error) string {
	t.Helper()
	c, err := controls.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, edit := range edits {
		if err := edit(c); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "campaign")
	if err := c.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGreenCampaign: the green campaign (controls.Green) passes every
// gate, and the pipeline agrees with the independent recomputation.
func TestGreenCampaign(t *testing.T) {
	dir := semCampaign(t, controls.Green)
	want := recompute(t, dir)
	got := rcRunPipeline(t, dir, t.TempDir())
	rcCompare(t, want, got)
	if want.decision != "advance" || len(want.failingGates) != 0 {
		t.Errorf("recomputed decision %s (failing %v), the green campaign is built to advance", want.decision, want.failingGates)
	}
	// Hand computation (controls.Green): macro A 123/160, B 1.
	if !rcEqual(want.macro["A"], rcObserved("123/160")) || !rcEqual(want.macro["B"], rcObserved("1")) {
		t.Errorf("recomputed macro R A %s B %s, hand computation 123/160 and 1", want.macro["A"].RatString(), want.macro["B"].RatString())
	}
}

// semBaseline is the findings of the unmodified example, against which a
// control's new findings are counted.
func semBaseline(t *testing.T) rules.Findings {
	t.Helper()
	c, err := controls.Load()
	if err != nil {
		t.Fatal(err)
	}
	o, err := controls.Execute(c, t.TempDir(), cli.Main)
	if err != nil {
		t.Fatal(err)
	}
	return o.Findings
}

// TestSemanticControls runs every semantic control through validate and
// run, verifies its hand-written expectation, and compares the pipeline
// with the recomputation of the edited campaign.
func TestSemanticControls(t *testing.T) {
	baseline := semBaseline(t)
	var mu sync.Mutex
	rowOf := map[string]tables.Run{} // control ID → T1-r1-B's runs row
	t.Run("controls", func(t *testing.T) {
		for _, ctl := range controls.SemanticControls() {
			t.Run(ctl.ID, func(t *testing.T) {
				t.Parallel()
				row := runSemanticControl(t, ctl, baseline)
				mu.Lock()
				rowOf[ctl.ID] = row
				mu.Unlock()
			})
		}
	})
	// C02–C04: a paraphrase, another valid path and a missing qualified
	// name leave T1-r1-B's whole runs row, R included, equal to C01's.
	for _, id := range []string{"C02", "C03", "C04"} {
		t.Run(id+" equals C01", func(t *testing.T) {
			a, b := rowOf["C01"], rowOf[id]
			if a.ReviewSessionID == "" || !reflect.DeepEqual(a, b) {
				t.Errorf("T1-r1-B under %s:\n %+v\nunder C01:\n %+v", id, b, a)
			}
		})
	}
}

// runSemanticControl runs one control through validate and run, verifies
// its expectation and the recomputation, and returns T1-r1-B's runs row.
func runSemanticControl(t *testing.T, ctl controls.Control, baseline rules.Findings) tables.Run {
	c, err := controls.Prepare(ctl)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	o, err := controls.Execute(c, work, cli.Main)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ctl.Expect.Verify(baseline, o) {
		t.Error(p)
	}
	if o.Out == nil {
		t.Fatal("run wrote nothing")
	}
	got := rcReadOutput(t, o.Out.Dir)
	t.Run("recomputed", func(t *testing.T) {
		rcCompare(t, recompute(t, filepath.Join(work, "campaign")), got)
	})
	for _, r := range got.runs {
		if r.TaskID == "T1" && r.Repetition == 1 && r.Arm == "B" {
			return r
		}
	}
	t.Fatal("no runs row for T1-r1-B")
	return tables.Run{}
}
