package score

import (
	"fmt"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// scoredSystems runs load → validate → account → score on the
// system-comparison example.
func scoredSystems(t *testing.T) (*tables.Campaign, *tables.Set) {
	t.Helper()
	fsys, ok := fixtures.Example("system-comparison")
	if !ok {
		t.Fatal("no example")
	}
	c, found := load.Campaign(fsys, "example")
	if found.Rejected() {
		t.Fatal(found)
	}
	validated, accounted := validate.Run(c, load.Answers(c)), account.Run(c)
	scored := Run(c, validated, accounted)
	s := &tables.Set{Sessions: validated.Sessions, Tokens: accounted.Tokens, Runs: scored.Runs, Obligations: scored.Obligations,
		Rejections: slices.Concat(validated.Findings, accounted.Findings, scored.Findings)}
	if rules.Findings(s.Rejections).Rejected() {
		t.Fatalf("findings %v", s.Rejections)
	}
	return c, s
}

// picoCost prices a receipt's normalized meter independently of
// stages/account: the example's card is US$4 uncached input and US$20
// output per million tokens, i.e. 4,000,000 and 20,000,000 pico-USD per
// token; no cached input and zero tool charges.
func picoCost(t *testing.T, r *tables.Receipt) int64 {
	var raw map[string]int64
	if err := json.Unmarshal(r.Meter.Usage, &raw); err != nil {
		t.Fatal(err)
	}
	return raw["uncached_input"]*4_000_000 + raw["output"]*20_000_000
}

func receiptOf(t *testing.T, c *tables.Campaign, id string) *tables.Receipt {
	for l := range c.Receipts.All() {
		if l.Record.SessionID == id {
			return &l.Record
		}
	}
	t.Fatalf("no receipt %s", id)
	return nil
}

func runOf(t *testing.T, s *tables.Set, task string, rep int64, arm string) *tables.Run {
	runs := s.Runs.Collect()
	for i := range runs {
		if r := &runs[i]; r.TaskID == task && r.Repetition == rep && r.Arm == arm {
			return r
		}
	}
	t.Fatalf("no run %s r%d %s", task, rep, arm)
	return nil
}

func TestSystemComparisonScore(t *testing.T) {
	c, s := scoredSystems(t)
	t.Run("every workflow has a run over the shared denominator", func(t *testing.T) {
		if s.Runs.Len() != 36 {
			t.Fatalf("%d runs, want 6 tasks × 2 repetitions × 3 systems = 36", s.Runs.Len())
		}
		for _, r := range s.Runs.Collect() {
			if r.RDen != 4 || r.PacketSupportedDen != 4 || r.UDen != 1 {
				t.Errorf("%s r%d %s: denominators %d/%d/%d, want 4/4/1", r.TaskID, r.Repetition, r.Arm, r.RDen, r.PacketSupportedDen, r.UDen)
			}
		}
	})
	t.Run("cold setup is charged once per system and repository to its first workflow", func(t *testing.T) {
		cold := 0
		for _, r := range s.Runs.Collect() {
			if !r.Cold {
				if r.SetupCost == nil || *r.SetupCost != 0 || r.SetupNS != 0 {
					t.Errorf("warm run %s r%d %s has setup %v %d", r.TaskID, r.Repetition, r.Arm, r.SetupCost, r.SetupNS)
				}
				continue
			}
			cold++
			want := fmt.Sprintf("setup-%s-%s", r.Arm, r.Repository)
			if r.SetupSessionID != want {
				t.Errorf("cold run %s r%d %s charged %q, want %q", r.TaskID, r.Repetition, r.Arm, r.SetupSessionID, want)
			}
			total := picoCost(t, receiptOf(t, c, want)) + picoCost(t, receiptOf(t, c, r.DraftSessionID)) + picoCost(t, receiptOf(t, c, r.ReviewSessionID))
			if r.WorkflowCost == nil || int64(*r.WorkflowCost) != total {
				t.Errorf("cold run %s r%d %s cost %v, want setup+investigation+review %d", r.TaskID, r.Repetition, r.Arm, r.WorkflowCost, total)
			}
		}
		if cold != 9 {
			t.Errorf("%d cold runs, want 3 systems × 3 repositories = 9", cold)
		}
	})
	t.Run("a failed investigation scores zero and costs only itself", func(t *testing.T) {
		r := runOf(t, s, "S2", 2, "native")
		inv := picoCost(t, receiptOf(t, c, "S2-r2-native-I")) // 46000×4e6 + 5200×2e7 = 288,000,000,000 pico
		if r.Classification != "investigation_failure" || r.RNum != 0 || !r.CriticalCompletionFailed ||
			r.PacketSupported == nil || *r.PacketSupported != 0 || r.WorkflowCost == nil || int64(*r.WorkflowCost) != inv || inv != 288_000_000_000 {
			t.Fatalf("run %+v (investigation %d)", r, inv)
		}
	})
	t.Run("packet-supported coverage is reported apart from R_sys", func(t *testing.T) {
		for _, tc := range []struct {
			task      string
			rep       int64
			arm       string
			rNum, sup int64
		}{
			{"S1", 1, "native", 3, 3}, // block 3 never returned
			{"S2", 1, "madar", 3, 4},  // returned but missed by the review
			{"S3", 1, "native", 3, 4}, // returned but missed
			{"S3", 2, "serena", 3, 3}, // block 1 never returned
			{"S1", 2, "madar", 4, 4},
		} {
			r := runOf(t, s, tc.task, tc.rep, tc.arm)
			if r.RNum != tc.rNum || r.PacketSupportedNum != tc.sup {
				t.Errorf("%s r%d %s: R_sys %d/4 supported %d/4, want %d and %d", tc.task, tc.rep, tc.arm, r.RNum, r.PacketSupportedNum, tc.rNum, tc.sup)
			}
		}
	})
}
