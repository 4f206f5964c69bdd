package markdown

import (
	"bufio"
	"fmt"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// writeSystemComparison renders the system-comparison section: per system
// the whole suite, its cold setups and its warm part, R_sys against the
// shared denominator, U apart and the provider's packet-supported
// coverage; per (system, repository) the cold first task; per task each
// system's cost and time. Every figure is the scorecard's, formatted. The
// gates above carry each §6 gate's observed value and failing items.
func writeSystemComparison(b *bufio.Writer, sc *scorecard.SystemComparison, tokens *spool.Spool[tables.Token], cur string) {
	if sc == nil {
		return
	}
	b.WriteString("### System comparison\n\n")
	currency := "the campaign currency"
	for first := range tokens.All() {
		if first.Currency != "" {
			currency = first.Currency
		}
		if cur == "" {
			cur = first.Currency
		}
		break
	}
	fmt.Fprintf(b, "Money in %s (reference basis). Cold setup is charged in full to each system's first workflow in a repository and never amortized; "+
		"the whole suite is every workflow, setups included; warm is the suite without its setups. "+
		"R\\_sys is over the one repository-answerable denominator shared by every system; packet-supported coverage is the provider's own and enters no gate.\n\n", escapeMarkdown(currency))
	table(b, []string{"system", "role", "runs", "whole-suite cost", "whole-suite time", "cold setup cost", "cold setup time",
		"warm cost", "warm time", "median warm workflow cost", "R\\_sys (pooled)", "macro task-median R\\_sys", "U (pooled)", "packet-supported", "workflows over a limit"})
	for _, s := range sc.Systems {
		ps := fmt.Sprintf("%d/%d", s.PacketSupportedNum, s.PacketSupportedDen)
		if s.PacketSupportedUnknownRuns > 0 {
			ps += fmt.Sprintf(" (%d runs unknown)", s.PacketSupportedUnknownRuns)
		}
		rsys := fmt.Sprintf("%d/%d", s.RSysNum, s.RSysDen)
		if s.UnscoredRuns > 0 {
			rsys += fmt.Sprintf(" (%d runs unscored)", s.UnscoredRuns)
		}
		row(b, escapeMarkdown(s.System), escapeMarkdown(s.Role), scorecard.Int(s.Runs), scorecard.Amount(cur, s.WholeSuiteCost), scorecard.Duration(s.WholeSuiteNS),
			scorecard.Amount(cur, s.SetupCost), scorecard.Duration(s.SetupNS), scorecard.Amount(cur, s.WarmCost), scorecard.Duration(s.WarmNS), scorecard.Amount(cur, s.MedianWarmCost),
			rsys, scorecard.Shown(s.MacroRSys), fmt.Sprintf("%d/%d", s.UNum, s.UDen), ps, scorecard.Int(s.WorkflowsOverLimits))
	}
	b.WriteString("\nCold first task per system and repository:\n\n")
	table(b, []string{"system", "repository", "first task", "setup session", "setup cost", "setup time",
		"cold first-task cost", "cold first-task time", "same task warm cost", "same task warm time"})
	for _, s := range sc.Setups {
		row(b, escapeMarkdown(s.System), escapeMarkdown(s.Repository), fmt.Sprintf("%s/r%d", escapeMarkdown(s.ColdTask), s.ColdRepetition),
			escapeMarkdown(s.SetupSessionID), scorecard.Amount(cur, s.SetupCost), scorecard.Duration(s.SetupNS), scorecard.Amount(cur, s.ColdFirstTaskCost), scorecard.Duration(s.ColdFirstTaskNS),
			scorecard.Amount(cur, s.WarmFirstTaskCost), scorecard.Duration(s.WarmFirstTaskNS))
	}
	b.WriteString("\nEach task (cold runs carry their setup):\n\n")
	table(b, []string{"task", "repository", "system", "runs", "cold runs", "total cost", "total time", "median cost", "median time", "answerable obligations"})
	for _, t := range sc.Tasks {
		row(b, escapeMarkdown(t.Task), escapeMarkdown(t.Repository), escapeMarkdown(t.System), scorecard.Int(t.Runs), scorecard.Int(t.ColdRuns),
			scorecard.Amount(cur, t.TotalCost), scorecard.Duration(t.TotalNS), scorecard.Amount(cur, t.MedianCost), scorecard.Duration(t.MedianNS), scorecard.Int(t.Answerable))
	}
	b.WriteString("\n")
}
