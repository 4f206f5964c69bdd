package scorecard

import "github.com/evalgate/evalgate/tables"

// SystemComparison is scorecard.json's system_comparison member (kind
// system-comparison only): the aggregate stage's exact figures, formatted.
// Money is a decimal string in the campaign currency, times exact
// nanoseconds as decimal strings; null is unknown, never zero. The gates
// with their observed values and failing items are the scorecard's gates.
type SystemComparison struct {
	Systems []SystemTotalsResult `json:"systems"`
	Setups  []SystemSetupResult  `json:"setups"`
	Tasks   []SystemTaskResult   `json:"tasks"`
}

// SystemTotalsResult is one system over the whole suite.
type SystemTotalsResult struct {
	System                     string  `json:"system"`
	Role                       string  `json:"role"`
	Runs                       int64   `json:"runs"`
	WholeSuiteCost             *string `json:"whole_suite_cost"` // every workflow, cold setups included, no amortization
	WholeSuiteNS               *string `json:"whole_suite_ns"`
	SetupCost                  *string `json:"setup_cost"`
	SetupNS                    *string `json:"setup_ns"`
	WarmCost                   *string `json:"warm_cost"` // the whole suite without its cold setups
	WarmNS                     *string `json:"warm_ns"`
	MedianWarmCost             *string `json:"median_warm_cost"`
	MedianWarmNS               *string `json:"median_warm_ns"`
	RSysNum                    int64   `json:"r_sys_num"`
	RSysDen                    int64   `json:"r_sys_den"` // the shared repository-answerable denominator, over runs
	MacroRSys                  *Ratio  `json:"macro_r_sys"`
	UnscoredRuns               int64   `json:"unscored_runs"`
	UNum                       int64   `json:"u_num"`
	UDen                       int64   `json:"u_den"`
	PacketSupportedNum         int64   `json:"packet_supported_num"`
	PacketSupportedDen         int64   `json:"packet_supported_den"`
	PacketSupportedUnknownRuns int64   `json:"packet_supported_unknown_runs"`
	WorkflowsOverLimits        int64   `json:"workflows_over_limits"`
}

// SystemSetupResult is one system's cold setup in one repository.
type SystemSetupResult struct {
	System            string  `json:"system"`
	Repository        string  `json:"repository"`
	SetupSessionID    string  `json:"setup_session_id"`
	ColdTask          string  `json:"cold_task"`
	ColdRepetition    int64   `json:"cold_repetition"`
	SetupCost         *string `json:"setup_cost"`
	SetupNS           *string `json:"setup_ns"`
	ColdFirstTaskCost *string `json:"cold_first_task_cost"`
	ColdFirstTaskNS   *string `json:"cold_first_task_ns"`
	WarmFirstTaskCost *string `json:"warm_first_task_cost"`
	WarmFirstTaskNS   *string `json:"warm_first_task_ns"`
}

// SystemTaskResult is one task under one system.
type SystemTaskResult struct {
	Task       string  `json:"task"`
	Repository string  `json:"repository"`
	System     string  `json:"system"`
	Runs       int64   `json:"runs"`
	ColdRuns   int64   `json:"cold_runs"`
	TotalCost  *string `json:"total_cost"`
	TotalNS    *string `json:"total_ns"`
	MedianCost *string `json:"median_cost"`
	MedianNS   *string `json:"median_ns"`
	Answerable int64   `json:"answerable"`
}

// buildSystemComparison formats f, nil for other kinds.
func buildSystemComparison(f *tables.SystemFigures) *SystemComparison {
	if f == nil {
		return nil
	}
	out := &SystemComparison{Systems: []SystemTotalsResult{}, Setups: []SystemSetupResult{}, Tasks: []SystemTaskResult{}}
	for _, s := range f.Systems {
		out.Systems = append(out.Systems, SystemTotalsResult{
			System: s.System, Role: s.Role, Runs: s.Runs,
			WholeSuiteCost: moneyFigure(s.WholeSuiteCost), WholeSuiteNS: nsString(s.WholeSuiteNS),
			SetupCost: moneyFigure(s.SetupCost), SetupNS: nsString(s.SetupNS),
			WarmCost: moneyFigure(s.WarmCost), WarmNS: nsString(s.WarmNS),
			MedianWarmCost: moneyFigure(s.MedianWarmCost), MedianWarmNS: nsString(s.MedianWarmNS),
			RSysNum: s.RSysNum, RSysDen: s.RSysDen, MacroRSys: newRatio(s.MacroRSys), UnscoredRuns: s.UnscoredRuns,
			UNum: s.UNum, UDen: s.UDen,
			PacketSupportedNum: s.PacketSupportedNum, PacketSupportedDen: s.PacketSupportedDen, PacketSupportedUnknownRuns: s.PacketSupportedUnknownRuns,
			WorkflowsOverLimits: s.WorkflowsOverLimits,
		})
	}
	for _, s := range f.Setups {
		out.Setups = append(out.Setups, SystemSetupResult{
			System: s.System, Repository: s.Repository, SetupSessionID: s.SetupSessionID, ColdTask: s.ColdTask, ColdRepetition: s.ColdRepetition,
			SetupCost: moneyFigure(s.SetupCost), SetupNS: nsString(s.SetupNS),
			ColdFirstTaskCost: moneyFigure(s.ColdFirstTaskCost), ColdFirstTaskNS: nsString(s.ColdFirstTaskNS),
			WarmFirstTaskCost: moneyFigure(s.WarmFirstTaskCost), WarmFirstTaskNS: nsString(s.WarmFirstTaskNS),
		})
	}
	for _, t := range f.Tasks {
		out.Tasks = append(out.Tasks, SystemTaskResult{
			Task: t.Task, Repository: t.Repository, System: t.System, Runs: t.Runs, ColdRuns: t.ColdRuns,
			TotalCost: moneyFigure(t.TotalCost), TotalNS: nsString(t.TotalNS),
			MedianCost: moneyFigure(t.MedianCost), MedianNS: nsString(t.MedianNS), Answerable: t.Answerable,
		})
	}
	return out
}
