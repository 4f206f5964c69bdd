package intervals

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// run builds a scored run with R = num/den, cost in whole currency units
// and time in ns; family = repository = "f"+task unless overridden.
func run(task, family, arm string, rep int64, num, den int64, cost int64, ns int64) tables.Run {
	m := tables.Money(cost * 1_000_000_000_000)
	return tables.Run{
		TaskID: task, Family: family, Repository: "repo-" + family, Arm: arm, Repetition: rep,
		ReviewSessionID: fmt.Sprintf("%s-r%d-%s", task, rep, arm),
		Scored:          true, RNum: num, RDen: den, WorkflowCost: &m, WorkflowNS: ns, TimeComplete: true,
	}
}

func campaign(arms ...string) *tables.Campaign {
	c := &tables.Campaign{}
	c.Manifest.CampaignID = "camp-1"
	c.Manifest.Intervals = tables.IntervalPlan{Cluster: "family", Resamples: 2000, Seed: 20241101}
	for _, a := range arms {
		c.Manifest.Design.Arms = append(c.Manifest.Design.Arms, tables.Arm{ID: a})
	}
	return c
}

// rowsOf returns the expanded-percentile row of each (statistic, contrast).
func rowsOf(s Out) map[string]tables.Interval {
	out := map[string]tables.Interval{}
	for _, r := range s.Intervals {
		if r.Method == "family_bootstrap_expanded_percentile" {
			out[r.Statistic+" "+r.Contrast] = r
		}
	}
	return out
}

// sixFamilies: tasks T1..T6, one per family, 3 repetitions per arm.
// Task-median R: A = 2/4 for every task; B = 3/4 (T1–T3), 4/4 (T4–T6),
// each task's reps are {m, m, other} so the median is m.
// Costs: A = 2 per run; B = 3 per run → ratio of sums 18/12 = 1.5.
// Time: A = 100 ns; B = 100 ns (T1–T3), 200 ns (T4–T6) → 900/600 = 1.5.
func sixFamilies() []tables.Run {
	var runs []tables.Run
	for i := 1; i <= 6; i++ {
		task, fam := fmt.Sprintf("T%d", i), fmt.Sprintf("F%d", i)
		bNum, bNS := int64(3), int64(100)
		if i > 3 {
			bNum, bNS = 4, 200
		}
		for rep := int64(1); rep <= 3; rep++ {
			aNum, bn := int64(2), bNum
			if rep == 3 {
				aNum, bn = 0, 0 // one low repetition: the median ignores it
			}
			runs = append(runs, run(task, fam, "A", rep, aNum, 4, 2, 100), run(task, fam, "B", rep, bn, 4, 3, bNS))
		}
	}
	return runs
}

