package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/report"
	"github.com/evalgate/evalgate/tables"
	"github.com/spf13/cobra"
)

type runOptions struct {
	out           string
	example       string
	json          bool
	skipIntervals bool
	force         bool
	profile       *profiler // the hidden --cpuprofile and --memprofile
	// failOnDecision makes a judged campaign whose decision is not
	// advance exit 1 (--fail-on decision), for a CI job that gates on it.
	failOnDecision bool
	// progress tells whether --progress is on for this invocation.
	progress func() bool
}

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts runOptions
	var failOn string
	cmd := &cobra.Command{
		Use:   "run [CAMPAIGN_DIR] --out DIR [--fail-on decision]",
		Short: "Run the whole pipeline and write tables, scorecard.json, report.md and report.html",
		Long: `run reads a campaign (the directory given, or the embedded example) through
load → validate → account → score → aggregate → intervals → report and writes
every table as Parquet plus scorecard.json, report.md and report.html into --out.

A campaign with any rejecting finding (a defect of the record, see
docs/errors.md) has decision no_verdict, naming every rejecting finding, and
run exits 1 ("rejected"), the same as validate; its tables are still written
for diagnosis, unless the loader rejected it (then nothing is written).
Otherwise run exits 0 once every file is written, whatever the decision is;
read the decision from scorecard.json, or give --fail-on decision: then run
exits 1 unless the decision is advance (the outputs are written either way),
so that a CI job can gate on the verdict.

The outputs are written as one set: built in a temporary directory beside
--out and moved into place only when complete, so --out holds either the
previous complete set or the new one, however the run ends. A campaign the
loader rejects removes the previous outputs of the same campaign. --out may
not lie inside the campaign directory, is never a directory holding files
evalgate did not write, and replaces another campaign's outputs only with
--force; such an --out is refused (exit 2) before the campaign is read.`,
		Args: maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			err := usagef("--out DIR is required")
			switch failOn {
			case "":
			case failOnDecision:
				opts.failOnDecision = true
			default:
				err = usagef("--fail-on %q: want decision (exit 1 unless the decision is advance)", failOn)
			}
			if opts.out != "" && (failOn == "" || opts.failOnDecision) {
				err = runRun(stdout, stderr, args, opts)
			}
			if err != nil && !errors.Is(err, errRejected) && opts.json {
				// One JSON document in every outcome: the error, as the
				// summary of a run that judged nothing.
				if jerr := writeJSON(stdout, errorSummary(args, opts, err)); jerr != nil {
					return jerr
				}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&opts.out, "out", "", "output directory (created if missing)")
	cmd.Flags().StringVar(&opts.example, "example", "", "embedded example campaign to run when no directory is given")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the summary as JSON")
	cmd.Flags().BoolVar(&opts.skipIntervals, "no-intervals", false, "skip the exploratory intervals (gates never depend on them)")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the outputs of another campaign in --out")
	cmd.Flags().StringVar(&failOn, "fail-on", "", "decision: exit 1 unless the decision is advance")
	_ = cmd.Flags().SetAnnotation("fail-on", ownCompletion, []string{"true"})
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{failOnDecision}, cobra.ShellCompDirectiveNoFileComp))
	opts.progress = progressFlag(cmd, stderr)
	opts.profile = profileFlags(cmd)
	return cmd
}

// runSummary is what run prints.
type runSummary struct {
	Campaign       string         `json:"campaign"`
	Out            string         `json:"out"`
	Admissible     bool           `json:"admissible"`
	Written        bool           `json:"written"` // the tables and reports were written to out
	Decision       tables.Verdict `json:"decision"`
	Reason         string         `json:"reason"`
	Policy         string         `json:"policy"`        // the policy that judged: a preset's frozen rules, or "custom policy ID — not …"
	FailingGates   []string       `json:"failing_gates"` // in policy order; [] when none
	Rejecting      int            `json:"rejecting_findings"`
	RejectingCodes []string       `json:"rejecting_codes"` // sorted, unique
	Warnings       int            `json:"warning_findings"`
	ManifestSHA256 string         `json:"manifest_sha256"`
	// Findings is every finding of every stage, rejecting and warning,
	// sorted as the rejections table is; [] when none.
	Findings rules.Findings `json:"findings"`
	// Error says why the run stopped before judging the campaign (a usage
	// or output-directory error); omitted otherwise.
	Error string `json:"error,omitempty"`
}

