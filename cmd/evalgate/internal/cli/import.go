package cli

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/importers"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

func newImportCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Append sessions recorded by Inspect AI, Codex CLI or Harbor to a campaign",
		Long: `import reads records written by other tools — Inspect AI logs, Codex CLI
rollouts, Harbor trials — and, with --into CAMPAIGN --map FILE, appends one
receipt per record (and its answer, when the record holds the final output)
to the campaign. The mapping file (schema import-map, docs/import.md) names
the session of every record explicitly; nothing is guessed from names.
Meters keep each source's own convention; what a source does not record (a
reservation, a monotonic clock) stays absent, so validate reports it.
Importing the same record twice adds nothing; a conflicting import is
refused. Without --into, each importer previews its files: the same checks,
and one verdict per file.`,
	}
	cmd.AddCommand(newImportInspectCmd(stdout, stderr), newImportSourceCmd(stdout, stderr, tables.SourceCodex),
		newImportSourceCmd(stdout, stderr, tables.SourceHarbor))
	return cmd
}

func newImportInspectCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	var hidden string
	ii := importInto{source: tables.SourceInspect}
	cmd := &cobra.Command{
		Use:   "inspect LOG [LOG...] [--hidden-tokens output] [--into CAMPAIGN --map FILE] [--json]",
		Short: "Print one meter per (sample, model) of Inspect AI .json or .eval logs",
		Long: `inspect reads Inspect AI evaluation logs (.json documents or .eval zips,
including journal-only .eval files of killed runs) and prints one meter per
(sample, model): the ModelUsage object verbatim, the meter shape its
inspect_ai version and provider imply (inspect.model_usage from 0.3.184 and
for Anthropic; inspect.model_usage.inclusive for older OpenAI and Grok logs;
inspect.model_usage.google for Google logs before 0.3.208) and the
normalised buckets. A provider whose old semantics are unknown yields a
warning and no meter, never a guess. With --json it prints one JSON
document instead, {meters, findings}.

An inclusive meter whose total exceeds input + output hides tokens and is
refused (meter_hidden_tokens), unless --hidden-tokens output declares that
the excess is hidden reasoning the provider bills at the output rate: then
it is added to output and counted as reasoning, under the shape
inspect.model_usage.declared_hidden_output. No other meter changes.

With --into CAMPAIGN --map FILE it appends one receipt per mapped
(sample, model) instead (see 'evalgate import').

Findings go to stderr (with --json, into the document). Exit 0 when every
log is read (warnings allowed), 1 when a log is rejected (that log prints
no meter; with --into nothing is appended), 2 usage.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("give at least one Inspect log")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			var err error
			if ii.hiddenOutput, err = hiddenTokens(hidden); err != nil {
				return err
			}
			if ii.into != "" {
				ii.asJSON = asJSON
				return ii.run(stdout, stderr, args)
			}
			if ii.mapFile != "" {
				return usagef("--map needs --into CAMPAIGN")
			}
			return runImportInspect(stdout, stderr, args, asJSON, ii.hiddenOutput)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document: the meters and findings (with --into: the import's summary and findings)")
	cmd.Flags().StringVar(&hidden, "hidden-tokens", "", hiddenTokensUsage)
	cmd.Flags().StringVar(&ii.into, "into", "", "campaign directory to append receipts to")
	cmd.Flags().StringVar(&ii.mapFile, "map", "", "mapping file naming the session of every record (schema import-map)")
	return cmd
}

// hiddenTokensUsage is the --hidden-tokens flag's help, the same for
// `import inspect` and `init --from inspect:LOG`.
const hiddenTokensUsage = `declare what an inclusive meter's tokens beyond input + output are: "output" (hidden reasoning billed at the output rate)`

// hiddenTokens reads the --hidden-tokens value: whether the user declares
// an inclusive Inspect meter's excess tokens hidden reasoning billed as
// output (importers.HiddenTokensOutput), the one convention there is.
func hiddenTokens(v string) (bool, error) {
	switch v {
	case "":
		return false, nil
	case importers.HiddenTokensOutput:
		return true, nil
	}
	return false, usagef("--hidden-tokens %q: the one declared convention is %q (hidden reasoning billed at the output rate)", v, importers.HiddenTokensOutput)
}

// newImportSourceCmd is `import codex` or `import harbor`.
func newImportSourceCmd(stdout, stderr io.Writer, source string) *cobra.Command {
	ii := importInto{source: source}
	var asJSON bool
	use, short, long := "codex ROLLOUT|DIR [...] [--into CAMPAIGN --map FILE] [--json]",
		"Preview Codex CLI rollouts, or append them to a campaign, one session each",
		`codex reads Codex CLI rollout files (rollout-*.jsonl: session_meta,
turn_context, response_item and event_msg lines) and appends one receipt per
rollout. Its meter is the rollout's final running total (total_token_usage,
shape codex.total_token_usage), checked turn by turn against
last_token_usage; running totals are never summed. A rollout that continues
an earlier conversation is refused (its own usage is unknown). The final
assistant message is the session's answer.`
	if source == tables.SourceHarbor {
		use, short, long = "harbor TRIAL_DIR|JOB_DIR|result.json [...] [--into CAMPAIGN --map FILE] [--json]",
			"Preview Harbor trials, or append them to a campaign, one session each",
			`harbor reads Harbor trial results (TRIAL_DIR/result.json) and appends one
receipt per trial. Its meter is agent_result's n_input_tokens (cache
included), n_cache_tokens and n_output_tokens (shape harbor.agent_context);
cost_usd is the agent's own figure and becomes the actual charge only when
the mapping's billing is "actual". An exception_info is an error whose class
the mapping's error_classes names; a trial with neither an exception nor a
verifier reward is imported as an error (recorder_loss), never as a pass.
The mapping's output_file names the trial file holding the final answer,
its input_file the one holding the input the agent received.`
	}
	cmd := &cobra.Command{
		Use: use, Short: short,
		Long: long + `

Without --into it previews the records instead: each file is read with
every check the import makes of it before its mapping (its format, its
reader's, every meter decoded), and one line per record gives the match
keys a mapping entry names, its error and its meter's buckets; with --json
one document, {records, findings}. A file the preview refuses, the import
refuses with the same findings.

Findings go to stderr (with --json, into the document). Exit 0 when
appended (or already imported) or every file previewed is accepted, 1 when
refused (nothing is appended), 2 usage.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("give at least one %s record", source)
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if ii.into != "" {
				ii.asJSON = asJSON
				return ii.run(stdout, stderr, args)
			}
			if ii.mapFile != "" {
				return usagef("--map needs --into CAMPAIGN")
			}
			return runImportPreview(stdout, stderr, source, args, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document: the records and findings (with --into: the import's summary and findings)")
	cmd.Flags().StringVar(&ii.into, "into", "", "campaign directory to append receipts to")
	cmd.Flags().StringVar(&ii.mapFile, "map", "", "mapping file naming the session of every record (schema import-map)")
	return cmd
}

// importedMeter is one (sample, model) meter of an imported log.
type importedMeter struct {
	Log         string            `json:"log"`
	SampleID    jsontext.Value    `json:"sample_id"`
	Epoch       int64             `json:"epoch"`
	Model       string            `json:"model"`
	Shape       tables.UsageShape `json:"shape"`
	Usage       jsontext.Value    `json:"usage"`
	Buckets     meterBuckets      `json:"buckets"`
	StartedAt   *string           `json:"started_at"`
	CompletedAt *string           `json:"completed_at"`
	TotalTime   jsontext.Value    `json:"total_time"`
	WorkingTime jsontext.Value    `json:"working_time"`
}

type meterBuckets struct {
	UncachedInput int64 `json:"uncached_input"`
	CachedInput   int64 `json:"cached_input"`
	CacheWrite5m  int64 `json:"cache_write_5m"`
	CacheWrite1h  int64 `json:"cache_write_1h"`
	Output        int64 `json:"output"`
	Reasoning     int64 `json:"reasoning"`
}

// inspectReport is import inspect --json's document, in every outcome.
type inspectReport struct {
	// Meters holds every meter of the logs read, in the order given; a
	// rejected log contributes none.
	Meters []importedMeter `json:"meters"`
	// Findings is every finding of every log, rejecting and warning;
	// [] when none.
	Findings rules.Findings `json:"findings"`
	// Error says why the command stopped (a usage or I/O error); omitted
	// otherwise.
	Error string `json:"error,omitempty"`
}

func runImportInspect(stdout, stderr io.Writer, paths []string, asJSON, hiddenOutput bool) error {
	rep := inspectReport{Meters: []importedMeter{}, Findings: rules.Findings{}}
	err := readInspectMeters(paths, hiddenOutput, &rep, func(fs rules.Findings) {
		if !asJSON {
			printFindings(stderr, fs)
		}
	})
	return finishPreview(stdout, err, asJSON, &rep.Findings, &rep.Error, &rep,
		func() error { return printMeters(stdout, rep.Meters) })
}

// finishPreview ends a preview of import sources, the one way for every
// source: with --json the report (its findings capped across all files,
// each file's being capped already, and errMsg set to a usage or I/O
// error) is the output; as text the findings went to stderr as they were
// found and print writes the records, unless an error other than a
// rejection stopped the preview. The error returned is the preview's.
func finishPreview(stdout io.Writer, err error, asJSON bool, findings *rules.Findings, errMsg *string, rep any, print func() error) error {
	stopped := err != nil && !errors.Is(err, errRejected)
	if asJSON {
		*findings = rules.CapInOrder(*findings)
		if stopped {
			*errMsg = err.Error()
		}
		if jerr := writeJSON(stdout, rep); jerr != nil {
			return jerr
		}
		return err
	}
	if stopped {
		return err
	}
	if perr := print(); perr != nil {
		return perr
	}
	return err
}

// readInspectMeters reads every log into rep (hiddenOutput: with the
// user's declaration of hidden tokens), passing each log's sorted findings
// to found as it is read; errRejected when a log is rejected (the others
// are still read).
func readInspectMeters(paths []string, hiddenOutput bool, rep *inspectReport, found func(rules.Findings)) error {
	rejected := false
	for _, path := range paths {
		log, fs, err := readInspectPath(path, hiddenOutput)
		if err != nil {
			return err
		}
		var ms []importedMeter
		if log != nil {
			ms = logMeters(log)
		}
		found(fs)
		rep.Findings = append(rep.Findings, fs...)
		if fs.Rejected() {
			rejected = true
			continue
		}
		rep.Meters = append(rep.Meters, ms...)
	}
	if rejected {
		return errRejected
	}
	return nil
}

func readInspectPath(path string, hiddenOutput bool) (*importers.InspectLog, rules.Findings, error) {
	f, err := confined.OpenRegularFile(path)
	if code := confined.FileErrorCode(err, ""); code != "" {
		// a FIFO, device or directory is a refused source, as the import's
		// own reading refuses it: a finding, not a usage error
		return nil, rules.Findings{{Code: code, Severity: rules.Reject, File: path, Message: confined.FileErrorMessage(err)}}, nil
	}
	if err != nil {
		return nil, nil, usagef("inspect log: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, nil, usagef("inspect log %s is not a readable regular file", path)
	}
	log, _, fs := stages.CheckInspectLog(path, f, st.Size(), "", hiddenOutput)
	return log, fs, nil
}

// logMeters decodes every meter of log with the account stage's shapes
// (stages.CheckInspectLog has reported their problems).
func logMeters(log *importers.InspectLog) []importedMeter {
	var out []importedMeter
	for _, s := range log.Samples {
		for _, u := range s.Usage {
			if u.Shape == "" {
				continue // warned by the reader: no meter rather than a guess
			}
			b, _ := account.DecodeMeter(u.Shape, u.Usage)
			out = append(out, importedMeter{
				Log: log.Name, SampleID: s.ID, Epoch: s.Epoch, Model: u.Model, Shape: u.Shape, Usage: u.Usage,
				Buckets:   meterBuckets{b.UncachedInput, b.CachedInput, b.CacheWrite5m, b.CacheWrite1h, b.Output, b.Reasoning},
				StartedAt: s.StartedAt, CompletedAt: s.CompletedAt, TotalTime: rawOrNull(s.TotalTime), WorkingTime: rawOrNull(s.WorkingTime),
			})
		}
	}
	return out
}

func printMeters(w io.Writer, meters []importedMeter) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LOG\tSAMPLE\tEPOCH\tMODEL\tSHAPE\tUNCACHED\tCACHED\tWRITE_5M\tWRITE_1H\tOUTPUT\tREASONING")
	for _, m := range meters {
		b := m.Buckets
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", text(m.Log), text(string(m.SampleID)), m.Epoch, text(m.Model), m.Shape,
			b.UncachedInput, b.CachedInput, b.CacheWrite5m, b.CacheWrite1h, b.Output, b.Reasoning)
	}
	return tw.Flush()
}

func rawOrNull(v jsontext.Value) jsontext.Value {
	if v == nil {
		return jsontext.Value("null")
	}
	return v
}
