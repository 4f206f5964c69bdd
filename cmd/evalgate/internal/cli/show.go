package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/parquet-go/parquet-go"
	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// shownFindings is how many rejecting findings the text form lists.
const shownFindings = 10

// maxScorecard caps the scorecard.json show reads.
const maxScorecard = 64 << 20

func newShowCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show OUT [--json]",
		Short: "Print the decision, failing gates, counts and files of a run's output directory",
		Long: `show reads OUT/scorecard.json, written by 'evalgate run --out OUT', and prints
a compact summary: the decision and its arm, each failing gate on its own
line with what was observed against its threshold and the failing tasks,
the counts of sessions, runs and findings by classification and severity,
and where the report and tables are. run prints the same summary when it
has written its outputs.

--json prints the same as one object whose members have the scorecard's
shapes: campaign_id, kind, manifest_sha256, scorecard_version, decision
(the scorecard's decision, with failing_gate_details: the gate rows that
fail), rejecting_findings, completion (the scorecard's counts) and files. Exit 0, 2 when OUT
is not an evalgate output directory, 3 when it cannot be read.`,
		ValidArgsFunction: completeDirs,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("show needs exactly one output directory; got %d", len(args))
			}
			s, err := readShow(args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(stdout, s)
			}
			_, err = io.WriteString(stdout, s.text())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}

// showSummary is what show prints: a projection of scorecard.json, each
// member in the scorecard's own shape.
type showSummary struct {
	Out              string                   `json:"out"`
	CampaignID       string                   `json:"campaign_id"`
	Kind             string                   `json:"kind"`
	ManifestSHA256   string                   `json:"manifest_sha256"`
	ScorecardVersion string                   `json:"scorecard_version"`
	Synthetic        bool                     `json:"synthetic"`
	Decision         scorecard.DecisionResult `json:"decision"`
	Gates            int                      `json:"gates"` // gate rows, passing or not
	// RejectingFindings are the defects of the record that make the
	// decision no_verdict, from campaign_findings.parquet, in its order.
	RejectingFindings []rules.Finding      `json:"rejecting_findings"`
	Completion        scorecard.Completion `json:"completion"`
	// ReviewerBenchmark is the reviewer benchmark's own counts and ledger
	// (absent for other kinds), printed in place of sessions and runs.
	ReviewerBenchmark *scorecard.ReviewerBenchmark `json:"reviewer_benchmark,omitempty"`
	Files             showFiles                    `json:"files"`
	currency          string                       // of the rate cards, from tokens.parquet; "" when unknown
}

// showFiles says where the outputs are, as paths under OUT.
type showFiles struct {
	Report    string   `json:"report"`
	HTML      string   `json:"html"`
	Scorecard string   `json:"scorecard"`
	Tables    []string `json:"tables"` // in docs/tables.md order, only those present
}

