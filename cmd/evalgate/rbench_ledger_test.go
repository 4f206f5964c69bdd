package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// runExample runs evalgate run on an embedded example without intervals
// and returns the output directory.
func runExample(t *testing.T, name string) string {
	t.Helper()
	out := t.TempDir()
	if code, stdout, stderr := evalgate(t, "run", "--example", name, "--out", out, "--no-intervals"); code != 0 {
		t.Fatalf("run --example %s: exit %d\n%s%s", name, code, stdout, stderr)
	}
	return out
}

// runNamedDefect applies the named one-change fixture to the reviewer-benchmark
// example and runs evalgate run on it; it returns the exit code and the
// output directory.
func runNamedDefect(t *testing.T, name string) (int, string) {
	t.Helper()
	files, err := rbdefects.Example()
	if err != nil {
		t.Fatal(err)
	}
	if err := defectNamed(t, name).Apply(files); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, _, stderr := evalgate(t, "run", writeCampaign(t, files), "--out", out)
	if code != 0 && code != 1 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	return code, out
}

// TestReviewerBenchmarkReplacement: an attempt whose first execution ended
// in a platform outage and was replaced within the allowance (one) is
// scored on its replacement, the campaign still advances, and both
// executions are charged: F11-clean-candidate-r1 metered 24,595 input and
// 2,210 output tokens at US$3 and US$15 per million (0.073785 + 0.03315 =
// US$0.106935), and the replacement returned the same tokens, so the
// attempt costs US$0.21387.
// Beyond the allowance (two invalid executions, one allowed) the campaign
// stops; a model timeout is never replaced.
func TestReviewerBenchmarkReplacement(t *testing.T) {
	code, out := runNamedDefect(t, "an attempt replaced after a platform outage")
	if code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if d := readTable[tables.Decision](t, out, "decision"); len(d) != 1 || d[0].Decision != tables.DecisionAdvance {
		t.Errorf("decision %+v, want advance", d)
	}
	found := false
	for _, r := range readTable[tables.ReviewRow](t, out, "reviews") {
		if r.CaseID != "F11-clean" || r.Profile != "candidate" || r.Run != 1 {
			continue
		}
		found = true
		if r.SessionID != rbdefects.Replacement || r.Status != tables.ReviewStatusCompleted || r.Executions != 2 ||
			r.Cost == nil || r.Cost.String() != "0.21387" || r.HeldCost == nil || *r.HeldCost != 0 {
			t.Errorf("attempt row %+v (cost %v), want the replacement %s completed, 2 executions, cost 0.21387, nothing held", r, r.Cost, rbdefects.Replacement)
		}
	}
	if !found {
		t.Fatal("no row for F11-clean, candidate, run 1")
	}
	var charged []string
	for _, e := range readTable[tables.LedgerEntry](t, out, "ledger") {
		if (e.SessionID == rbdefects.Replaced || e.SessionID == rbdefects.Replacement) && e.Kind == tables.LedgerAccounted &&
			e.ReferenceCost != nil && e.ReferenceCost.String() == "0.106935" {
			charged = append(charged, e.SessionID)
		}
	}
	if !slices.Equal(charged, []string{rbdefects.Replaced, rbdefects.Replacement}) {
		t.Errorf("accounted ledger entries of US$0.106935: %v, want the original and its replacement", charged)
	}

	for _, tc := range []struct {
		defect string
		code   rules.Code
	}{
		{"two attempts replaced with an allowance of one", rules.CodeRbenchReplacementsExceed},
		{"a model timeout replaced", rules.CodeReplacementUnjustified},
	} {
		code, out := runNamedDefect(t, tc.defect)
		d := readTable[tables.Decision](t, out, "decision")
		rejected := slices.ContainsFunc(readTable[rules.Finding](t, out, tables.CampaignFindingsTable), func(f rules.Finding) bool { return f.Code == tc.code })
		if code != 1 || len(d) != 1 || d[0].Decision != tables.DecisionNoVerdict || !rejected {
			t.Errorf("%s: exit %d, decision %+v, %s rejected %v; want 1, no_verdict, true", tc.defect, code, d, tc.code, rejected)
		}
	}
}

