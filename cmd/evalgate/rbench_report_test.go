package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// unescapeMarkdown undoes report.md's escaping of a line (a backslash
// before punctuation, &lt; and &gt;).
func unescapeMarkdown(s string) string {
	s = regexp.MustCompile(`\\([[:punct:]])`).ReplaceAllString(s, "$1")
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// TestReviewerBenchmarkReportCounts reads every count on a reviewer
// benchmark's report.md and checks it against the written tables: the
// attempts and their statuses, executions and replacements, the ledger's
// entries and amounts by role, the findings, every numerator and
// denominator of the metrics table, and the candidate's attempts the
// contract gate names. No count of another kind's view (sessions, runs)
// may appear beside them, so that no zero contradicts another count. It
// runs on the embedded example, the the reviewer-benchmark protocol pilot fixture and the
// example with one attempt replaced.
func TestReviewerBenchmarkReportCounts(t *testing.T) {
	outs := map[string]string{"example": runExample(t, "reviewer-benchmark")}
	pilot := t.TempDir()
	if code, _, stderr := evalgate(t, "run", ledgerFixture("benchmark-pilot"), "--out", pilot, "--no-intervals"); code != 0 {
		t.Fatalf("run the pilot: exit %d\n%s", code, stderr)
	}
	outs["pilot"] = pilot
	_, outs["replaced"] = runNamedDefect(t, "an attempt replaced after a platform outage")
	withIntervals := t.TempDir()
	if code, _, stderr := evalgate(t, "run", "--example", "reviewer-benchmark", "--out", withIntervals); code != 0 {
		t.Fatalf("run the example with intervals: exit %d\n%s", code, stderr)
	}
	outs["example with intervals"] = withIntervals
	// Every family count of the example's scopes is one the coverage
	// simulation ran at (intervals.CoverageFamilies).
	for _, iv := range readTable[tables.Interval](t, withIntervals, "intervals") {
		if iv.Status == tables.RateCoverageUntestedFamilies {
			t.Errorf("the example's %s %s (%s, %s) has %d families, at which the coverage is untested", iv.Statistic, iv.Contrast, iv.Split, iv.Model, iv.NFamilies)
		}
	}
	for name, out := range outs {
		t.Run(name, func(t *testing.T) { checkReportCounts(t, out) })
	}
}

func checkReportCounts(t *testing.T, out string) {
	data, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	reviews := readTable[tables.ReviewRow](t, out, "reviews")
	cases := readTable[tables.CaseRow](t, out, "cases")
	ledger := readTable[tables.LedgerEntry](t, out, "ledger")
	metrics := readTable[tables.ReviewMetric](t, out, "review_metrics")
	rejections := readTable[rules.Finding](t, out, tables.CampaignFindingsTable)
	status := map[string]int{}
	var executions, replaced int64
	for _, r := range reviews {
		status[r.Status]++
		executions += r.Executions
		replaced += max(r.Executions-1, 0)
	}
	byRole := map[string]int{}
	for _, e := range ledger {
		if e.Kind == tables.LedgerAccounted || e.Kind == tables.LedgerHeld {
			byRole[e.Role]++
		}
	}
	statusText := fmt.Sprintf("completed %d, abstained %d, contract_violation %d, schema_violation %d, execution_error %d, missing %d",
		status[tables.ReviewStatusCompleted], status[tables.ReviewStatusAbstained], status[tables.ReviewStatusContractViolation], status[tables.ReviewStatusSchemaViolation],
		status[tables.ReviewStatusExecutionError], status[tables.ReviewStatusMissing])
	warn := len(rejections)
	for _, f := range rejections {
		if f.Severity == "reject" {
			warn--
		}
	}
	want := []string{
		fmt.Sprintf("- Attempts: %d scheduled (%d cases); by status: %s", len(reviews), len(cases), statusText),
		fmt.Sprintf("- Executions: %d receipts of scheduled attempts, %d replaced within the infrastructure-replacement allowance (retained and charged)", executions, replaced),
		fmt.Sprintf("- Findings: %d (reject %d, warn %d)", len(rejections), len(rejections)-warn, warn),

		"Attempts by status: " + statusText + ".",
	}
	lines := strings.Split(string(data), "\n")
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = unescapeMarkdown(l)
	}
	has := func(s string) bool {
		for _, l := range plain {
			if l == s {
				return true
			}
		}
		return false
	}
	for _, w := range want {
		if !has(w) {
			t.Errorf("report.md has no line %q", w)
		}
	}
	summary := fmt.Sprintf("%d cases, %d scheduled review attempts; every attempt stays in every denominator.", len(cases), len(reviews))
	if !slices.ContainsFunc(plain, func(l string) bool { return strings.HasPrefix(l, summary) }) {
		t.Errorf("report.md has no line %q", summary)
	}
	for _, l := range plain {
		for _, other := range []string{"- Sessions:", "- Runs:", "No run was planned", "Physical campaign billing", "reference unavailable"} {
			if strings.Contains(l, other) {
				t.Errorf("report.md shows another kind's count: %q", l)
			}
		}
		if rest, ok := strings.CutPrefix(l, "- Ledger entries by role: "); ok {
			for _, part := range strings.Split(rest, ", ") {
				role, n, _ := strings.Cut(part, " ")
				if got, _ := strconv.Atoi(n); got != byRole[role] || got == 0 {
					t.Errorf("ledger entries of %s: the page says %s, the ledger has %d", role, n, byRole[role])
				}
			}
		}
	}
	checkMetricCells(t, plain, reviews, metrics)
	checkLedgerRows(t, plain, ledger)
	checkIntervalCells(t, plain, reviews)
	candidate := 0
	for _, r := range reviews {
		if r.Profile == "candidate" {
			candidate++
		}
	}
	if !strings.Contains(string(data), fmt.Sprintf("contract violations in %d attempts", candidate)) {
		t.Errorf("the contract gate does not count the candidate's %d attempts", candidate)
	}
}

