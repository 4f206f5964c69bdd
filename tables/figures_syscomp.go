package tables

import "math/big"

// SystemFigures are a system comparison's figures (rule G5), computed
// exactly by stages/aggregate from the runs table and only formatted by
// the reports. Money is in pico-units of the campaign currency, times in
// nanoseconds; a nil amount is unknown (a run's cost is null), never zero.
// Nothing is amortized: a cold setup is charged once, in full, to the
// system's first workflow in its repository, and the whole-suite total is
// the plain sum of every workflow.
type SystemFigures struct {
	Systems []SystemTotals   // design order
	Setups  []SystemSetup    // per (system, repository): design order, then repository order of first appearance
	Tasks   []SystemTaskCost // per (task, system): manifest task order, then design order
}

// SystemTotals is one system over the whole suite.
type SystemTotals struct {
	System, Role string // Role is the comparator_role
	Runs         int64
	// WholeSuiteCost and WholeSuiteNS: Σ workflow cost and time over every
	// run, cold setups included.
	WholeSuiteCost, WholeSuiteNS *big.Rat
	// SetupCost and SetupNS: Σ of the cold setups charged to the runs.
	SetupCost, SetupNS *big.Rat
	// WarmCost and WarmNS: the whole suite without its cold setups, the
	// warm-query cost and time; MedianWarmCost and MedianWarmNS are their
	// medians over runs (each run's workflow minus its setup).
	WarmCost, WarmNS             *big.Rat
	MedianWarmCost, MedianWarmNS *big.Rat
	// RSys: correctly addressed repository-answerable obligations over
	// the one frozen denominator shared by every system, pooled over
	// runs (RSysDen is the same for every system); MacroRSys is the
	// macro-average of task-median R_sys the gates read. Unscored runs
	// are counted in UnscoredRuns and make MacroRSys nil.
	RSysNum, RSysDen int64
	MacroRSys        *big.Rat
	UnscoredRuns     int64
	// U apart: credited unknowns over the separately frozen U set.
	UNum, UDen int64
	// Packet-supported coverage of this provider, pooled over the runs
	// whose observations are known; it never enters R_sys or a gate.
	PacketSupportedNum, PacketSupportedDen int64
	PacketSupportedUnknownRuns             int64
	// WorkflowsOverLimits counts runs whose limits_exceeded is not empty.
	WorkflowsOverLimits int64
}

// SystemSetup is one system's cold setup in one repository and the first
// task it is charged to.
type SystemSetup struct {
	System, Repository string
	SetupSessionID     string // "" when the run has no known setup
	ColdTask           string
	ColdRepetition     int64
	SetupCost, SetupNS *big.Rat
	// ColdFirstTask*: the cold first workflow, setup included;
	// WarmFirstTask*: the same workflow without its setup.
	ColdFirstTaskCost, ColdFirstTaskNS *big.Rat
	WarmFirstTaskCost, WarmFirstTaskNS *big.Rat
}

// SystemTaskCost is one task under one system over its repetitions.
type SystemTaskCost struct {
	Task, Repository, System string
	Runs, ColdRuns           int64
	TotalCost, TotalNS       *big.Rat // Σ workflow cost and time, cold setup included
	MedianCost, MedianNS     *big.Rat // the task medians the gates compare
	Answerable               int64    // the task's repository-answerable obligations: R_sys's shared denominator per run
}
