package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/spf13/cobra"
)

type validateOptions struct {
	example string
	answer  string
	role    string
	json    bool
	// progress tells whether --progress is on for this invocation.
	progress func() bool
}

// answerRoles are the roles `validate --answer` checks against.
var answerRoles = []string{"draft", "review", "reconciliation"}

func newValidateCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts validateOptions
	cmd := &cobra.Command{
		Use:   "validate [CAMPAIGN_DIR | MANIFEST_FILE] | validate --answer FILE --role draft|review|reconciliation",
		Short: "Check a campaign, or one answer file, and print every problem",
		Long: `validate checks a whole campaign (every stage except intervals and report)
and prints every finding at once; it exits 1 when the campaign cannot be
admitted, 0 otherwise (warnings alone do not reject). Given a manifest
file instead of a directory (fixtures/live/proposed-manifest.json), the
file's directory is the campaign and the file is its manifest.

With --answer it checks one answer file against the response contract on
its own: strict JSON, schema closure, text, IDs, paths, lines, caps, links
within the answer, the per-status rules and, for --role reconciliation, the
obligation and disposition rules except the packet set. Exit 0 valid, 1
rejected, 2 usage.`,
		Args: maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if opts.answer != "" || opts.role != "" {
				if len(args) > 0 || opts.example != "" {
					return usagef("--answer checks one file; do not also give a campaign")
				}
				return validateAnswer(stdout, opts)
			}
			return validateCampaign(stdout, stderr, args, opts)
		},
	}
	cmd.Flags().StringVar(&opts.example, "example", "", "embedded example campaign to check when no directory is given")
	cmd.Flags().StringVar(&opts.answer, "answer", "", "check one answer file on its own")
	cmd.Flags().StringVar(&opts.role, "role", "", "role of the --answer file: draft, review or reconciliation")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print findings as JSON")
	opts.progress = progressFlag(cmd, stderr)
	return cmd
}

// findingsReport is the --json output of validate.
type findingsReport struct {
	Input    string          `json:"input"`
	Valid    bool            `json:"valid"`
	Findings []rules.Finding `json:"findings"`
	// NotRun names the checks that did not run because an earlier layer
	// rejected the campaign (its files did not load); omitted when every
	// check ran.
	NotRun []string `json:"not_run,omitempty"`
}

// laterChecks are the checks that run only on a campaign that loads: what
// validate cannot report while the loader rejects it.
var laterChecks = []string{
	"receipt identities against the manifest, the design's completeness, answers and citations (validate)",
	"meters, reservations, rate cards and ceilings (account)",
	"scoring, gates and the decision (score, aggregate)",
}

func validateAnswer(stdout io.Writer, opts validateOptions) error {
	if opts.answer == "" {
		return usagef("--role needs --answer FILE")
	}
	if !slices.Contains(answerRoles, opts.role) {
		return usagef("--role must be one of draft, review, reconciliation")
	}
	data, err := readCappedAnswer(opts.answer)
	if err != nil {
		return usagef("answer: %s", confined.EscapeName(err.Error()))
	}
	name := confined.EscapeName(opts.answer) // printed and in --json: UTF-8 whatever the file name
	fs := stages.CheckAnswer(name, data, opts.role)
	return printReport(stdout, name, fs, opts.json)
}

func validateCampaign(stdout, stderr io.Writer, args []string, opts validateOptions) error {
	defer runHeap.start()() // the stages of run up to the report, paced alike
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return err
	}
	watched, stage, finish := watch(opts.progress(), stderr, args, fsys)
	res := stages.Run(watched, name, stages.Options{SkipIntervals: true, Progress: stage, ReleaseInputs: true}) // only its findings are printed
	finish()
	if res.Err != nil {
		return runFailed(name, res.Err)
	}
	var notRun []string
	if !res.Loaded {
		notRun = laterChecks
	}
	return printReport(stdout, name, relabelManifest(fsys, res.Tables.Rejections), opts.json, notRun...)
}

// printReport prints findings and returns errRejected when any rejects;
// notRun are the checks an earlier layer's rejection kept from running.
func printReport(stdout io.Writer, input string, fs rules.Findings, asJSON bool, notRun ...string) error {
	valid := !fs.Rejected()
	if asJSON {
		if fs == nil {
			fs = rules.Findings{}
		}
		if err := writeJSON(stdout, findingsReport{Input: input, Valid: valid, Findings: fs, NotRun: notRun}); err != nil {
			return err
		}
	} else {
		printFindings(stdout, fs)
		if len(notRun) > 0 {
			fmt.Fprintf(stdout, "%s: the campaign's files did not load, so these checks did not run and may find more once the findings above are fixed:\n", text(input))
			for _, c := range notRun {
				fmt.Fprintf(stdout, "  not run: %s\n", c)
			}
		}
		if valid {
			fmt.Fprintf(stdout, "%s: valid (%d warnings)\n", text(input), len(fs))
		} else {
			fmt.Fprintf(stdout, "%s: rejected (%d findings)\n", text(input), len(fs))
		}
	}
	if !valid {
		return errRejected
	}
	return nil
}

// readCappedAnswer reads a regular file, at most one byte past the answer
// cap, so that CheckAnswer reports an oversized answer without the command
// reading all of it (or blocking on a FIFO, or spinning on /dev/zero).
func readCappedAnswer(path string) ([]byte, error) {
	f, err := confined.OpenRegularFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, load.MaxAnswerBytes+1))
}