// checkMetricCells checks every numerator/denominator cell of the
// metrics table against the review_metrics table, and every denominator
// of scheduled attempts and of audited cases against the reviews table.
func checkMetricCells(t *testing.T, lines []string, reviews []tables.ReviewRow, metrics []tables.ReviewMetric) {
	t.Helper()
	type key struct{ split, profile, model, metric string }
	byKey := map[key]tables.ReviewMetric{}
	for _, m := range metrics {
		byKey[key{m.Split, m.Profile, m.Model, m.Metric}] = m
	}
	in := func(r tables.ReviewRow, split, profile, model string) bool {
		return (split == "all" || r.Split == split) && r.Profile == profile && (model == "all" || r.Model == model)
	}
	var header []string
	rows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "| split | profile | model |") {
			header = strings.Split(strings.Trim(l, "| "), " | ")
			continue
		}
		if header == nil || !strings.HasPrefix(l, "| ") {
			if header != nil && rows > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != len(header) || strings.HasPrefix(l, "|---") {
			continue
		}
		rows++
		split, profile, model := cells[0], cells[1], cells[2]
		var scheduled, variants, clean, provisional int64
		for _, r := range reviews {
			if !in(r, split, profile, model) {
				continue
			}
			scheduled++
			switch {
			case r.CaseKind == tables.CaseVariant && r.Label == tables.LabelAudited:
				variants++
			case r.CaseKind == tables.CaseClean && r.Label == tables.LabelAudited:
				clean++
			case r.CaseKind == tables.CaseClean:
				provisional++
			}
		}
		if scheduled == 0 {
			t.Errorf("metrics row %s/%s/%s counts no attempt of the reviews table", split, profile, model)
		}
		dens := map[string]int64{
			tables.MetricCompleted: scheduled, tables.MetricDecisionCoverage: scheduled, tables.MetricAbstentions: scheduled,
			tables.MetricExecutionErrors: scheduled, tables.MetricSchemaViolations: scheduled,
			tables.MetricDetection: variants, tables.MetricBlockingOnClean: clean, tables.MetricBlockingProvisional: provisional,
		}
		for i, name := range header[3:] {
			num, den, ok := strings.Cut(cells[i+3], "/")
			if !ok {
				continue
			}
			m, found := byKey[key{split, profile, model, name}]
			if !found || num != fmt.Sprint(m.Numerator) || den != fmt.Sprint(m.Denominator) {
				t.Errorf("%s/%s/%s %s: the page says %s/%s, the table %d/%d", split, profile, model, name, num, den, m.Numerator, m.Denominator)
			}
			if want, scheduledBased := dens[name]; scheduledBased && den != fmt.Sprint(want) {
				t.Errorf("%s/%s/%s %s: denominator %s, the reviews table has %d eligible attempts", split, profile, model, name, den, want)
			}
		}
	}
	if rows == 0 {
		t.Error("report.md has no metrics table")
	}
}