// readShow reads the summary of output directory dir.
func readShow(dir string) (*showSummary, error) {
	shown := confined.EscapeName(dir)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, usagef("%s is not a directory; give the --out directory of 'evalgate run'", shown)
	}
	path := filepath.Join(dir, report.ScorecardFile)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("%s has no %s, so it is not an output directory of 'evalgate run'", shown, report.ScorecardFile)
	}
	if err := checkSet(dir); err != nil {
		return nil, err
	}
	data, err := readCappedFile(path, maxScorecard)
	if err != nil {
		return nil, err
	}
	var sc scorecard.Scorecard
	if err := json.Unmarshal(data, &sc); err != nil || !strings.HasPrefix(sc.ScorecardVersion, "evalgate.scorecard/") {
		return nil, usagef("%s is not an evalgate scorecard", confined.EscapeName(path))
	}
	s := &showSummary{
		Out: shown, CampaignID: sc.CampaignID, Kind: sc.Kind, ManifestSHA256: sc.ManifestSHA256,
		ScorecardVersion: sc.ScorecardVersion, Synthetic: sc.Synthetic,
		Decision: sc.Decision, Gates: len(sc.Gates), Completion: sc.Completion, ReviewerBenchmark: sc.ReviewerBenchmark,
		Files: showFiles{Report: join(shown, report.ReportFile), HTML: join(shown, report.HTMLFile),
			Scorecard: join(shown, report.ScorecardFile), Tables: []string{}},
	}
	if s.Decision.FailingGateDetails == nil { // a scorecard written before the details
		s.Decision.FailingGateDetails = []scorecard.GateResult{}
		for _, g := range sc.Gates {
			if !g.Pass && slices.Contains(s.Decision.FailingGates, g.Gate) && (g.Arm == s.Decision.Arm || s.Decision.Arm == "") {
				s.Decision.FailingGateDetails = append(s.Decision.FailingGateDetails, g)
			}
		}
	}
	s.currency = readCurrency(filepath.Join(dir, "tokens.parquet"))
	if s.RejectingFindings, err = readRejecting(filepath.Join(dir, tables.CampaignFindingsTable+".parquet")); err != nil {
		return nil, err
	}
	for _, t := range tables.Registry() {
		if info, err := os.Lstat(filepath.Join(dir, t.Name+".parquet")); err == nil && info.Mode().IsRegular() {
			s.Files.Tables = append(s.Files.Tables, join(shown, t.Name+".parquet"))
		}
	}
	return s, nil
}

// checkSet refuses an output directory that does not hold the complete
// set its output manifest lists, unchanged: show never summarises a mixed
// or incomplete set. A file the manifest does not list is ignored unless
// it bears the name of an output file (a table or report of another set).
func checkSet(dir string) error {
	shown := confined.EscapeName(dir)
	_, problems, err := confined.CheckOutputSet(dir)
	switch {
	case errors.Is(err, confined.ErrNoSetManifest):
		return usagef("%s has no output manifest (%s), so it is not a complete output set of 'evalgate run' (an evalgate older than the manifest wrote none: run again)", shown, confined.SetManifestName)
	case err != nil:
		return usagef("%s: %v", shown, err)
	}
	names := outputNames()
	for _, p := range problems {
		if p.Why == "not listed" && !names[p.Name] {
			continue
		}
		return usagef("%s is not the complete output set evalgate wrote: %s is %s (its output manifest %s says otherwise); remove that file or the directory and run again",
			shown, confined.EscapeName(p.Name), map[string]string{"missing": "missing", "changed": "changed", "not listed": "not in the set"}[p.Why], confined.SetManifestName)
	}
	return nil
}

// maxRejections caps the campaign_findings.parquet show reads.
const maxRejections = 256 << 20

// readRejecting reads the rejecting findings of a rejections table; a
// missing table means the directory is not an output set.
func readRejecting(path string) (rej []rules.Finding, err error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("%s is missing, so its directory is not an output directory of 'evalgate run'", confined.EscapeName(path))
	case err != nil:
		return nil, err
	case !info.Mode().IsRegular():
		return nil, usagef("%s is not a regular file", confined.EscapeName(path))
	case info.Size() > maxRejections:
		return nil, usagef("%s has more than %d bytes", confined.EscapeName(path), maxRejections)
	}
	defer func() {
		if r := recover(); r != nil { // a corrupt file must not crash the tool
			rej, err = nil, fmt.Errorf("read %s: %v", confined.EscapeName(path), r)
		}
	}()
	all, err := parquet.ReadFile[rules.Finding](path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", confined.EscapeName(path), err)
	}
	rej = []rules.Finding{}
	for _, f := range all {
		if f.Severity == rules.Reject {
			rej = append(rej, f)
		}
	}
	return rej, nil
}

// readCurrency is the currency of the first row of a tokens table (a
// campaign's rate cards share one currency), "" when the table is
// missing, unreadable or empty. Only that row is read: the table has a
// row per session.
func readCurrency(path string) (currency string) {
	defer func() {
		if recover() != nil {
			currency = ""
		}
	}()
	f, err := confined.OpenRegularFile(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return ""
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return ""
	}
	r := parquet.NewGenericReader[tables.Token](pf)
	defer r.Close()
	rows := make([]tables.Token, 1)
	if n, _ := r.Read(rows); n != 1 {
		return ""
	}
	return rows[0].Currency
}

