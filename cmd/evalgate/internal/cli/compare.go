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
	// stepSummary appends the Markdown to the file named by
	// $GITHUB_STEP_SUMMARY, whatever stdout prints.
	stepSummary bool
	// allowPolicyChange compares outputs judged under different policies.
	allowPolicyChange bool
}

// stepSummaryEnv names the file a GitHub Actions step appends its job
// summary to.
const stepSummaryEnv = "GITHUB_STEP_SUMMARY"

// failNamed is how many differences the failure line on stderr names.
const failNamed = 10

// errCompareFails says the comparison met --fail-on; it exits 1 like a
// rejection, and what failed is already printed.
var errCompareFails = fmt.Errorf("comparison fails: %w", errRejected)

func newCompareCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts compareOptions
	cmd := &cobra.Command{
		Use:   "compare OLD NEW [--tolerance T] [--format text|md] [--step-summary] [--fail-on regression|decision-worse|any-change] [--allow-policy-change] [--json]",
		Short: "Compare the gates, decision and metrics of two run outputs",
		Long: `compare reads two output directories written by 'evalgate run' and prints
what differs: the decision, each gate's result, observed value, threshold and
failing list, each arm's macro-average task-median R and U, the cost and time
ratios, and each task's median R per arm.

Only the rules give a difference a direction. A regression ("worse") is a
worse decision (advance > do_not_advance, stop_no_gain > no_verdict), a gate
that fails where it passed, or a figure a gate reads for the candidate moving
the wrong way by that gate's comparison (">=": down is worse, "<=": up is
worse). The baseline's own figures, a ceiling's use, a count, a rejecting
finding are "changed", never worse.

Two outputs judged under different policies (a threshold, the gates, a
ceiling's limit or the policy's identity differ) are not comparable: exit 2
with every differing number listed, unless --allow-policy-change, which lists
them as policy changes (never better or worse).

Metrics are compared exactly; one moves when |NEW - OLD| > --tolerance
(absolute, a decimal or fraction, default 0). The decision and gates have no
tolerance. --format md prints Markdown for a pull-request comment; without
--format, compare prints Markdown when stdout is the file
$GITHUB_STEP_SUMMARY names and text otherwise. --step-summary appends the
Markdown to $GITHUB_STEP_SUMMARY while stdout keeps its format.

Exit 0 unless --fail-on is met: regression (default) when a difference
beyond the tolerance is worse, decision-worse when the decision is worse,
any-change when any difference is beyond the tolerance; then exit 1, naming
what failed on stderr. Exit 2 when a directory is missing or not an evalgate
output, the campaign kinds, scorecard versions or policies differ, or a flag
is bad; 3 on an I/O error.`,
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
			if !slices.Contains(compare.FailOns(), compare.FailOn(opts.failOn)) {
				return usagef("--fail-on %q: want regression, decision-worse or any-change", opts.failOn)
			}
			return runCompare(stdout, stderr, args[0], args[1], tol, opts)
		},
	}
	cmd.Flags().StringVar(&opts.tolerance, "tolerance", "0", "largest absolute move of a metric that is not a change (decimal or p/q)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the comparison as JSON")
	cmd.Flags().StringVar(&opts.format, "format", "", "text, or md for Markdown (default: md when stdout is $GITHUB_STEP_SUMMARY, else text)")
	cmd.Flags().BoolVar(&opts.stepSummary, "step-summary", false, "also append the Markdown to the file $GITHUB_STEP_SUMMARY names")
	cmd.Flags().StringVar(&opts.failOn, "fail-on", string(compare.FailOnRegression), "exit 1 on a regression, a worse decision (decision-worse), or any change (any-change)")
	cmd.Flags().BoolVar(&opts.allowPolicyChange, "allow-policy-change", false, "compare outputs judged under different policies, listing each differing number as a policy change")
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

// notComparable is what --json prints when the policies differ.
type notComparable struct {
	Old           string               `json:"old"`
	New           string               `json:"new"`
	Comparable    bool                 `json:"comparable"`
	Error         string               `json:"error"`
	PolicyChanges []compare.Difference `json:"policy_changes"`
}

func runCompare(stdout, stderr io.Writer, oldDir, newDir string, tol *big.Rat, opts compareOptions) error {
	c, err := compare.Dirs(oldDir, newDir, compare.Options{Tolerance: tol, AllowPolicyChange: opts.allowPolicyChange})
	var pe *compare.PolicyError
	if errors.As(err, &pe) {
		if opts.json {
			if err := writeJSON(stdout, notComparable{Old: oldDir, New: newDir, Error: "judged under different policies", PolicyChanges: pe.Changes}); err != nil {
				return err
			}
		}
		return &usageError{msg: textLines(err.Error()) + "\n--allow-policy-change compares them anyway, listing each of these as a policy change (see 'evalgate compare --help')", escaped: true}
	}
	if errors.Is(err, compare.ErrNotOutput) || errors.Is(err, compare.ErrVersionMismatch) || errors.Is(err, compare.ErrKindMismatch) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	failOn := compare.FailOn(opts.failOn)
	switch {
	case opts.json:
		err = writeJSON(stdout, c)
	case opts.format == "md" || opts.format == "" && isStepSummary(stdout):
		err = c.WriteMarkdown(stdout, failOn)
	default:
		err = c.WriteText(stdout)
	}
	if err != nil {
		return err
	}
	if opts.stepSummary {
		if err := appendStepSummary(c, failOn); err != nil {
			return err
		}
	}
	if hit := c.Fails(failOn); len(hit) > 0 {
		var names []string
		for i, d := range hit {
			if i == failNamed {
				names = append(names, fmt.Sprintf("and %d more", len(hit)-failNamed))
				break
			}
			names = append(names, d.What())
		}
		fmt.Fprintf(stderr, "evalgate: compare fails on %s: %s\n", failOn, text(strings.Join(names, "; ")))
		return errCompareFails
	}
	return nil
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

// appendStepSummary appends the Markdown to $GITHUB_STEP_SUMMARY,
// creating the file when missing, as GitHub Actions expects.
func appendStepSummary(c *compare.Comparison, failOn compare.FailOn) error {
	f, err := os.OpenFile(os.Getenv(stepSummaryEnv), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("--step-summary: %w", err)
	}
	if err := c.WriteMarkdown(f, failOn); err != nil {
		f.Close()
		return fmt.Errorf("--step-summary: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--step-summary: %w", err)
	}
	return nil
}
