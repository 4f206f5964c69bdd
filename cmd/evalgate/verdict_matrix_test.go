package main

import (
	"bytes"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The verdict matrix: one defect at a time on paired-review-green, the
// embedded campaign whose every gate passes, through `evalgate run --json`
// and `evalgate validate --json`. A defect of the record gives no_verdict
// naming it and both commands exit 1; a cost that cannot be shown within a
// hard spend bound fails the cost gates (never advance) and both exit 0;
// a campaign ceiling exactly at its use keeps advance, one unit below it
// gives no_verdict naming the ceiling.

// verdictOutcome is what the two commands said about one campaign.
type verdictOutcome struct {
	validateExit, runExit int
	codes                 []rules.Code // every finding code validate printed
	run                   struct {
		Written        bool     `json:"written"`
		Decision       string   `json:"decision"`
		Reason         string   `json:"reason"`
		Policy         string   `json:"policy"`
		FailingGates   []string `json:"failing_gates"`
		RejectingCodes []string `json:"rejecting_codes"`
	}
}

// judgeGreen applies edit to a copy of paired-review-green and runs
// validate and run on it.
func judgeGreen(t *testing.T, edit func(*controls.Campaign) error) verdictOutcome {
	t.Helper()
	return judgeExample(t, controls.GreenExample, edit)
}

// judgeExample is judgeGreen on a copy of the named embedded example.
func judgeExample(t *testing.T, example string, edit func(*controls.Campaign) error) verdictOutcome {
	t.Helper()
	return judgeCopy(t, example, edit, true)
}

// judgeCopy is judgeExample, running validate only when validate is set.
func judgeCopy(t *testing.T, example string, edit func(*controls.Campaign) error, validate bool) verdictOutcome {
	t.Helper()
	c, err := controls.LoadExample(example)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		if err := edit(c); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "campaign")
	if err := c.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	var o verdictOutcome
	var stdout, stderr bytes.Buffer
	if validate {
		o.validateExit = cli.Main([]string{"validate", dir, "--json"}, &stdout, &stderr)
		var rep struct {
			Findings rules.Findings `json:"findings"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("validate --json (exit %d, stderr %q): %v", o.validateExit, stderr.String(), err)
		}
		for _, f := range rep.Findings {
			o.codes = append(o.codes, f.Code)
		}
		stdout.Reset()
		stderr.Reset()
	}
	o.runExit = cli.Main([]string{"run", dir, "--out", filepath.Join(t.TempDir(), "out"), "--no-intervals", "--json"}, &stdout, &stderr)
	if err := json.Unmarshal(stdout.Bytes(), &o.run); err != nil {
		t.Fatalf("run --json (exit %d, stderr %q): %v", o.runExit, stderr.String(), err)
	}
	return o
}

// wantNoVerdict: both commands reject, the decision is no_verdict and its
// reason names code.
func (o verdictOutcome) wantNoVerdict(t *testing.T, code rules.Code) {
	t.Helper()
	if o.validateExit != 1 || o.runExit != 1 {
		t.Errorf("validate exited %d and run %d, want 1 and 1", o.validateExit, o.runExit)
	}
	if o.run.Decision != "no_verdict" || !strings.Contains(o.run.Reason, string(code)) || !slices.Contains(o.run.RejectingCodes, string(code)) {
		t.Errorf("run: decision %q, rejecting %v, reason %q; want no_verdict naming %s", o.run.Decision, o.run.RejectingCodes, o.run.Reason, code)
	}
	if !slices.Contains(o.codes, code) {
		t.Errorf("validate printed %v, want %s", o.codes, code)
	}
}

// wantCostGatesFail: nothing rejects, the cost gates fail and the
// decision is do_not_advance (the quality gain is kept), never advance.
func (o verdictOutcome) wantCostGatesFail(t *testing.T, code rules.Code) {
	t.Helper()
	if o.validateExit != 0 || o.runExit != 0 {
		t.Errorf("validate exited %d and run %d, want 0 and 0", o.validateExit, o.runExit)
	}
	if o.run.Decision != "do_not_advance" || strings.Join(o.run.FailingGates, ",") != "g5_cost_aggregate,g5_cost_task,g5_cost_pair" {
		t.Errorf("run: decision %q failing %q, want do_not_advance failing the three cost gates (reason %q)", o.run.Decision, o.run.FailingGates, o.run.Reason)
	}
	if !slices.Contains(o.codes, code) {
		t.Errorf("validate printed %v, want the warning %s", o.codes, code)
	}
}

func (o verdictOutcome) wantAdvance(t *testing.T) {
	t.Helper()
	if o.validateExit != 0 || o.runExit != 0 || o.run.Decision != "advance" {
		t.Errorf("validate %d, run %d, decision %q (%s); want 0, 0, advance", o.validateExit, o.runExit, o.run.Decision, o.run.Reason)
	}
}

func TestVerdictMatrixGreenAdvances(t *testing.T) {
	judgeGreen(t, nil).wantAdvance(t)
}

// TestVerdictMatrixRecordDefects: each defect of the record alone gives
// no_verdict naming it.
func TestVerdictMatrixRecordDefects(t *testing.T) {
	onReceipt := func(session string, edit func(*tables.Receipt)) func(*controls.Campaign) error {
		return func(c *controls.Campaign) error { return c.EditReceipt(session, edit) }
	}
	setUsage := func(from, to string) func(*tables.Receipt) {
		return func(r *tables.Receipt) {
			r.Meter.Usage = bytes.Replace(r.Meter.Usage, []byte(from), []byte(to), 1)
		}
	}
	cases := []struct {
		name string
		edit func(*controls.Campaign) error
		code rules.Code
	}{
		// The seed's mutation "omit one global reservation".
		{"no reservation", onReceipt("T1-r1-B", func(r *tables.Receipt) { r.Reservation = nil }), rules.CodeReservationMissing},
		// "Duplicate an ID": B is charged against A's reservation, so B was
		// dispatched without one of its own.
		{"reservation of another request", func(c *controls.Campaign) error {
			var id string
			if err := c.EditReceipt("T1-r1-A", func(r *tables.Receipt) { id = r.Reservation.ID }); err != nil {
				return err
			}
			return c.EditReceipt("T1-r1-B", func(r *tables.Receipt) { r.Reservation.ID = id })
		}, rules.CodeReservationReused},
		{"negative meter", onReceipt("T1-r1-B", setUsage(`"reasoning_tokens":`, `"reasoning_tokens":-`)), rules.CodeMeterNegative},
		{"meter total mismatch", onReceipt("T1-r1-B", setUsage(`"total_tokens":`, `"total_tokens":1`)), rules.CodeMeterTotalMismatch},
		{"end before start", onReceipt("T1-r1-B", func(r *tables.Receipt) {
			end := r.StartedAt.Add(-time.Second)
			r.EndedAt = &end
		}), rules.CodeSessionTimeInvalid},
		{"monotonic clock backwards", onReceipt("T1-r1-B", func(r *tables.Receipt) {
			end := *r.MonotonicStartNS - 1
			r.MonotonicEndNS = &end
		}), rules.CodeSessionTimeInvalid},
		{"placeholder identity", func(c *controls.Campaign) error {
			return c.EditManifest(func(m *tables.Manifest) { m.Identities.Host = "TBD" })
		}, rules.CodeIdentityMissing},
		// Every kind the format names is evaluated now (reviewer-benchmark
		// included); a kind it does not name is refused, never judged as
		// another.
		{"unsupported kind", func(c *controls.Campaign) error {
			return c.EditManifest(func(m *tables.Manifest) { m.Kind = "ab-test" })
		}, rules.CodeEnumValue},
		{"missing unblinding record", func(c *controls.Campaign) error { c.RemoveFile("unblinding.json"); return nil }, rules.CodeUnblindingMissing},
		{"second reviewer equal to the checker", func(c *controls.Campaign) error {
			return c.EditTruth("T4", func(tr *tables.Truth) { tr.Oracle.SecondReviewer = tr.Oracle.Checker })
		}, rules.CodeOracleNotIndependent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			judgeGreen(t, tc.edit).wantNoVerdict(t, tc.code)
		})
	}
}

// TestVerdictMatrixCostStops: a cost that cannot be shown within a hard
// spend bound fails the cost gates, never advance.
func TestVerdictMatrixCostStops(t *testing.T) {
	t.Run("reservation below use", func(t *testing.T) {
		// Both reviews of the pair reserve one token below what B used (A
		// used as much: the green campaign gives B A's meter), so their
		// output allowances stay equal (rule D7).
		o := judgeGreen(t, func(c *controls.Campaign) error {
			b, err := c.Receipt("T1-r1-B")
			if err != nil {
				return err
			}
			var u struct {
				Output int64 `json:"output_tokens"`
			}
			if err := json.Unmarshal(b.Meter.Usage, &u, json.RejectUnknownMembers(false)); err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"T1-r1-A", "T1-r1-B"} {
				if err := c.EditReceipt(s, func(r *tables.Receipt) {
					res := *r.Reservation
					res.OutputTokens = u.Output - 1 // one token below what the session used
					r.Reservation = &res
				}); err != nil {
					return err
				}
			}
			return nil
		})
		o.wantCostGatesFail(t, rules.CodeReservationExceeded)
	})
	t.Run("missing tariff", func(t *testing.T) {
		// The card no longer prices cached input, which some sessions have.
		// Under the preset the card is pinned (preset_pin_rate_card_cached_input);
		// under a custom policy the card is the campaign's own.
		judgeGreen(t, func(c *controls.Campaign) error {
			return c.EditManifest(func(m *tables.Manifest) { m.RateCards[0].Prices.CachedInput = nil })
		}).wantNoVerdict(t, "preset_pin_rate_card_cached_input")
		o := judgeGreen(t, func(c *controls.Campaign) error {
			return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Custom = ceilingProbe; m.RateCards[0].Prices.CachedInput = nil })
		})
		o.wantCostGatesFail(t, rules.CodeTariffMissing)
	})
}

// greenUse is what the green campaign uses of each campaign ceiling,
// computed here from its receipts and manifest, independently of the
// account stage: every dispatched receipt is a metered terminal response
// or error in the openai.responses shape, so input is input_tokens (cached
// included), output is output_tokens, the reference cost is (4 × uncached +
// 0.40 × cached + 20 × output) / 10^6 USD, no tool call charges anything
// and no actual charge is attributable (billing basis reference).
type greenUse struct {
	planned, sessions, wallMS, input, output int64
	referenceCost                            *big.Rat
}

func computeGreenUse(t *testing.T) greenUse {
	t.Helper()
	c, err := controls.LoadExample(controls.GreenExample)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := c.Receipts()
	if err != nil {
		t.Fatal(err)
	}
	u := greenUse{planned: int64(len(m.Design.Schedule) * (1 + len(m.Design.Arms))), referenceCost: new(big.Rat)}
	var first, last time.Time
	for _, r := range rs {
		if r.Status == tables.StatusNotDispatched {
			continue
		}
		if r.Meter == nil || r.Meter.Shape != tables.ShapeOpenAIResponses || r.Billing.Basis != tables.BillingReference || len(r.ToolCalls) != 0 {
			t.Fatalf("%s: the independent computation assumes a metered openai.responses receipt at reference billing without tool calls", r.SessionID)
		}
		var usage struct {
			Input  int64 `json:"input_tokens"`
			Cached struct {
				Tokens int64 `json:"cached_tokens"`
			} `json:"input_tokens_details"`
			Output int64 `json:"output_tokens"`
		}
		if err := json.Unmarshal(r.Meter.Usage, &usage, json.RejectUnknownMembers(false)); err != nil {
			t.Fatal(err)
		}
		u.sessions++
		u.input += usage.Input
		u.output += usage.Output
		cost := new(big.Rat).SetInt64(4 * (usage.Input - usage.Cached.Tokens))
		cost.Add(cost, big.NewRat(4*usage.Cached.Tokens, 10))
		cost.Add(cost, new(big.Rat).SetInt64(20*usage.Output))
		u.referenceCost.Add(u.referenceCost, cost.Quo(cost, big.NewRat(1_000_000, 1)))
		if first.IsZero() || r.StartedAt.Before(first) {
			first = r.StartedAt
		}
		if r.EndedAt != nil && r.EndedAt.After(last) {
			last = *r.EndedAt
		}
	}
	wall := last.Sub(first)
	if wall%time.Millisecond != 0 {
		t.Fatalf("campaign wall time %v is not whole milliseconds", wall)
	}
	u.wallMS = wall.Milliseconds()
	return u
}

// decimal formats an exact amount of at most 12 fractional digits.
func decimal(t *testing.T, r *big.Rat) string {
	t.Helper()
	s := r.FloatString(12)
	if back, _ := new(big.Rat).SetString(s); back.Cmp(r) != 0 {
		t.Fatalf("%s has more than 12 fractional digits", r.RatString())
	}
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// TestVerdictMatrixCampaignCeilings: every campaign ceiling exactly at the
// campaign's use keeps advance; one unit below the use (one session, one
// millisecond, one token, one pico-dollar over) gives no_verdict naming
// the ceiling. Ceilings are inclusive.
func TestVerdictMatrixCampaignCeilings(t *testing.T) {
	u := computeGreenUse(t)
	pico := big.NewRat(1, 1_000_000_000_000)
	type ceiling struct {
		name string
		code rules.Code
		set  func(m *tables.Manifest, over bool)
	}
	count := func(field *int64, use int64, over bool) {
		*field = use
		if over {
			*field = use - 1
		}
	}
	money := func(field *string, use *big.Rat, over bool) {
		v := new(big.Rat).Set(use)
		if over {
			v.Sub(v, pico)
		}
		*field = decimal(t, v)
	}
	ceilings := []ceiling{
		{"planned_sessions", rules.CodeCeilingPlannedSessions, func(m *tables.Manifest, over bool) { count(&m.Ceilings.Campaign.PlannedSessions, u.planned, over) }},
		{"total_sessions", rules.CodeCeilingTotalSessions, func(m *tables.Manifest, over bool) { count(&m.Ceilings.Campaign.TotalSessions, u.sessions, over) }},
		{"wall_time", rules.CodeCeilingCampaignWall, func(m *tables.Manifest, over bool) { count(&m.Ceilings.Campaign.WallMS, u.wallMS, over) }},
		{"input_tokens", rules.CodeCeilingCampaignInput, func(m *tables.Manifest, over bool) { count(&m.Ceilings.Campaign.InputTokens, u.input, over) }},
		{"output_tokens", rules.CodeCeilingCampaignOutput, func(m *tables.Manifest, over bool) { count(&m.Ceilings.Campaign.OutputTokens, u.output, over) }},
		{"reference_cost", rules.CodeCeilingReferenceCost, func(m *tables.Manifest, over bool) { money(&m.Ceilings.Campaign.ReferenceCost, u.referenceCost, over) }},
	}
	for _, cl := range ceilings {
		for _, over := range []bool{false, true} {
			name := cl.name + " exactly at its use"
			if over {
				name = cl.name + " one unit over"
			}
			t.Run(name, func(t *testing.T) {
				o := judgeGreen(t, func(c *controls.Campaign) error {
					return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Custom = ceilingProbe; cl.set(m, over) })
				})
				if !over {
					o.wantAdvance(t)
					return
				}
				o.wantNoVerdict(t, cl.code)
			})
		}
	}
	// The green campaign attributes no actual charge: its actual-cost use
	// is zero, so a ceiling of exactly 0 holds. One pico-dollar of actual
	// charge on one session (its basis becoming actual) is then one unit
	// over; the same charge under the default ceiling keeps advance.
	t.Run("actual_cost exactly at its use", func(t *testing.T) {
		judgeGreen(t, func(c *controls.Campaign) error {
			return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Custom = ceilingProbe; m.Ceilings.Campaign.ActualCost = "0" })
		}).wantAdvance(t)
	})
	charge := func(c *controls.Campaign) error {
		return c.EditReceipt("T1-r1-A", func(r *tables.Receipt) {
			amount := "0.000000000001"
			r.Billing.Basis, r.Billing.ActualCharge = tables.BillingActual, &amount
		})
	}
	t.Run("actual_cost charged within the ceiling", func(t *testing.T) {
		judgeGreen(t, charge).wantAdvance(t)
	})
	t.Run("actual_cost one unit over", func(t *testing.T) {
		judgeGreen(t, func(c *controls.Campaign) error {
			if err := charge(c); err != nil {
				return err
			}
			return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Custom = ceilingProbe; m.Ceilings.Campaign.ActualCost = "0" })
		}).wantNoVerdict(t, rules.CodeCeilingActualCost)
	})
}

// ceilingProbe is the custom policy a test that moves a ceiling declares: a
// preset's ceilings are frozen (rule F1).
const ceilingProbe = "ceiling-probe"

// TestValidateAndRunAgreeOnExamples: on every embedded example, validate
// rejects exactly when run's decision is no_verdict, and run exits as
// validate does. (The control suite checks the same on every control:
// controls.Expect.Verify.)
func TestValidateAndRunAgreeOnExamples(t *testing.T) {
	for _, name := range fixtures.Examples() {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			validateExit := cli.Main([]string{"validate", "--example", name, "--json"}, &stdout, &stderr)
			stdout.Reset()
			runExit := cli.Main([]string{"run", "--example", name, "--out", t.TempDir(), "--no-intervals", "--json"}, &stdout, &stderr)
			var sum struct {
				Decision string `json:"decision"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
				t.Fatalf("run --json: %v (stderr %q)", err, stderr.String())
			}
			if runExit != validateExit || (validateExit != 0) != (sum.Decision == "no_verdict") {
				t.Errorf("validate exited %d, run exited %d with decision %q", validateExit, runExit, sum.Decision)
			}
		})
	}
}