func TestRunOrdinaryCampaign(t *testing.T) {
	s := Run(campaign("A", "B"), spool.Of(sixFamilies()...))
	if len(s.Findings) != 0 {
		t.Fatalf("findings: %v", s.Findings)
	}
	// 2 per-arm macros + diff + cost + time ratios, × 3 methods.
	if len(s.Intervals) != 15 {
		t.Fatalf("%d rows, want 15", len(s.Intervals))
	}
	want := map[string]float64{
		StatMacroR + " A":      0.5,   // 6 × 2/4 / 6
		StatMacroR + " B":      0.875, // (3 × 3/4 + 3 × 1) / 6
		StatMacroDiff + " B-A": 0.375,
		StatCostRatio + " B/A": 1.5, // Σ 3 / Σ 2 over 6 tasks
		StatTimeRatio + " B/A": 1.5, // (3×100 + 3×200) / (6×100)
	}
	got := rowsOf(s)
	for key, w := range want {
		t.Run(key, func(t *testing.T) {
			r, ok := got[key]
			if !ok {
				t.Fatalf("no row")
			}
			if r.Estimate == nil || *r.Estimate != w {
				t.Errorf("estimate %v, want %v", r.Estimate, w)
			}
			if r.Label != "EXPLORATORY" || r.GateEffect != "none" || r.Seed != 20241101 || r.Resamples != 2000 {
				t.Errorf("fixed columns: %+v", r)
			}
			if r.NFamilies != 6 || r.NTasks != 6 || r.SmallGFlag != "few_families" {
				t.Errorf("sizes: G=%d tasks=%d flag=%s", r.NFamilies, r.NTasks, r.SmallGFlag)
			}
		})
	}
	t.Run("degenerate_per_arm_A", func(t *testing.T) {
		if r := got[StatMacroR+" A"]; r.Status != "degenerate_zero_variance" || r.Lo != nil {
			t.Errorf("arm A (all task medians 1/2): status %s lo %v", r.Status, r.Lo)
		}
	})
	t.Run("ok_diff_has_bounds", func(t *testing.T) {
		r := got[StatMacroDiff+" B-A"]
		// Family differences are 0.25 (×3) and 0.5 (×3): the expanded
		// interval lies within their range [0.25, 0.5].
		if r.Status != "ok" || r.Lo == nil || *r.Lo < 0.25 || *r.Hi > 0.5 || *r.Lo > *r.Hi {
			t.Errorf("diff: status %s [%v, %v]", r.Status, r.Lo, r.Hi)
		}
		if r.NRuns != 36 {
			t.Errorf("diff n_runs %d, want 36", r.NRuns)
		}
	})
}

func TestRunDeterministic(t *testing.T) {
	runs := sixFamilies()
	ref := RunWith(campaign("A", "B"), spool.Of(slices.Clone(runs)...), Options{Workers: 1})
	for _, w := range []int{2, 8} {
		t.Run(fmt.Sprintf("workers_%d_shuffled", w), func(t *testing.T) {
			shuffled := slices.Clone(runs)
			r := rand.New(rand.NewPCG(uint64(w), 1))
			r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			s := RunWith(campaign("A", "B"), spool.Of(shuffled...), Options{Workers: w})
			if !reflect.DeepEqual(s.Intervals, ref.Intervals) {
				t.Error("rows differ with another worker count or run order")
			}
		})
	}
	t.Run("sorted", func(t *testing.T) {
		if !slices.IsSortedFunc(ref.Intervals, func(a, b tables.Interval) int {
			return compareKeys(a, b)
		}) {
			t.Error("rows not sorted by (statistic, arm, contrast, method)")
		}
	})
}

func compareKeys(a, b tables.Interval) int {
	ka := a.Statistic + "\x00" + a.Arm + "\x00" + a.Contrast + "\x00" + a.Method
	kb := b.Statistic + "\x00" + b.Arm + "\x00" + b.Contrast + "\x00" + b.Method
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	}
	return 0
}