// TestReviewerBenchmarkStratumCost recomputes every stratum's cost and
// holds of the embedded example from its receipts, cases and rate card
// (US$3 input and US$15 output per million, so each metered review costs
// a whole number of micro-dollars), never from the pipeline: an
// interrupted attempt (F08-clean, candidate, run 1) is held at its
// reservation beside a cost that stays known.
func TestReviewerBenchmarkStratumCost(t *testing.T) {
	src, ok := fixtures.Example("reviewer-benchmark")
	if !ok {
		t.Fatal("no reviewer-benchmark example")
	}
	casesData, _ := fs.ReadFile(src, "cases.json")
	var cases tables.Cases
	if err := json.Unmarshal(casesData, &cases); err != nil {
		t.Fatal(err)
	}
	split := map[string]string{}
	for _, c := range cases.Cases {
		split[c.ID] = c.Split
	}
	type key struct{ split, profile string }
	cost, held, heldN := map[key]int64{}, map[key]int64{}, map[key]int64{}
	data, _ := fs.ReadFile(src, "receipts.jsonl")
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			TaskID string `json:"task_id"`
			Arm    string `json:"arm"`
			Meter  *struct {
				Usage struct {
					In  int64 `json:"input_tokens"`
					Out int64 `json:"output_tokens"`
				} `json:"usage"`
			} `json:"meter"`
			Reservation struct {
				Cost string `json:"cost"`
			} `json:"reservation"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		for _, k := range []key{{split[r.TaskID], r.Arm}, {"all", r.Arm}} {
			if r.Meter != nil && r.Status != tables.StatusInterruption {
				cost[k] += 3*r.Meter.Usage.In + 15*r.Meter.Usage.Out // micro-dollars
				continue
			}
			if r.Reservation.Cost != "0.27" {
				t.Fatalf("a held receipt reserves %s, not the example's 0.27", r.Reservation.Cost)
			}
			held[k] += 270_000
			heldN[k]++
		}
	}
	micro := func(v int64) string { return (tables.Money(v) * 1_000_000).String() }
	seen := 0
	for _, m := range readTable[tables.ReviewMetric](t, runExample(t, "reviewer-benchmark"), "review_metrics") {
		k := key{m.Split, m.Profile}
		switch m.Metric {
		case tables.MetricCost:
			seen++
			if m.Exact == nil || *m.Exact != micro(cost[k]) {
				t.Errorf("%v cost %v, want %s", k, m.Exact, micro(cost[k]))
			}
		case tables.MetricCostHeld:
			seen++
			if m.Exact == nil || *m.Exact != micro(held[k]) || m.Numerator != heldN[k] {
				t.Errorf("%v held %v over %d attempts, want %s over %d", k, m.Exact, m.Numerator, micro(held[k]), heldN[k])
			}
		}
	}
	if seen != 16 || heldN[key{"development", "candidate"}] != 1 {
		t.Errorf("%d cost rows (want 2 × 4 splits × 2 profiles), %d held development candidate attempts (want 1)", seen, heldN[key{"development", "candidate"}])
	}
}

// ledgerFixture is a ledger fixture's directory, from this package's.
func ledgerFixture(name string) string { return filepath.Join("..", "..", "fixtures", "ledger", name) }

// recomputeLedger recomputes a ledger fixture's accounted and held
// amounts in micro-dollars from its receipts and rate cards alone, never
// from the pipeline: a metered model call is charged its tokens at its
// card's prices rounded up to the micro-dollar (the campaign ledger's
// rule), an interrupted or unmetered one is held at its reservation, a
// remote execution is accounted at its reconciled bill (an actual charge
// with the bill bound as its output) or held at its reservation. Prices
// are read from the manifest in hundredths of a micro-dollar per token
// (US$3 per million is 300).
func recomputeLedger(t *testing.T, dir string) (accounted, held int64, byRole map[string][2]int64) {
	t.Helper()
	var m struct {
		RateCards []struct {
			ID     string            `json:"id"`
			Prices map[string]string `json:"prices"`
		} `json:"rate_cards"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	hundredths := func(s string) int64 { // "0.30" → 30, "15" → 1500
		whole, frac, _ := strings.Cut(s, ".")
		frac = (frac + "00")[:2]
		n, err := strconv.ParseInt(whole+frac, 10, 64)
		if err != nil {
			t.Fatalf("price %q: %v", s, err)
		}
		return n
	}
	micro := func(s string) int64 { // "1.20" → 1,200,000
		whole, frac, _ := strings.Cut(s, ".")
		n, err := strconv.ParseInt(whole+(frac + "000000")[:6], 10, 64)
		if err != nil {
			t.Fatalf("amount %q: %v", s, err)
		}
		return n
	}
	type card struct{ in, cached, out int64 }
	cards := map[string]card{}
	for _, c := range m.RateCards {
		cards[c.ID] = card{hundredths(c.Prices["uncached_input"]), hundredths(c.Prices["cached_input"]), hundredths(c.Prices["output"])}
	}
	byRole = map[string][2]int64{}
	data, err = os.ReadFile(filepath.Join(dir, "receipts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Role   string `json:"role"`
			Status string `json:"status"`
			Meter  *struct {
				Shape    string `json:"shape"`
				RateCard string `json:"rate_card"`
				Usage    struct {
					In        int64 `json:"input_tokens"`
					Out       int64 `json:"output_tokens"`
					CacheRead int64 `json:"cache_read_input_tokens"`
					Details   struct {
						Cached int64 `json:"cached_tokens"`
					} `json:"input_tokens_details"`
				} `json:"usage"`
			} `json:"meter"`
			Reservation struct {
				Cost string `json:"cost"`
			} `json:"reservation"`
			Billing struct {
				Basis  string  `json:"basis"`
				Actual *string `json:"actual_charge"`
			} `json:"billing"`
			Output *struct{} `json:"output"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		var acc, hold int64
		switch {
		case r.Role == "probe" || r.Role == "remote_execution":
			if r.Billing.Actual != nil && r.Output != nil { // a reconciled bill is bound
				acc = micro(*r.Billing.Actual)
			} else {
				hold = micro(r.Reservation.Cost)
			}
		case r.Meter == nil || r.Status == "interruption":
			hold = micro(r.Reservation.Cost)
		default:
			c, ok := cards[r.Meter.RateCard]
			if !ok {
				t.Fatalf("no rate card %s", r.Meter.RateCard)
			}
			u := r.Meter.Usage
			uncached, cached := u.In, u.CacheRead
			if r.Meter.Shape == "openai.responses" { // cached tokens are inside input_tokens
				uncached, cached = u.In-u.Details.Cached, u.Details.Cached
			}
			exact := uncached*c.in + cached*c.cached + u.Out*c.out // hundredths of a micro-dollar
			acc = (exact + 99) / 100
		}
		accounted += acc
		held += hold
		v := byRole[r.Role]
		byRole[r.Role] = [2]int64{v[0] + acc, v[1] + hold}
	}
	return accounted, held, byRole
}

// TestLedgerFixtures runs the reviewer-benchmark protocol's two ledger fixtures through evalgate
// run. The pilot's terminal ledger prints the reviewer-benchmark protocol's final accounting,
// US$70.868357 accounted + US$27.10 held = US$97.968357 committed of the
// US$150 cap, US$52.031643 remaining, and its strata the reviewer-benchmark protocol's US$33.876137
// (Astra) and US$12.614294 (Sonnet); the smoke's prints US$20.382779 + US$6.30
// with the second opinion's US$0.246680 in its own row. The expected
// figures are the reviewer-benchmark protocol's text; each is also recomputed from the receipts
// and rate cards (recomputeLedger), so the fixture cannot drift from what
// its receipts charge.
func TestLedgerFixtures(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		accounted  int64
		held       int64
		role       string
		roleAmount string
	}{
		{"benchmark-pilot", "ledger: USD 70.868357 accounted + USD 27.10 held + USD 0.00 reserved = USD 97.968357 committed of USD 150.00; remaining USD 52.031643\n",
			70_868_357, 27_100_000, "review", "USD 46.490431"}, // 33.876137 + 12.614294
		{"benchmark-smoke", "ledger: USD 20.382779 accounted + USD 6.30 held + USD 0.00 reserved = USD 26.682779 committed of USD 150.00; remaining USD 123.317221\n",
			20_382_779, 6_300_000, "second_opinion", "USD 0.246680"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := ledgerFixture(tc.name)
			acc, held, byRole := recomputeLedger(t, dir)
			if acc != tc.accounted || held != tc.held {
				t.Errorf("the receipts charge %d accounted and %d held micro-dollars, want %d and %d", acc, held, tc.accounted, tc.held)
			}
			out := t.TempDir()
			code, stdout, stderr := evalgate(t, "run", dir, "--out", out, "--no-intervals")
			if code != 0 || !strings.Contains(stdout, tc.line) {
				t.Fatalf("run: exit %d, want 0 and the line %q\n%s%s", code, tc.line, stdout, stderr)
			}
			report, err := os.ReadFile(filepath.Join(out, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			row := fmt.Sprintf("| %s | ", strings.ReplaceAll(tc.role, "_", `\_`))
			found := false
			for _, l := range strings.Split(string(report), "\n") {
				if strings.HasPrefix(l, row) && strings.Contains(l, "| "+tc.roleAmount+" |") {
					found = true
				}
			}
			if !found {
				t.Errorf("report.md has no ledger row %s… %s", row, tc.roleAmount)
			}
			if tc.name == "benchmark-pilot" { // the reviewer-benchmark protocol's strata: Astra US$33.876137, Sonnet US$12.614294 over both profiles
				strata := map[string]tables.Money{}
				for _, m := range readTable[tables.ReviewMetric](t, out, "review_metrics") {
					if m.Split == "all" && m.Metric == tables.MetricCost && m.Exact != nil {
						v, err := tables.ParseMoney(*m.Exact)
						if err != nil {
							t.Fatal(err)
						}
						strata[m.Model] += v
					}
				}
				if strata["astra"].String() != "33.876137" || strata["claude-sonnet-4-6"].String() != "12.614294" {
					t.Errorf("strata %v, want astra 33.876137 and claude-sonnet-4-6 12.614294", strata)
				}
			}
			var micros int64
			if _, err := fmt.Sscanf(strings.ReplaceAll(strings.TrimPrefix(tc.roleAmount, "USD "), ".", ""), "%d", &micros); err != nil || byRole[tc.role][0] != micros {
				t.Errorf("role %s: receipts charge %d micro-dollars, the report %s", tc.role, byRole[tc.role][0], tc.roleAmount)
			}
		})
	}
}
