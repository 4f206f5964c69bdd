package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

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
}

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts runOptions
	cmd := &cobra.Command{
		Use:   "run [CAMPAIGN_DIR] --out DIR",
		Short: "Run the whole pipeline and write tables, scorecard.json, report.md and report.html",
		Long: `run reads a campaign (the directory given, or the embedded example) through
load → validate → account → score → aggregate → intervals → report and writes
every table as Parquet plus scorecard.json, report.md and report.html into --out.

A campaign with any rejecting finding (a defect of the record, see
docs/errors.md) has decision no_verdict, naming every rejecting finding, and
run exits 1 ("rejected"), the same as validate; its tables are still written
for diagnosis, unless the loader rejected it (then nothing is written).
Otherwise run exits 0 once every file is written, whatever the decision is;
read the decision from scorecard.json.`,
		Args: maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if opts.out == "" {
				return usagef("--out DIR is required")
			}
			return runRun(stdout, stderr, args, opts)
		},
	}
	cmd.Flags().StringVar(&opts.out, "out", "", "output directory (created if missing)")
	cmd.Flags().StringVar(&opts.example, "example", "", "embedded example campaign to run when no directory is given")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the summary as JSON")
	cmd.Flags().BoolVar(&opts.skipIntervals, "no-intervals", false, "skip the exploratory intervals (gates never depend on them)")
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
	FailingGates   string         `json:"failing_gates"`
	Rejecting      int            `json:"rejecting_findings"`
	RejectingCodes []string       `json:"rejecting_codes"` // sorted, unique
	Warnings       int            `json:"warning_findings"`
	ManifestSHA256 string         `json:"manifest_sha256"`
}

func runRun(stdout, stderr io.Writer, args []string, opts runOptions) error {
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return err
	}
	res := stages.Run(fsys, name, stages.Options{SkipIntervals: opts.skipIntervals})
	if !res.Loaded {
		printFindings(stderr, res.Tables.Rejections)
		fmt.Fprintf(stderr, "evalgate: %s: rejected by the loader; nothing written\n", name)
		if opts.json {
			if err := writeJSON(stdout, summarize(name, "", res)); err != nil {
				return err
			}
		}
		return errRejected
	}
	if err := report.Write(opts.out, res.Campaign, res.Tables, res.Figures, report.Meta{ToolVersion: Version}); err != nil {
		return err
	}
	sum := summarize(name, opts.out, res)
	sum.Written = true
	if opts.json {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "campaign %s (manifest %s)\n", sum.Campaign, sum.ManifestSHA256)
		fmt.Fprintf(stdout, "decision: %s\n", sum.Decision)
		if sum.FailingGates != "" {
			fmt.Fprintf(stdout, "failing gates: %s\n", sum.FailingGates)
		}
		fmt.Fprintf(stdout, "findings: %d rejecting, %d warnings\n", sum.Rejecting, sum.Warnings)
		if sum.Rejecting > 0 {
			fmt.Fprintf(stdout, "rejected: %s; the campaign cannot be judged (evalgate validate lists every finding)\n", strings.Join(sum.RejectingCodes, ", "))
		}
		fmt.Fprintf(stdout, "wrote %s\n", opts.out)
	}
	if sum.Rejecting > 0 {
		return errRejected
	}
	return nil
}

func summarize(name, out string, res *stages.Result) runSummary {
	sum := runSummary{
		Campaign:       name,
		Out:            out,
		Admissible:     res.Admissible(),
		RejectingCodes: []string{},
	}
	if res.Campaign != nil {
		sum.ManifestSHA256 = res.Campaign.ManifestSHA256
	}
	if d := res.Tables.Decision; len(d) > 0 {
		sum.Decision = d[0].Decision
		sum.Reason = d[0].Reason
		sum.FailingGates = d[0].FailingGates
	}
	for _, f := range res.Tables.Rejections {
		if f.Severity == tables.Reject {
			sum.Rejecting++
			sum.RejectingCodes = append(sum.RejectingCodes, string(f.Code))
		} else {
			sum.Warnings++
		}
	}
	slices.Sort(sum.RejectingCodes)
	sum.RejectingCodes = slices.Compact(sum.RejectingCodes)
	return sum
}