func join(dir, name string) string { return filepath.Join(dir, name) }

// text is the terminal form: the decision first, one line per failing
// gate, then the counts and the files.
func (s *showSummary) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "campaign %s (%s", text(s.CampaignID), text(string(s.Kind)))
	if s.Synthetic {
		b.WriteString(", synthetic")
	}
	fmt.Fprintf(&b, "), manifest %s\n", text(s.ManifestSHA256))
	fmt.Fprintf(&b, "decision: %s", text(string(s.Decision.Decision)))
	if s.Decision.Arm != "" {
		fmt.Fprintf(&b, " for arm %s", text(s.Decision.Arm))
	}
	b.WriteByte('\n')
	if s.Decision.Policy != "" {
		fmt.Fprintf(&b, "policy: %s\n", text(s.Decision.Policy))
	}
	if s.Decision.Decision == tables.DecisionAdvance {
		fmt.Fprintf(&b, "reason: %s\n", text(s.Decision.Reason))
	}
	if n := len(s.RejectingFindings); n > 0 {
		fmt.Fprintf(&b, "rejected: %d rejecting finding(s), so the campaign cannot be judged:\n", n)
		groups := rules.Collapse(s.RejectingFindings)
		for _, g := range groups[:min(len(groups), shownFindings)] {
			fmt.Fprintf(&b, "  %s\n", text(g.Error()))
		}
		if len(groups) > shownFindings {
			fmt.Fprintf(&b, "  … and %d more (evalgate validate lists every one)\n", len(groups)-shownFindings)
		}
	}
	failing := s.Decision.FailingGateDetails
	switch {
	case len(failing) > 0:
		fmt.Fprintf(&b, "failing gates (%d):\n", len(failing))
		for _, g := range failing {
			fmt.Fprintf(&b, "  %s\n", text(scorecard.FailingGateLine(g, s.currency)))
		}
	case s.Gates > 0:
		fmt.Fprintf(&b, "gates: all %d pass\n", s.Gates)
	}
	if len(failing) == 0 && len(s.RejectingFindings) == 0 && s.Decision.Decision != tables.DecisionAdvance {
		// A decision no failing gate explains (stop_no_gain,
		// inconclusive): its reason says why.
		fmt.Fprintf(&b, "reason: %s\n", text(s.Decision.Reason))
	}
	c := s.Completion
	if rb := s.ReviewerBenchmark; rb != nil {
		for _, line := range rb.BenchmarkCompletion() {
			fmt.Fprintf(&b, "%s\n", text(strings.ToLower(line[:1])+line[1:]))
		}
		fmt.Fprintf(&b, "%s\n", text(rb.BenchmarkLedgerLine()))
	} else {
		fmt.Fprintf(&b, "sessions: %d (%s)\n", c.Sessions, counts(c.SessionsByClassification))
		fmt.Fprintf(&b, "runs: %d planned, %d scored, %d unscored (%s)\n", c.Runs, c.RunsScored, c.RunsUnscored, counts(c.RunsByClassification))
	}
	fmt.Fprintf(&b, "findings: %d (%s)", c.Findings, counts(c.FindingsBySeverity))
	if len(c.FindingsByCode) > 0 {
		fmt.Fprintf(&b, ": %s", counts(c.FindingsByCode))
	}
	b.WriteByte('\n')
	fmt.Fprintf(&b, "report: %s, %s\n", text(s.Files.Report), text(s.Files.HTML))
	fmt.Fprintf(&b, "scorecard: %s\n", text(s.Files.Scorecard))
	fmt.Fprintf(&b, "tables: %d in %s (*.parquet; their columns: evalgate tables)\n", len(s.Files.Tables), text(s.Out))
	return b.String()
}

// counts prints named counts as "a 3, b 1"; "none" when empty.
func counts(cs []scorecard.Count) string {
	if len(cs) == 0 {
		return "none"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s %d", text(c.Name), c.Count)
	}
	return strings.Join(parts, ", ")
}
