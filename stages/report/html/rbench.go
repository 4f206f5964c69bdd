package html

import (
	"html/template"

	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// The reviewer-benchmark section of report.html: the promotion outcome and
// why (each failing gate on its line), the attempts by status, every
// metric per split, profile and model stratum with numerator and
// denominator, and the ledger's commitment. The text comes from the
// scorecard's shared formatting (the same as report.md); html/template
// escapes it.

// benchmarkSection is the section's template data; nil for other kinds.
type benchmarkSection struct {
	Summary    string
	Excluded   string // the register of excluded cases
	Promotion  []string
	Failing    []string
	Attempts   string
	Metrics    htmlTable
	Note       string
	Ledger     string
	LedgerRole htmlTable // the ledger by role
	Gates      htmlTable // the page's gates, each compared difference beside its threshold
	// Intervals is one row per rate and scope, the interval or why none;
	// IntervalIntro the text above it.
	Intervals     htmlTable
	IntervalIntro string
}

func reviewerBenchmark(sc scorecard.Scorecard) *benchmarkSection {
	rb := sc.ReviewerBenchmark
	if rb == nil {
		return nil
	}
	s := &benchmarkSection{Summary: plainText(rb.BenchmarkSummary()), Excluded: plainText(rb.BenchmarkExcluded()), Promotion: plainList(rb.BenchmarkPromotion(sc.Decision)),
		Attempts: plainText(rb.BenchmarkAttempts()), Note: scorecard.BenchmarkMetricsNote, Ledger: plainText(rb.BenchmarkLedger())}
	for _, g := range sc.Decision.FailingGateDetails {
		s.Failing = append(s.Failing, plainText(scorecard.FailingGateLine(g, sc.CostAndTime.Currency)))
	}
	header, rows := rb.BenchmarkMetricTable()
	s.Metrics = htmlTable{Caption: "Metrics per split, profile and model stratum (numerator/denominator)", Header: header}
	for _, r := range rows {
		s.Metrics.Rows = append(s.Metrics.Rows, cells(r...))
	}
	header, rows = rb.BenchmarkLedgerTable()
	s.LedgerRole = htmlTable{Caption: "Ledger by role (every review execution and auxiliary call, under the one cap)", Header: header}
	for _, r := range rows {
		s.LedgerRole.Rows = append(s.LedgerRole.Rows, cells(r...))
	}
	currency := sc.CostAndTime.Currency
	if rb.Ledger != nil && rb.Ledger.Currency != "" {
		currency = rb.Ledger.Currency
	}
	header, rows = scorecard.BenchmarkGateTable(sc.Gates, currency)
	s.Gates = htmlTable{Caption: "Conjunctive gates of the frozen policy: the observed counts, and the difference compared with the threshold", Header: header}
	for _, r := range rows {
		s.Gates.Rows = append(s.Gates.Rows, cells(r...))
	}
	header, rows = scorecard.BenchmarkIntervalTable(sc.Intervals.Rows)
	s.Intervals = htmlTable{Caption: "One interval per rate and scope, where its coverage is tested (no pass or fail: intervals never gate)", Header: header}
	for _, r := range rows {
		s.Intervals.Rows = append(s.Intervals.Rows, cells(r...))
	}
	s.IntervalIntro = plainText(scorecard.BenchmarkIntervalIntro())
	return s
}

// The section's template is, associated with pageTemplate so the
// page can call it.
var _ = template.Must(pageTemplate.New("benchmark").Parse(`<h2 id="reviewer-benchmark">Reviewer benchmark</h2>
<p>{{.Summary}}</p>
<p>{{.Excluded}}</p>
{{range .Promotion}}<p data-promotion="">{{.}}</p>
{{end}}{{if .Failing}}<ul>
{{range .Failing}}<li>{{.}}</li>
{{end}}</ul>
{{end}}<p>{{.Attempts}}</p>
{{.Metrics.HTML}}<p class="note">{{.Note}}</p>
{{if .Ledger}}<p data-ledger="">{{.Ledger}}</p>
{{end}}{{if .LedgerRole.Rows}}{{.LedgerRole.HTML}}{{end}}`))
