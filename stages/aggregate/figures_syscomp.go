package aggregate

import (
	"math/big"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// systemFigures computes the system-comparison figures of the reports
// from the runs (every planned run, whatever the preset judges) and the
// task summaries the gates read. nil for other kinds. A run's warm part is
// its workflow minus the setup charged to it; totals are plain sums, so a
// cold setup is never amortized over the suite.
func systemFigures(c *tables.Campaign, all []*taskArm, runs runSet) *tables.SystemFigures {
	if c.Manifest.Kind != rules.KindSystemComparison {
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
		f.Systems = append(f.Systems, systemTotals(arm, runs.ofArm(arm.ID), all))
		for _, repo := range repos {
			if s, ok := systemSetup(arm.ID, repo, runs.ofArm(arm.ID)); ok {
				f.Setups = append(f.Setups, s)
			}
		}
	}
	for _, t := range d.Tasks {
		for _, arm := range d.Arms {
			f.Tasks = append(f.Tasks, systemTask(t, arm.ID, all))
		}
	}
	return f
}

// runParts are a run's exact cost and time, whole and without its setup;
// a nil cost is unknown.
func runParts(r *tables.Run) (cost, ns, warmCost, warmNS *big.Rat) {
	cost, ns = moneyRat(r.WorkflowCost), big.NewRat(r.WorkflowNS, 1)
	warmNS = big.NewRat(r.WorkflowNS-r.SetupNS, 1)
	if setup := moneyRat(r.SetupCost); cost != nil && setup != nil {
		warmCost = new(big.Rat).Sub(cost, setup)
	}
	return cost, ns, warmCost, warmNS
}

// systemTotals sums the system's runs (runs are the arm's).
func systemTotals(arm tables.Arm, runs runSet, all []*taskArm) tables.SystemTotals {
	t := tables.SystemTotals{System: arm.ID, Role: arm.ComparatorRole}
	var cost, ns, warm, warmNS, setup, setupNS []*big.Rat
	for r := range runs.All() {
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

// systemSetup is the cold run of arm in repo: the first run marked cold
// there (runs are the arm's).
func systemSetup(arm, repo string, runs runSet) (tables.SystemSetup, bool) {
	for r := range runs.All() {
		if r.Repository != repo || !r.Cold {
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

// systemTask is the system's cost and time on one task, from its task
// summary (none when the system has no run of the task).
func systemTask(spec tables.TaskSpec, arm string, all []*taskArm) tables.SystemTaskCost {
	t := tables.SystemTaskCost{Task: spec.ID, Repository: spec.Repository, System: arm}
	t.TotalCost, t.TotalNS = new(big.Rat), new(big.Rat) // the sums over no run
	for _, ta := range all {
		if ta.arm == arm && ta.spec.ID == spec.ID {
			t.Runs, t.ColdRuns, t.Answerable = ta.nRuns, ta.coldRuns, ta.answerable
			t.TotalCost, t.TotalNS = ta.cost.total(), ta.ns.total()
			t.MedianCost, t.MedianNS = ta.medianCost, timeMedian(ta, false)
		}
	}
	return t
}
