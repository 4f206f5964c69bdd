package cli

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/stages/report/compare"
)

type compareOptions struct {
	tolerance string
	json      bool
	format    string
	failOn    string
	// stepSummary appends the Markdown table to the file named by
	// $GITHUB_STEP_SUMMARY, whatever stdout prints.
	stepSummary bool
}

// stepSummaryEnv names the file a GitHub Actions step appends its job
// summary to.
const stepSummaryEnv = "GITHUB_STEP_SUMMARY"

// What makes compare exit 1 (--fail-on).
const (
	failOnRegression = "regression" // a difference beyond the tolerance that is worse
	failOnChange     = "change"     // any difference beyond the tolerance
	failOnDecision   = "decision"   // the decision differs
)

// errCompareFails says the comparison met --fail-on; it exits 1 like a
// rejection, and what failed is already printed.
var errCompareFails = fmt.Errorf("comparison fails: %w", errRejected)

func newCompareCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts compareOptions
	cmd := &cobra.Command{
		Use:   "compare OLD NEW [--tolerance T] [--format text|md] [--step-summary] [--fail-on regression|change|decision] [--json]",
		Short: "Compare the gates, decision and metrics of two run outputs",
		Long: `compare reads two output directories written by 'evalgate run' and prints
what differs: the decision, each gate's result, observed value, threshold and
failing list, each arm's macro-average task-median R and U, the cost and time
ratios, and each task's median R per arm. Each line says whether NEW is
better, worse or changed: a gate's observation moves by the gate's
comparison (">=": up is better, "<=": down is better), R and U up are
better, cost and time ratios down are better, a passing gate, a holding
ceiling and a fixed rejecting finding are better.

Metrics are compared exactly; one moves when |NEW - OLD| > --tolerance
(absolute, a decimal or fraction, default 0). The decision and gates have no
tolerance. --format md prints a Markdown table; without --format, compare
prints Markdown when stdout is the file $GITHUB_STEP_SUMMARY names (as in
'evalgate compare old new >> "$GITHUB_STEP_SUMMARY"') and text otherwise.
--step-summary appends the Markdown table to $GITHUB_STEP_SUMMARY while
stdout keeps its format (text in the job log, the table in the summary).
Exit 0 unless --fail-on is met: regression (default) when a difference
beyond the tolerance is worse, change when any difference is beyond it,
decision when the decision differs; then exit 1, naming what failed on
stderr. Exit 2 when a directory is missing or not an evalgate output, or
the campaign kinds or scorecard versions differ; 3 on an I/O error.`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("compare needs exactly two output directories, OLD and NEW; got %d", len(args))
			}
			tol, err := parseTolerance(opts.tolerance)
			if err != nil {
				return err
			}
			if opts.format != "" && opts.format != "text" && opts.format != "md" {
				return usagef("--format %q: want text or md", opts.format)
			}
			if opts.stepSummary && os.Getenv(stepSummaryEnv) == "" {
				return usagef("--step-summary: $%s is not set (GitHub Actions sets it in every step)", stepSummaryEnv)
			}
			switch opts.failOn {
			case failOnRegression, failOnChange, failOnDecision:
			default:
				return usagef("--fail-on %q: want regression, change or decision", opts.failOn)
			}
			return runCompare(stdout, stderr, args[0], args[1], tol, opts)
		},
	}
	cmd.Flags().StringVar(&opts.tolerance, "tolerance", "0", "largest absolute move of a metric that is not a change (decimal or p/q)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the comparison as JSON")
	cmd.Flags().StringVar(&opts.format, "format", "", "text, or md for a Markdown table (default: md when stdout is $GITHUB_STEP_SUMMARY, else text)")
	cmd.Flags().BoolVar(&opts.stepSummary, "step-summary", false, "also append the Markdown table to the file $GITHUB_STEP_SUMMARY names")
	cmd.Flags().StringVar(&opts.failOn, "fail-on", failOnRegression, "exit 1 on a regression, any change, or a decision change")
	cmd.ValidArgsFunction = completeDirs
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "md"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// parseTolerance reads a non-negative exact decimal or fraction.
func parseTolerance(s string) (*big.Rat, error) {
	t := strings.TrimSpace(s)
	r, ok := new(big.Rat).SetString(t)
	if t == "" || len(t) > 64 || strings.ContainsAny(t, "eEpPxX_") || !ok || r.Sign() < 0 {
		return nil, usagef("--tolerance %q: want a non-negative decimal or fraction such as 0.01", s)
	}
	return r, nil
}

