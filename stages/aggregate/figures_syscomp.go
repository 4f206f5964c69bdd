package aggregate

import (
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// systemFigures computes the system-comparison figures of the reports
// from the runs (every planned run, whatever the preset judges) and the
// task summaries the gates read. nil for other kinds. A run's warm part is
// its workflow minus the setup charged to it; totals are plain sums, so a
// cold setup is never amortized over the suite.
func systemFigures(c *tables.Campaign, all []*taskArm, runs []tables.Run) *tables.SystemFigures {
	if c.Manifest.Kind != tables.KindSystemComparison {
		return nil
	}
	d := &c.Manifest.Design
	f := &tables.SystemFigures{Systems: []tables.SystemTotals{}, Setups: []tables.SystemSetup{}, Tasks: []tables.SystemTaskCost{}}
	var repos []string
	for _, t := range d.Tasks {
		if !slices.Contains(repos, t.Repository) {
			repos = append(repos, t.Repository)
		}
	}
	for _, arm := range d.Arms {
		f.Systems = append(f.Systems, systemTotals(arm, runs, all))
		for _, repo := range repos {
			if s, ok := systemSetup(arm.ID, repo, runs); ok {
				f.Setups = append(f.Setups, s)
			}
		}
	}
	for _, t := range d.Tasks {
		for _, arm := range d.Arms {
			f.Tasks = append(f.Tasks, systemTask(t, arm.ID, runs, all))
		}
	}
	return f
}

// runParts are a run's exact cost and time, whole and without its setup;
// a nil cost is unknown.
func runParts(r tables.Run) (cost, ns, warmCost, warmNS *big.Rat) {
	cost, ns = moneyRat(r.WorkflowCost), big.NewRat(r.WorkflowNS, 1)
	warmNS = big.NewRat(r.WorkflowNS-r.SetupNS, 1)
	if setup := moneyRat(r.SetupCost); cost != nil && setup != nil {
		warmCost = new(big.Rat).Sub(cost, setup)
	}
	return cost, ns, warmCost, warmNS
}

func systemTotals(arm tables.Arm, runs []tables.Run, all []*taskArm) tables.SystemTotals {
	t := tables.SystemTotals{System: arm.ID, Role: arm.ComparatorRole}
	var cost, ns, warm, warmNS, setup, setupNS []*big.Rat
	for _, r := range runs {
		if r.Arm != arm.ID {
			continue
		}
		t.Runs++
		c, n, w, wn := runParts(r)
		cost, ns, warm, warmNS = append(cost, c), append(ns, n), append(warm, w), append(warmNS, wn)
		setup, setupNS = append(setup, moneyRat(r.SetupCost)), append(setupNS, big.NewRat(r.SetupNS, 1))
		t.RSysDen += r.RDen
		t.UDen += r.UDen
		if r.Scored {
			t.RSysNum += r.RNum
			t.UNum += r.UNum
		} else {
			t.UnscoredRuns++
		}
		if r.PacketSupported == nil {
			t.PacketSupportedUnknownRuns++
		} else {
			t.PacketSupportedNum += r.PacketSupportedNum
			t.PacketSupportedDen += r.PacketSupportedDen
		}
		if len(r.LimitsExceeded) > 0 {
			t.WorkflowsOverLimits++
		}
	}
	t.WholeSuiteCost, t.WholeSuiteNS = stats.Sum(cost), stats.Sum(ns)
	t.SetupCost, t.SetupNS = stats.Sum(setup), stats.Sum(setupNS)
	t.WarmCost, t.WarmNS = stats.Sum(warm), stats.Sum(warmNS)
	t.MedianWarmCost, t.MedianWarmNS = stats.MedianRat(warm), stats.MedianRat(warmNS)
	var medians []*big.Rat
	for _, ta := range all {
		if ta.arm == arm.ID {
			medians = append(medians, ta.medianR)
		}
	}
	if len(medians) > 0 {
		t.MacroRSys = stats.Mean(medians)
	}
	return t
}

// systemSetup is the cold run of arm in repo: the run marked cold there.
func systemSetup(arm, repo string, runs []tables.Run) (tables.SystemSetup, bool) {
	for _, r := range runs {
		if r.Arm != arm || r.Repository != repo || !r.Cold {
			continue
		}
		c, n, w, wn := runParts(r)
		return tables.SystemSetup{System: arm, Repository: repo, SetupSessionID: r.SetupSessionID,
			ColdTask: r.TaskID, ColdRepetition: r.Repetition,
			SetupCost: moneyRat(r.SetupCost), SetupNS: big.NewRat(r.SetupNS, 1),
			ColdFirstTaskCost: c, ColdFirstTaskNS: n, WarmFirstTaskCost: w, WarmFirstTaskNS: wn}, true
	}
	return tables.SystemSetup{}, false
}

func systemTask(spec tables.TaskSpec, arm string, runs []tables.Run, all []*taskArm) tables.SystemTaskCost {
	t := tables.SystemTaskCost{Task: spec.ID, Repository: spec.Repository, System: arm}
	var cost, ns []*big.Rat
	for _, r := range runs {
		if r.Arm != arm || r.TaskID != spec.ID {
			continue
		}
		t.Runs++
		if r.Cold {
			t.ColdRuns++
		}
		c, n, _, _ := runParts(r)
		cost, ns = append(cost, c), append(ns, n)
		t.Answerable = r.RDen
	}
	t.TotalCost, t.TotalNS = stats.Sum(cost), stats.Sum(ns)
	for _, ta := range all {
		if ta.arm == arm && ta.spec.ID == spec.ID {
			t.MedianCost, t.MedianNS = ta.medianCost, timeMedian(ta, false)
		}
	}
	return t
}
