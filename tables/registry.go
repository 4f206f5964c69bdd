package tables

import (
	"reflect"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/parquet-go/parquet-go"
)

// Table describes one output table once: its file name, what a row is, how
// to take its rows from a [Set] and how to write them. docs/tables.md (the
// data dictionary) is generated from [Registry] and the row types' field
// comments, and a test keeps it up to date.
type Table struct {
	Name    string          // file stem: the table is written as <Name>.parquet
	Doc     string          // one sentence: what one row is
	RowType reflect.Type    // the Go row type, e.g. Run
	Schema  *parquet.Schema // the Parquet schema derived from RowType's tags; DuckDB reads its logical types (rule T3)
	Rows    func(*Set) any  // the table's rows in s, as a slice of RowType
	Len     func(*Set) int  // number of rows in s

	write func(path string, s *Set, meta Metadata) error
}

// Write writes the table's rows in s to path (see [WriteParquet]); meta.Table
// is set to t.Name.
func (t Table) Write(path string, s *Set, meta Metadata) error {
	meta.Table = t.Name
	return t.write(path, s, meta)
}

// Names of the tables other code reads by name.
const (
	// CampaignFindingsTable holds every finding evalgate made about the
	// campaign's record (rejecting or warning), what validate prints.
	CampaignFindingsTable = "campaign_findings"
	// ReviewFindingsTable holds a reviewer benchmark's reviewers' findings
	// (what a review under test reported), not evalgate's.
	ReviewFindingsTable = "review_findings"
)

// RenamedTables maps the name a table had before tables/v3 to its name
// now: an output directory of an earlier version may hold them.
var RenamedTables = map[string]string{
	"rejections":            CampaignFindingsTable,
	"findings":              ReviewFindingsTable,
	"finding_adjudications": "review_finding_adjudications",
}

// Registry returns every output table in its fixed order: sessions, tokens,
// obligations, dispositions, citations, runs, tasks, repositories, gates,
// decision, intervals, campaign_findings, ledger, ceilings,
// prompt_versions, then the
// reviewer-benchmark tables cases, reviews, criteria, review_findings,
// review_finding_adjudications and review_metrics (empty for other kinds).
func Registry() []Table {
	return []Table{
		spooled("sessions", "Every session attempt and every planned session, with its status and classification (V2, V7).",
			func(s *Set) *spool.Spool[Session] { return s.Sessions }),
		spooled("tokens", "Token meters normalised into disjoint buckets, with exact reference and actual cost (A1–A3).",
			func(s *Set) *spool.Spool[Token] { return s.Tokens }),
		spooled("obligations", "Settled rating outcome of every truth obligation in every review run (Q1, Q2).",
			func(s *Set) *spool.Spool[ObligationOutcome] { return s.Obligations }),
		spooled("dispositions", "Evidence dispositions of reconciliation answers, including packet E IDs left undisposed (V6).",
			func(s *Set) *spool.Spool[DispositionRow] { return s.Dispositions }),
		spooled("citations", "Final-answer citations with their structural source check (V3).",
			func(s *Set) *spool.Spool[CitationRow] { return s.Citations }),
		spooled("runs", "Every planned (task, repetition, arm) workflow: the scored unit; nothing leaves a denominator (Q3, G1).",
			func(s *Set) *spool.Spool[Run] { return s.Runs }),
		table("tasks", "Task medians over repetitions per arm (G1).",
			func(s *Set) []Task { return s.Tasks }),
		table("repositories", "Repository summaries per arm (G1).",
			func(s *Set) []Repository { return s.Repositories }),
		table("gates", "Conjunctive gates of the frozen policy (G2, A8).",
			func(s *Set) []Gate { return s.Gates }),
		table("decision", "The decision with every failing gate named (G3).",
			func(s *Set) []Decision { return s.Decision }),
		table("intervals", "Exploratory bootstrap intervals; they never affect a gate or the decision (B1).",
			func(s *Set) []Interval { return s.Intervals }),
		table(CampaignFindingsTable, "Every finding evalgate made about the campaign's record, rejecting or warning, of every stage (what validate prints; docs/errors.md), sorted by file, line, pointer, code, session, message (L2).",
			sortedRejections),
		spooled("ledger", "Allowance ledger: accounted, held and reserved charges (A7).",
			func(s *Set) *spool.Spool[LedgerEntry] { return s.Ledger }),
		table("ceilings", "Every campaign ceiling with its limit, use and whether it held (A6).",
			func(s *Set) []Ceiling { return s.Ceilings }),
		table("prompt_versions", "Paired review with a development flow: every role instruction the draft and the arms receive, in each version, with the sessions that received it, its sha256 and, for the one permitted revision of B's instruction, its line diff (G8); empty without a development flow.",
			func(s *Set) []PromptVersion { return s.PromptVersions }),
		table("cases", "Reviewer benchmark: every case with its private label (rule I8).",
			func(s *Set) []CaseRow { return s.Cases }),
		table("reviews", "Reviewer benchmark: every scheduled review attempt (case × profile × run); nothing leaves a denominator.",
			func(s *Set) []ReviewRow { return s.Reviews }),
		table("criteria", "Reviewer benchmark: raw and effective rating of every criterion of every completed review.",
			func(s *Set) []CriterionRow { return s.Criteria }),
		table(ReviewFindingsTable, "Reviewer benchmark: every finding a reviewer under test reported in a completed review, with its grounding and adjudication (not evalgate's findings: those are campaign_findings).",
			func(s *Set) []FindingRow { return s.Findings }),
		table("review_finding_adjudications", "Reviewer benchmark: every adjudication line of a reviewer's finding, disagreements kept.",
			func(s *Set) []FindingAdjudicationRow { return s.FindingAdjudications }),
		table("review_metrics", "Reviewer benchmark: every metric per split, profile and model stratum with numerator and denominator.",
			func(s *Set) []ReviewMetric { return s.ReviewMetrics }),
		table("label_queue", "Reviewer benchmark: the label-adjudication queue, every finding that puts an audited case's label in question; the promotion waits for those of selection and final.",
			func(s *Set) []LabelQueueRow { return s.LabelQueue }),
	}
}

// sortedRejections returns a sorted copy of s.Rejections.
func sortedRejections(s *Set) []rules.Finding {
	fs := append(rules.Findings(nil), s.Rejections...)
	fs.Sort()
	return fs
}

// table builds the registry entry of a row type T.
func table[T any](name, doc string, rows func(*Set) []T) Table {
	return Table{
		Name:    name,
		Doc:     doc,
		RowType: reflect.TypeFor[T](),
		Schema:  parquet.SchemaOf(new(T)),
		Rows:    func(s *Set) any { return rows(s) },
		Len:     func(s *Set) int { return len(rows(s)) },
		write: func(path string, s *Set, meta Metadata) error {
			return WriteParquet(path, rows(s), meta)
		},
	}
}

// spooled builds the registry entry of a table held as a [spool.Spool]; Rows
// collects it into a slice.
func spooled[T any](name, doc string, rows func(*Set) *spool.Spool[T]) Table {
	return Table{
		Name:    name,
		Doc:     doc,
		RowType: reflect.TypeFor[T](),
		Schema:  parquet.SchemaOf(new(T)),
		Rows:    func(s *Set) any { return rows(s).Collect() },
		Len:     func(s *Set) int { return rows(s).Len() },
		write: func(path string, s *Set, meta Metadata) error {
			return WriteSpool(path, rows(s), meta)
		},
	}
}