func runCompare(stdout, stderr io.Writer, oldDir, newDir string, tol *big.Rat, opts compareOptions) error {
	c, err := compare.Dirs(oldDir, newDir, compare.Options{Tolerance: tol})
	if errors.Is(err, compare.ErrNotOutput) || errors.Is(err, compare.ErrVersionMismatch) || errors.Is(err, compare.ErrKindMismatch) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	why := failure(c, opts.failOn)
	switch {
	case opts.json:
		err = writeJSON(stdout, c)
	case opts.format == "md" || opts.format == "" && isStepSummary(stdout):
		err = printComparisonMarkdown(stdout, c, opts.failOn, why)
	default:
		err = printComparison(stdout, c)
	}
	if err != nil {
		return err
	}
	if opts.stepSummary {
		if err := appendStepSummary(c, opts.failOn, why); err != nil {
			return err
		}
	}
	if why != "" {
		fmt.Fprintf(stderr, "evalgate: compare fails on %s: %s\n", opts.failOn, why)
		return errCompareFails
	}
	return nil
}

// failure names what meets --fail-on, or is empty.
func failure(c *compare.Comparison, failOn string) string {
	var hit []compare.Difference
	switch failOn {
	case failOnRegression:
		hit = c.Regressions()
	case failOnChange:
		for _, d := range c.Differences {
			if d.Beyond {
				hit = append(hit, d)
			}
		}
	case failOnDecision:
		if c.DecisionChanged() {
			return fmt.Sprintf("decision %s -> %s", c.Old.Decision, c.New.Decision)
		}
	}
	names := make([]string, len(hit))
	for i, d := range hit {
		names[i] = what(d)
	}
	return strings.Join(names, "; ")
}

// what names a difference: its kind, key and field, without repeating a
// word ("decision failing_gates", "gate g2_task_floor B pass").
func what(d compare.Difference) string {
	parts := []string{d.Kind}
	if d.Key != "" {
		parts = append(parts, d.Key)
	}
	if d.Field != d.Kind {
		parts = append(parts, d.Field)
	}
	return strings.Join(parts, " ")
}

// mark is a line's leading word: the direction, with "(within tolerance)"
// when the move does not count.
func mark(d compare.Difference) string {
	if !d.Beyond {
		return string(d.Direction) + " (within tolerance)"
	}
	return string(d.Direction)
}

