package cli

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

func newImportCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Turn usage recorded by other tools into evalgate meters",
		Long: `import reads logs written by other evaluation tools and prints the meters
they hold, normalised exactly, so a runner can paste them into its receipts.`,
	}
	cmd.AddCommand(newImportInspectCmd(stdout, stderr))
	return cmd
}

func newImportInspectCmd(stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect LOG [LOG...] [--json]",
		Short: "Print one meter per (sample, model) of Inspect AI .json or .eval logs",
		Long: `inspect reads Inspect AI evaluation logs (.json documents or .eval zips,
including journal-only .eval files of killed runs) and prints one meter per
(sample, model): the ModelUsage object verbatim, the meter shape its
inspect_ai version and provider imply (inspect.model_usage from 0.3.184 and
for Anthropic; inspect.model_usage.inclusive for older OpenAI and Grok logs
and Google logs before 0.3.208) and the normalised buckets. A provider
whose old semantics are unknown yields a warning and no meter, never a
guess. With --json each meter is one JSON line.

Findings go to stderr. Exit 0 when every log is read (warnings allowed),
1 when a log is rejected (that log prints no meter), 2 usage.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("give at least one Inspect log")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return runImportInspect(stdout, stderr, args, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON line per meter")
	return cmd
}

// importedMeter is one (sample, model) meter of an imported log.
type importedMeter struct {
	Log         string         `json:"log"`
	SampleID    jsontext.Value `json:"sample_id"`
	Epoch       int64          `json:"epoch"`
	Model       string         `json:"model"`
	Shape       string         `json:"shape"`
	Usage       jsontext.Value `json:"usage"`
	Buckets     meterBuckets   `json:"buckets"`
	StartedAt   *string        `json:"started_at"`
	CompletedAt *string        `json:"completed_at"`
	TotalTime   jsontext.Value `json:"total_time"`
	WorkingTime jsontext.Value `json:"working_time"`
}

type meterBuckets struct {
	UncachedInput int64 `json:"uncached_input"`
	CachedInput   int64 `json:"cached_input"`
	CacheWrite5m  int64 `json:"cache_write_5m"`
	CacheWrite1h  int64 `json:"cache_write_1h"`
	Output        int64 `json:"output"`
	Reasoning     int64 `json:"reasoning"`
}

func runImportInspect(stdout, stderr io.Writer, paths []string, asJSON bool) error {
	var meters []importedMeter
	rejected := false
	for _, path := range paths {
		log, fs, err := readInspectPath(path)
		if err != nil {
			return err
		}
		var ms []importedMeter
		if log != nil {
			ms, fs = logMeters(log, fs)
		}
		fs.Sort()
		printFindings(stderr, fs)
		if fs.Rejected() {
			rejected = true
			continue
		}
		meters = append(meters, ms...)
	}
	if err := printMeters(stdout, meters, asJSON); err != nil {
		return err
	}
	if rejected {
		return errRejected
	}
	return nil
}

func readInspectPath(path string) (*load.InspectLog, tables.Findings, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, usagef("inspect log: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, nil, usagef("inspect log %s is not a readable regular file", path)
	}
	log, fs := load.ReadInspectLog(path, f, st.Size())
	return log, fs, nil
}

// logMeters decodes every meter of log with the account stage's shapes;
// a meter problem is a finding at the usage object.
func logMeters(log *load.InspectLog, fs tables.Findings) ([]importedMeter, tables.Findings) {
	var out []importedMeter
	for _, s := range log.Samples {
		for _, u := range s.Usage {
			if u.Shape == "" {
				continue // warned by the reader: no meter rather than a guess
			}
			b, problems := account.DecodeMeter(u.Shape, u.Usage)
			for _, p := range problems {
				sev := tables.Reject
				if !p.Invalid() {
					sev = tables.Warn
				}
				fs = append(fs, tables.Finding{Code: p.Code, Severity: sev, File: s.File,
					Pointer: s.Pointer + "/model_usage/" + tables.PointerToken(u.Model) + p.Pointer,
					Message: fmt.Sprintf("%s (shape %s).", trimPeriod(p.Message), u.Shape)})
			}
			out = append(out, importedMeter{
				Log: log.Name, SampleID: s.ID, Epoch: s.Epoch, Model: u.Model, Shape: u.Shape, Usage: u.Usage,
				Buckets:   meterBuckets{b.UncachedInput, b.CachedInput, b.CacheWrite5m, b.CacheWrite1h, b.Output, b.Reasoning},
				StartedAt: s.StartedAt, CompletedAt: s.CompletedAt, TotalTime: rawOrNull(s.TotalTime), WorkingTime: rawOrNull(s.WorkingTime),
			})
		}
	}
	return out, fs
}

func printMeters(w io.Writer, meters []importedMeter, asJSON bool) error {
	if asJSON {
		for _, m := range meters {
			b, err := json.Marshal(m, json.Deterministic(true))
			if err != nil {
				return err
			}
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LOG\tSAMPLE\tEPOCH\tMODEL\tSHAPE\tUNCACHED\tCACHED\tWRITE_5M\tWRITE_1H\tOUTPUT\tREASONING")
	for _, m := range meters {
		b := m.Buckets
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", m.Log, m.SampleID, m.Epoch, m.Model, m.Shape,
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

func trimPeriod(s string) string {
	if n := len(s); n > 0 && s[n-1] == '.' {
		return s[:n-1]
	}
	return s
}