func runRun(stdout, stderr io.Writer, args []string, opts runOptions) error {
	defer runHeap.start()()
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return err
	}
	if err := checkOutInside(opts.out, args); err != nil {
		return err
	}
	if err := refuseOutEarly(opts.out, opts.force, fsys); err != nil {
		return err
	}
	if err := opts.profile.start(); err != nil {
		return err
	}
	defer opts.profile.stop()
	fsys, stage, finish := watch(opts.progress(), stderr, args, fsys)
	defer finish()
	stage = opts.profile.stage(stage)
	res := stages.Run(fsys, name, stages.Options{SkipIntervals: opts.skipIntervals, Progress: stage, ReleaseInputs: true}) // only the report follows
	if res.Err != nil {
		finish()
		return runFailed(name, res.Err)
	}
	if stage != nil && res.Loaded {
		stage("report")
	} else {
		finish() // the loader's findings follow on stderr
	}
	unlock, err := lockOut(stderr, opts.out)
	if err != nil {
		return err
	}
	defer unlock()
	err = writeOutputs(stderr, opts, name, res)
	finish()
	if err == nil {
		err = opts.profile.stop()
	}
	if err != nil {
		return err
	}
	if !res.Loaded {
		if opts.json {
			if err := writeJSON(stdout, summarize(name, "", res)); err != nil {
				return err
			}
		}
		return errRejected
	}
	sum := summarize(name, opts.out, res)
	sum.Written = true
	if opts.json {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		// The same summary as `evalgate show OUT`, read back from the
		// files just written.
		s, err := readShow(opts.out)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(stdout, s.text()); err != nil {
			return err
		}
	}
	if sum.Rejecting > 0 {
		return errRejected
	}
	if opts.failOnDecision && sum.Decision != tables.DecisionAdvance {
		fmt.Fprintf(stderr, "evalgate: run fails on decision: %s, not advance (the outputs are written in %s)\n", sum.Decision, text(opts.out))
		return errDecisionFails
	}
	return nil
}

// lockOut takes the lock under which a run replaces the output set in
// out, and keeps it while the run reads back what it wrote: a second run
// into the same --out waits for the first and then replaces its complete
// set as a whole, so two runs at once never leave a mixed or incomplete
// set (nor removes the other's set while it is being built). The lock is
// on out's parent directory, since out itself is swapped.
func lockOut(stderr io.Writer, out string) (func(), error) {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("--out %s: %w", confined.EscapeName(out), err)
	}
	lock, err := confined.LockDir(parent, func() {
		fmt.Fprintf(stderr, "evalgate: waiting for another evalgate run writing beside %s to finish\n", text(out))
	})
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", confined.EscapeName(out), err)
	}
	return func() { lock.Unlock() }, nil
}

// failOnDecision is run's one --fail-on value.
const failOnDecision = "decision"

// errDecisionFails says a judged campaign's decision is not advance
// under --fail-on decision; it exits 1 like a rejection, and the
// decision is already printed.
var errDecisionFails = fmt.Errorf("decision is not advance: %w", errRejected)

// writeOutputs writes the output set of res into --out, or, for a campaign
// the loader rejected, prints its findings and removes the previous outputs
// of the same campaign so that they do not look current (the caller then
// reports the rejection).
func writeOutputs(stderr io.Writer, opts runOptions, name string, res *stages.Result) error {
	out, err := inspectOut(opts.out)
	if err != nil {
		return err
	}
	id := ""
	if res.Campaign != nil {
		id = res.Campaign.Manifest.CampaignID
	}
	refusal := out.replaceable(id, opts.force)
	if !res.Loaded {
		printFindings(stderr, res.Tables.Rejections)
		switch {
		case refusal != nil:
			fmt.Fprintf(stderr, "evalgate: %s: rejected by the loader; nothing written, and %s left as it is: %s\n", text(name), text(opts.out), text(refusal.Error()))
		case out.exists && !out.empty:
			if err := confined.RemoveOutputSet(opts.out); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "evalgate: %s: rejected by the loader; nothing written, and the previous outputs in %s were removed\n", text(name), text(opts.out))
		default:
			fmt.Fprintf(stderr, "evalgate: %s: rejected by the loader; nothing written\n", text(name))
		}
		return nil
	}
	if refusal != nil {
		return refusal
	}
	return confined.WriteOutputSet(opts.out, func(tmp string) error {
		return report.Write(tmp, res.Campaign, res.Tables, res.Figures, report.Meta{ToolVersion: Version})
	})
}

func summarize(name, out string, res *stages.Result) runSummary {
	sum := runSummary{
		Campaign:       name,
		Out:            confined.EscapeName(out),
		Admissible:     res.Admissible(),
		FailingGates:   []string{},
		RejectingCodes: []string{},
	}
	if res.Campaign != nil {
		sum.ManifestSHA256 = res.Campaign.ManifestSHA256
	}
	if d := res.Tables.Decision; len(d) > 0 {
		sum.Decision = d[0].Decision
		sum.Reason = d[0].Reason
		sum.Policy = d[0].Policy
		sum.FailingGates = append(sum.FailingGates, d[0].FailingGates...)
	}
	for _, f := range res.Tables.Rejections {
		if f.Severity == rules.Reject {
			sum.Rejecting++
			sum.RejectingCodes = append(sum.RejectingCodes, string(f.Code))
		} else {
			sum.Warnings++
		}
	}
	slices.Sort(sum.RejectingCodes)
	sum.RejectingCodes = slices.Compact(sum.RejectingCodes)
	sum.Findings = append(rules.Findings{}, res.Tables.Rejections...)
	sum.Findings.Sort()
	return sum
}

// errorSummary is run --json's document when the run stopped on err
// before judging anything: no decision, nothing written.
func errorSummary(args []string, opts runOptions, err error) runSummary {
	name := opts.example
	if len(args) > 0 {
		name = confined.EscapeName(args[0])
	}
	return runSummary{
		Campaign: name, Out: confined.EscapeName(opts.out), Decision: tables.DecisionNoVerdict,
		FailingGates: []string{}, RejectingCodes: []string{}, Findings: rules.Findings{}, Error: err.Error(),
	}
}