// checkLedgerRows checks the ledger-by-role table against the ledger:
// each role's entries, accounted and held amounts, and the total row.
func checkLedgerRows(t *testing.T, lines []string, ledger []tables.LedgerEntry) {
	t.Helper()
	type sums struct {
		n               int
		accounted, held tables.Money
	}
	by := map[string]*sums{"all": {}}
	for _, e := range ledger {
		if e.Kind != tables.LedgerAccounted && e.Kind != tables.LedgerHeld {
			continue
		}
		if by[e.Role] == nil {
			by[e.Role] = &sums{}
		}
		amount := *e.ReferenceCost
		if e.ToolCharges != nil {
			amount += *e.ToolCharges
		}
		for _, s := range []*sums{by[e.Role], by["all"]} {
			s.n++
			if e.Kind == tables.LedgerAccounted {
				s.accounted += amount
			} else {
				s.held += amount
			}
		}
	}
	inTable, seen := false, 0
	for _, l := range lines {
		if strings.HasPrefix(l, "| role | entries | accounted | held |") {
			inTable = true
			continue
		}
		if !inTable || strings.HasPrefix(l, "|---") {
			continue
		}
		if !strings.HasPrefix(l, "| ") {
			break
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		s := by[cells[0]]
		money := func(cell string) tables.Money {
			m, err := tables.ParseMoney(strings.TrimPrefix(cell, "USD "))
			if err != nil {
				t.Errorf("ledger cell %q: %v", cell, err)
			}
			return m
		}
		if s == nil || cells[1] != fmt.Sprint(s.n) || money(cells[2]) != s.accounted || money(cells[3]) != s.held {
			t.Errorf("ledger row %q, the ledger has %+v", l, s)
		}
		seen++
	}
	if seen != len(by) {
		t.Errorf("%d ledger rows on the page, the ledger has %d roles and a total", seen, len(by))
	}
}

// checkIntervalCells checks the families and attempts of every row of the
// exploratory interval table, when the page has one, against the reviews
// table: the scope's eligible attempts of the rate's profile (audited
// variants for detection, audited clean cases for blocking, every
// scheduled attempt for decision coverage; the candidate's for a
// difference) and the distinct families among them. A row whose scope
// has such attempts must not show 0 of them.
func checkIntervalCells(t *testing.T, lines []string, reviews []tables.ReviewRow) {
	t.Helper()
	const head = "| split | model | statistic | contrast | estimate | interval | families | attempts | note |"
	start := slices.Index(lines, head)
	if start < 0 {
		if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "## Exploratory intervals") }) &&
			!slices.Contains(lines, "No interval was computed.") {
			t.Error("report.md has intervals but not the reviewer benchmark's interval table")
		}
		return
	}
	rows := 0
	for _, l := range lines[start+2:] {
		if !strings.HasPrefix(l, "| ") {
			break
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != 9 {
			t.Errorf("interval row %q has %d cells", l, len(cells))
			continue
		}
		rows++
		split, model, stat, contrast := cells[0], cells[1], cells[2], cells[3]
		profile, _, _ := strings.Cut(contrast, "-") // candidate-baseline: the candidate's attempts
		families := map[string]bool{}
		attempts := 0
		for _, r := range reviews {
			if r.Model != model || r.Profile != profile || (split != "all" && r.Split != split) {
				continue
			}
			eligible := false
			switch strings.TrimSuffix(stat, ".diff") {
			case "rbench.detection":
				eligible = r.CaseKind == tables.CaseVariant && r.Label == tables.LabelAudited
			case "rbench.blocking_on_clean":
				eligible = r.CaseKind == tables.CaseClean && r.Label == tables.LabelAudited
			case "rbench.decision_coverage":
				eligible = true
			default:
				t.Errorf("interval row of an unknown statistic %q", stat)
			}
			if eligible {
				attempts++
				families[r.Family] = true
			}
		}
		if cells[6] != fmt.Sprint(len(families)) || cells[7] != fmt.Sprint(attempts) {
			t.Errorf("interval row %q: families %s, attempts %s; the reviews table has %d and %d", l, cells[6], cells[7], len(families), attempts)
		}
		if (cells[5] == "none") == (cells[8] == "—" || strings.HasPrefix(cells[8], "a bound clipped")) {
			t.Errorf("interval row %q: an interval needs no reason and a missing one needs its reason", l)
		}
	}
	if rows == 0 {
		t.Error("report.md has an empty interval table")
	}
}
