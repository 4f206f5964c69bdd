package aggregate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The development round-2 preset (rule G4) is the only development
// admission check: round 1 runs one triplet on each of the four
// development tasks, round 2 a new triplet on each same task, and only
// round 2 is judged. The preset therefore judges repetition 2 of exactly
// four development tasks, each scheduled for exactly two rounds; any other
// development split is refused for the preset (development_round2_incomplete,
// no verdict), never judged on "each task's last repetition".

// round2Tasks and round2Rounds are the seed's development design.
const (
	round2Tasks  = 4
	round2Rounds = 2
)

// round2Refusal returns why the campaign cannot be judged by a round-2
// preset, or "" when its development split is four tasks of two rounds.
func round2Refusal(d *tables.Design, split string) string {
	var tasks []string
	for _, t := range d.Tasks {
		if t.Split == split {
			tasks = append(tasks, t.ID)
		}
	}
	var bad []string
	if len(tasks) != round2Tasks {
		bad = append(bad, fmt.Sprintf("%d %s tasks, not %d", len(tasks), split, round2Tasks))
	}
	for _, id := range tasks {
		reps := scheduledRounds(d, id)
		if !slices.Equal(reps, []int64{1, 2}) {
			bad = append(bad, fmt.Sprintf("task %s has rounds %v, not [1 2]", id, reps))
		}
	}
	return strings.Join(bad, "; ")
}

// scheduledRounds are the repetitions the design schedules for task,
// sorted and unique: the schedule's slots, or 1..repetitions without one.
func scheduledRounds(d *tables.Design, task string) []int64 {
	var reps []int64
	if len(d.Schedule) == 0 {
		for r := int64(1); r <= min(d.RepetitionsOf(tables.SplitDevelopment), round2Rounds+1); r++ {
			reps = append(reps, r)
		}
		return reps
	}
	for _, s := range d.Schedule {
		if s.Task == task {
			reps = append(reps, s.Repetition)
		}
	}
	slices.Sort(reps)
	return slices.Compact(reps)
}

func round2Finding(p *policy, why string) rules.Finding {
	return rules.Finding{
		Code: rules.CodeDevelopmentRound2Incomplete, Severity: rules.Reject, File: manifestFile, Pointer: "/gate_policy/preset",
		Message: fmt.Sprintf("preset %s judges round 2 of exactly %d %s tasks with %d rounds each, but the campaign has %s", p.name, round2Tasks, p.split, round2Rounds, why),
	}
}