func TestRunDegenerateStatuses(t *testing.T) {
	unscored := func(runs []tables.Run) []tables.Run {
		for i := range runs {
			runs[i].Scored, runs[i].RNum, runs[i].RDen = false, 0, 0
			runs[i].WorkflowCost, runs[i].TimeComplete = nil, false
		}
		return runs
	}
	oneFamily := func() []tables.Run {
		var out []tables.Run
		for _, r := range sixFamilies() {
			if r.Family == "F1" {
				out = append(out, r)
			}
		}
		return out
	}
	allEqual := func() []tables.Run {
		runs := sixFamilies()
		for i := range runs {
			runs[i].RNum, runs[i].RDen = 1, 2
		}
		return runs
	}
	bUnscored := func() []tables.Run {
		runs := sixFamilies()
		for i := range runs {
			if runs[i].Arm == "B" {
				runs[i].Scored = false
			}
		}
		return runs
	}
	noPairs := func() []tables.Run {
		var out []tables.Run
		for _, r := range sixFamilies() {
			if (r.Arm == "A") == (r.TaskID <= "T3") {
				out = append(out, r)
			}
		}
		return out
	}
	cases := []struct {
		name string
		runs []tables.Run
		key  string
		want string
	}{
		{"no_runs", nil, StatMacroR + " A", "no_data"},
		{"no_scored_runs", unscored(sixFamilies()), StatMacroR + " B", "no_data"},
		{"no_scored_runs_diff", unscored(sixFamilies()), StatMacroDiff + " B-A", "no_data"},
		{"one_family", oneFamily(), StatMacroDiff + " B-A", "too_few_families"},
		{"all_equal", allEqual(), StatMacroDiff + " B-A", "degenerate_zero_variance"},
		{"arm_b_unscored", bUnscored(), StatMacroR + " B", "empty_arm"},
		{"arm_b_unscored_diff", bUnscored(), StatMacroDiff + " B-A", "empty_arm"},
		{"disjoint_tasks", noPairs(), StatMacroDiff + " B-A", "no_pairs"},
		{"disjoint_tasks_cost", noPairs(), StatCostRatio + " B/A", "no_pairs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Run(campaign("A", "B"), spool.Of(c.runs...))
			r, ok := rowsOf(s)[c.key]
			if !ok {
				t.Fatalf("no %s row among %d", c.key, len(s.Intervals))
			}
			if r.Status != c.want {
				t.Errorf("status %s, want %s", r.Status, c.want)
			}
			if r.Lo != nil || r.Hi != nil {
				t.Errorf("bounds [%v, %v] on a %s row", *r.Lo, *r.Hi, r.Status)
			}
		})
	}
	t.Run("disjoint_tasks_dropped_count", func(t *testing.T) {
		s := Run(campaign("A", "B"), spool.Of(noPairs()...))
		if r := rowsOf(s)[StatMacroDiff+" B-A"]; r.NTasksDroppedUnpaired != 6 {
			t.Errorf("n_tasks_dropped_unpaired %d, want 6", r.NTasksDroppedUnpaired)
		}
	})
}

func TestRunPlanFindings(t *testing.T) {
	cases := []struct {
		name      string
		plan      tables.IntervalPlan
		pointer   string
		wantCount int
	}{
		{"unknown_cluster", tables.IntervalPlan{Cluster: "task"}, "/intervals/cluster", 1},
		{"negative_resamples", tables.IntervalPlan{Resamples: -5}, "/intervals/resamples", 1},
		{"huge_resamples", tables.IntervalPlan{Resamples: 1 << 40}, "/intervals/resamples", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cp := campaign("A", "B")
			cp.Manifest.Intervals = c.plan
			s := Run(cp, spool.Of(sixFamilies()...))
			if len(s.Findings) != c.wantCount || s.Findings[0].Code != rules.CodeIntervalPlanInvalid || s.Findings[0].Pointer != c.pointer {
				t.Errorf("findings %v", s.Findings)
			}
			if len(s.Intervals) != 0 {
				t.Errorf("%d interval rows with an invalid plan", len(s.Intervals))
			}
		})
	}
}

func TestRunValueFindings(t *testing.T) {
	runs := sixFamilies()
	runs[0].RNum, runs[0].RDen = 5, 4 // R > 1
	s := Run(campaign("A", "B"), spool.Of(runs...))
	if len(s.Findings) != 1 || s.Findings[0].Code != rules.CodeIntervalValueInvalid || s.Findings[0].Session != runs[0].ReviewSessionID {
		t.Fatalf("findings %v", s.Findings)
	}
	if r := rowsOf(s)[StatMacroR+" A"]; r.NRuns != 17 {
		t.Errorf("arm A n_runs %d, want 17 (one value left out)", r.NRuns)
	}
}

