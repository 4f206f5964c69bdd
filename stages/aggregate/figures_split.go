package aggregate

import "github.com/evalgate/evalgate/tables"

// splitRatios computes the cost and time ratios of every split for every
// non-baseline arm through the gates' own judge (newJudge, ratioOfSums):
// the judged split over judged, exactly the runs the gates read, every
// other split over all its runs. pol may be nil (nothing judged).
func splitRatios(pol *policy, c *tables.Campaign, in *inputs, all []*taskArm, judged runSet) (string, []tables.SplitCostRatio) {
	arms := c.Manifest.Design.Arms
	out := []tables.SplitCostRatio{}
	if len(arms) < 2 {
		return "", out
	}
	judgedSplit := ""
	if pol != nil && !judged.empty() {
		judgedSplit = pol.split
	}
	split := map[string]string{}
	for _, t := range c.Manifest.Design.Tasks {
		split[t.ID] = t.Split
	}
	for _, sp := range splitOrder(taskOrder(c, all), split) {
		of := judged
		if sp != judgedSplit {
			of = in.runs.where(func(r *tables.Run) bool { return split[r.TaskID] == sp })
		}
		for _, arm := range arms[1:] {
			var j *judge
			if sp == judgedSplit { // of is the judged runs, whose judge the gates read too
				j = in.judgeOf(pol, c, arms[0].ID, arm.ID)
			} else {
				j = newJudge(pol, c, in, of, arms[0].ID, arm.ID)
			}
			out = append(out, tables.SplitCostRatio{Split: sp, Judged: sp == judgedSplit, ArmCostRatio: tables.ArmCostRatio{
				Arm:        arm.ID,
				Cost:       j.ratioOfSums(costMedian, false),
				ReviewCost: j.ratioOfSums(costMedian, true),
				Time:       j.ratioOfSums(timeMedian, false),
				ReviewTime: j.ratioOfSums(timeMedian, true),
			}})
		}
	}
	return judgedSplit, out
}
