package cli

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/importers"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// previewRecord is one record of a Codex rollout or Harbor trial as the
// preview shows it: the match keys its mapping entry names, what it
// records of the session, and its meter decoded.
type previewRecord struct {
	File          string             `json:"file"`
	Match         tables.ImportMatch `json:"match"`
	RequestID     string             `json:"request_id"`
	ReturnedModel string             `json:"returned_model"`
	// Agent is the Harbor agent that ran the trial ("" none); NoModel says
	// why it ran no model ("" when it may have run one).
	Agent     string            `json:"agent"`
	NoModel   string            `json:"no_model"`
	Error     string            `json:"error"` // the source's own error name; "" none
	StartedAt *string           `json:"started_at"`
	EndedAt   *string           `json:"ended_at"`
	Shape     tables.UsageShape `json:"shape"` // "" no meter
	Usage     jsontext.Value    `json:"usage"`
	Buckets   *meterBuckets     `json:"buckets"` // nil without a meter
	HasInput  bool              `json:"has_input"`
}

// previewReport is the --json document of `import codex|harbor` without
// --into, in every outcome.
type previewReport struct {
	Records  []previewRecord `json:"records"`
	Findings rules.Findings  `json:"findings"`
	Error    string          `json:"error,omitempty"`
}

// runImportPreview is `import codex|harbor FILE...` without --into: every
// file read by the checks an import makes of it before its mapping
// (stages.CheckSource), its records and findings printed. A file it
// refuses the import refuses with the same findings; one it accepts the
// import accepts, given a mapping that names its records as what they
// are.
func runImportPreview(stdout, stderr io.Writer, source string, paths []string, asJSON bool) error {
	rep := previewReport{Records: []previewRecord{}, Findings: rules.Findings{}}
	err := previewSources(source, paths, &rep, func(fs rules.Findings) {
		if !asJSON {
			printFindings(stderr, fs)
		}
	})
	return finishPreview(stdout, err, asJSON, &rep.Findings, &rep.Error, &rep,
		func() error { return printPreview(stdout, rep.Records) })
}

// previewSources reads every file the paths stand for (as an import
// does: a directory's rollouts or trials, confined) into rep, passing each
// file's findings to found; errRejected when a file is refused (the
// others are still read).
func previewSources(source string, paths []string, rep *previewReport, found func(rules.Findings)) error {
	sources, fs, err := readImportSources(source, &tables.ImportMap{}, paths)
	if err != nil {
		return err
	}
	rejected := fs.Rejected()
	found(fs)
	rep.Findings = append(rep.Findings, fs...)
	for _, s := range sources {
		recs, fs := stages.CheckSource(source, s)
		fs.Sort()
		found(fs)
		rep.Findings = append(rep.Findings, fs...)
		if fs.Rejected() {
			rejected = true
			continue
		}
		for _, r := range recs {
			rep.Records = append(rep.Records, previewOf(r))
		}
	}
	if rejected {
		return errRejected
	}
	return nil
}

func previewOf(r importers.SourceRecord) previewRecord {
	p := previewRecord{File: r.File, Match: r.Match, RequestID: r.RequestID, ReturnedModel: r.ReturnedModel, Agent: r.Agent,
		NoModel: r.NoModel, Error: r.Error, Shape: r.MeterShape, Usage: r.Usage, HasInput: r.Input != nil}
	if r.NoOutcome {
		p.Error = "no verifier reward (imported as " + tables.ErrorRecorderLoss + ")"
	}
	if r.StartedAt != nil {
		s := r.StartedAt.Format(time.RFC3339Nano)
		p.StartedAt = &s
	}
	if r.EndedAt != nil {
		s := r.EndedAt.Format(time.RFC3339Nano)
		p.EndedAt = &s
	}
	if r.MeterShape != "" {
		b, _ := account.DecodeMeter(r.MeterShape, r.Usage)
		p.Buckets = &meterBuckets{b.UncachedInput, b.CachedInput, b.CacheWrite5m, b.CacheWrite1h, b.Output, b.Reasoning}
	}
	return p
}

func printPreview(w io.Writer, recs []previewRecord) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\tRECORD\tMODEL\tERROR\tSHAPE\tUNCACHED\tCACHED\tWRITE_5M\tWRITE_1H\tOUTPUT\tREASONING")
	for _, r := range recs {
		model := r.Match.Model
		if model == "" && r.Agent != "" {
			model = "(agent " + r.Agent + ", no model)"
		}
		meter := "-\t-\t-\t-\t-\t-\t-"
		if b := r.Buckets; b != nil {
			meter = fmt.Sprintf("%s\t%d\t%d\t%d\t%d\t%d\t%d", r.Shape, b.UncachedInput, b.CachedInput, b.CacheWrite5m, b.CacheWrite1h, b.Output, b.Reasoning)
		}
		errName := r.Error
		if errName == "" {
			errName = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", text(r.File), text(r.Match.Record), text(model), text(errName), meter)
	}
	return tw.Flush()
}