func TestRunRepositoryCluster(t *testing.T) {
	runs := sixFamilies()
	for i := range runs { // T1–T3 in repo-x, T4–T6 in repo-y
		runs[i].Repository = "repo-x"
		if runs[i].TaskID > "T3" {
			runs[i].Repository = "repo-y"
		}
	}
	cp := campaign("A", "B")
	cp.Manifest.Intervals.Cluster = "repository"
	s := Run(cp, spool.Of(runs...))
	r := rowsOf(s)[StatMacroDiff+" B-A"]
	if r.NFamilies != 2 || r.Cluster != "repository" || r.SmallGFlag != "very_few_families" {
		t.Errorf("G=%d cluster=%s flag=%s, want 2 repository very_few_families", r.NFamilies, r.Cluster, r.SmallGFlag)
	}
}

func TestSeedAndDefaults(t *testing.T) {
	cp := campaign("A", "B")
	cp.Manifest.Intervals = tables.IntervalPlan{}
	s := RunWith(cp, spool.Of(sixFamilies()...), Options{Resamples: 300})
	sum := sha256.Sum256([]byte("famboot/v1" + "camp-1" + "evalgate.intervals/v1"))
	want := binary.BigEndian.Uint64(sum[:8])
	r := s.Intervals[0]
	if r.Seed != want || r.Cluster != "family" || r.Resamples != 300 {
		t.Errorf("seed %d cluster %s resamples %d, want %d family 300", r.Seed, r.Cluster, r.Resamples, want)
	}
	t.Run("default_resamples", func(t *testing.T) {
		if p, _ := resolvePlan(cp.Manifest, Options{}); p.resamples != 10000 {
			t.Errorf("default resamples %d, want 10000", p.resamples)
		}
	})
	t.Run("nil_campaign", func(t *testing.T) {
		s := RunWith(nil, spool.Of(sixFamilies()...), Options{Resamples: 100})
		if len(s.Intervals) == 0 {
			t.Error("no rows without a campaign")
		}
	})
}

// TestPrimaryRowAndClipping: with 4 families the cluster t row is the
// primary one (the switch rule) and, for arm B's task medians 1, 1, 1 and
// 3/4, its upper bound 0.9375 + t_{0.975,3}·(1/16) ≈ 1.136 is clipped to 1
// and flagged; exactly one row per (statistic, contrast) is primary.
func TestPrimaryRowAndClipping(t *testing.T) {
	var runs []tables.Run
	for i, bNum := range []int64{4, 4, 4, 3} {
		task, fam := fmt.Sprintf("T%d", i+1), fmt.Sprintf("F%d", i+1)
		runs = append(runs, run(task, fam, "A", 1, int64(i), 4, 2, 100), run(task, fam, "B", 1, bNum, 4, 3, 100))
	}
	out := Run(campaign("A", "B"), spool.Of(runs...))
	primaries := map[string]int{}
	for _, r := range out.Intervals {
		if r.Primary {
			primaries[r.Statistic+" "+r.Contrast]++
			if r.Method != "cr1_t" {
				t.Errorf("%s %s: primary method %s at G=4, want cr1_t", r.Statistic, r.Contrast, r.Method)
			}
		}
		if r.Statistic != StatMacroR || r.Contrast != "B" || r.Method != "cr1_t" {
			continue
		}
		if r.Hi == nil || *r.Hi != 1 || !r.Clipped {
			t.Errorf("B macro cr1_t: hi %v clipped %v, want 1 true", r.Hi, r.Clipped)
		}
		if want := 0.9375 - 3.1824463052837095/16; r.Lo == nil || *r.Lo-want > 1e-12 || want-*r.Lo > 1e-12 {
			t.Errorf("B macro cr1_t lo %v, want %v", r.Lo, want)
		}
	}
	for k, n := range primaries {
		if n != 1 {
			t.Errorf("%s: %d primary rows", k, n)
		}
	}
	if len(primaries) != 5 {
		t.Errorf("%d statistics with a primary row, want 5: %v", len(primaries), primaries)
	}
}