func printComparison(w io.Writer, c *compare.Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "old: %s (campaign %q, manifest %s)\n", c.Old.Dir, c.Old.CampaignID, c.Old.ManifestSHA256)
	fmt.Fprintf(&b, "new: %s (campaign %q, manifest %s)\n", c.New.Dir, c.New.CampaignID, c.New.ManifestSHA256)
	fmt.Fprintf(&b, "decision: %s -> %s\n", c.Old.Decision, c.New.Decision)
	for _, d := range c.Differences {
		if removed, added, ok := listChange(d); ok {
			fmt.Fprintf(&b, "%s %s: %s (%d -> %d)\n", mark(d), what(d), listMoves(removed, added, ""), len(splitList(*d.Old)), len(splitList(*d.New)))
			continue
		}
		fmt.Fprintf(&b, "%s %s: %s -> %s", mark(d), what(d), orNull(d.Old), orNull(d.New))
		if d.Delta != nil {
			fmt.Fprintf(&b, " (delta %s)", *d.Delta)
		}
		b.WriteByte('\n')
	}
	b.WriteString(summary(c) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// summary is the last line: changed or unchanged, with the count of each
// direction beyond the tolerance.
func summary(c *compare.Comparison) string {
	n := map[compare.Direction]int{}
	beyond := 0
	for _, d := range c.Differences {
		if d.Beyond {
			n[d.Direction]++
			beyond++
		}
	}
	if !c.Changed {
		return fmt.Sprintf("result: unchanged (%d differences, none beyond tolerance %s)", len(c.Differences), c.Tolerance)
	}
	return fmt.Sprintf("result: changed (%d of %d differences beyond tolerance %s: %d worse, %d better, %d changed)",
		beyond, len(c.Differences), c.Tolerance, n[compare.Worse], n[compare.Better], n[compare.Changed])
}

// printComparisonMarkdown prints the comparison as a Markdown table, one
// row per difference, for a CI job summary; why (from [failure]) names
// what meets --fail-on, if anything.
func printComparisonMarkdown(w io.Writer, c *compare.Comparison, failOn, why string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### evalgate compare: decision %s → %s\n\n", mdCell(string(c.Old.Decision)), mdCell(string(c.New.Decision)))
	fmt.Fprintf(&b, "Old %s, new %s (campaign %s).\n\n", mdCode(c.Old.Dir), mdCode(c.New.Dir), mdCell(c.New.CampaignID))
	if why != "" {
		fmt.Fprintf(&b, "**Fails on %s:** %s\n\n", failOn, mdCell(why))
	}
	if len(c.Differences) > 0 {
		b.WriteString("| | what | old | new | delta |\n|---|---|---|---|---|\n")
		for _, d := range c.Differences {
			delta := ""
			if d.Delta != nil {
				delta = mdCode(*d.Delta)
			}
			if removed, added, ok := listChange(d); ok {
				oldCell, newCell := "", ""
				if len(removed) > 0 || len(added) == 0 {
					oldCell = listMoves(removed, nil, "`")
				}
				if len(added) > 0 {
					newCell = listMoves(nil, added, "`")
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %d → %d |\n", mark(d), mdCell(what(d)), oldCell, newCell, len(splitList(*d.Old)), len(splitList(*d.New)))
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", mark(d), mdCell(what(d)), mdValue(d.Old), mdValue(d.New), delta)
		}
		b.WriteByte('\n')
	}
	b.WriteString(summary(c) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// mdValue renders a compared value in a table cell: *null* when absent,
// *empty* for "", otherwise the text as code.
func mdValue(s *string) string {
	switch {
	case s == nil:
		return "*null*"
	case *s == "":
		return "*empty*"
	}
	return mdCode(*s)
}

// mdCode is s as a code span inside a table cell.
func mdCode(s string) string {
	return "`" + mdCell(s) + "`"
}

// mdCell keeps a value inside its table cell: a pipe is escaped, a line
// break becomes a space.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "`", "'").Replace(s)
}

// listChange splits a difference of a list field (the decision's
// failing_gates, a gate's failing tasks or runs) into what left the list
// and what joined it, in list order; ok is false for any other field or
// an absent side.
func listChange(d compare.Difference) (removed, added []string, ok bool) {
	if d.Field != "failing_gates" && d.Field != "failing" || d.Old == nil || d.New == nil {
		return nil, nil, false
	}
	old, nw := splitList(*d.Old), splitList(*d.New)
	for _, x := range old {
		if !slices.Contains(nw, x) {
			removed = append(removed, x)
		}
	}
	for _, x := range nw {
		if !slices.Contains(old, x) {
			added = append(added, x)
		}
	}
	return removed, added, true
}

// splitList splits a comma-separated list ("T1, T2" or "a,b"); "" is
// the empty list.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// listMoves prints removed items as "-x" and added ones as "+y", each
// wrapped in quote (a Markdown backtick, or nothing); "reordered" when
// neither list has an item the other lacks.
func listMoves(removed, added []string, quote string) string {
	var parts []string
	for _, x := range removed {
		parts = append(parts, "-"+quote+mdCell(x)+quote)
	}
	for _, x := range added {
		parts = append(parts, "+"+quote+mdCell(x)+quote)
	}
	if len(parts) == 0 {
		return "reordered"
	}
	return strings.Join(parts, " ")
}

// isStepSummary reports whether w is the file $GITHUB_STEP_SUMMARY names.
func isStepSummary(w io.Writer) bool {
	f, ok := w.(*os.File)
	path := os.Getenv(stepSummaryEnv)
	if !ok || path == "" {
		return false
	}
	out, err := f.Stat()
	if err != nil {
		return false
	}
	summary, err := os.Stat(path)
	return err == nil && os.SameFile(out, summary)
}

// appendStepSummary appends the Markdown table to $GITHUB_STEP_SUMMARY,
// creating the file when missing, as GitHub Actions expects.
func appendStepSummary(c *compare.Comparison, failOn, why string) error {
	f, err := os.OpenFile(os.Getenv(stepSummaryEnv), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("--step-summary: %w", err)
	}
	if err := printComparisonMarkdown(f, c, failOn, why); err != nil {
		f.Close()
		return fmt.Errorf("--step-summary: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--step-summary: %w", err)
	}
	return nil
}

// orNull renders a compared value: null when absent, a boolean or number
// bare, any other text quoted (so that "" and spaces stay visible).
func orNull(s *string) string {
	switch {
	case s == nil:
		return "null"
	case *s == "true" || *s == "false" || isNumber(*s):
		return *s
	}
	return fmt.Sprintf("%q", *s)
}

// isNumber reports whether s is a plain decimal or fraction ("0.75",
// "-3", "7/8").
func isNumber(s string) bool {
	if s == "" || len(s) > 64 || strings.ContainsAny(s, "eEpPxX_ +") {
		return false
	}
	_, ok := new(big.Rat).SetString(s)
	return ok
}
