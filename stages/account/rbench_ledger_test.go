package account

import (
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestBenchmarkLedger: a reviewer benchmark's ledger in micro-units, its
// auxiliary calls under the cap. Expected figures by hand at Sonnet 4.6's
// US$3 / 0.30 / 15 per million:
//   - a second opinion of 40,000 uncached, 22,266 cached and 8,000 output
//     tokens costs exactly 0.12 + 0.0066798 + 0.12 = US$0.2466798: its
//     token row keeps that, its ledger entry the next micro-dollar,
//     US$0.246680;
//   - a probe with no meter and no reconciled bill is held at its
//     reservation, US$1.20, with no meter finding and no token row;
//   - a remote execution whose bill (bound as its output) is reconciled
//     at US$0.3312 is accounted at it;
//   - a remote execution that gives an actual charge of US$0.3312 but
//     binds no bill is held at its reservation, US$0.50, and noted
//     (benchmark_remote_bill_missing): nothing shows the charge
//     reconciled;
//   - an interrupted review is held at its reservation, US$0.27;
//   - a review whose meter is priced by no tariff (a cache write the card
//     has no price for) is held at its reservation, US$0.52, instead of
//     making the accounted total unknown.
//
// Accounted 0.246680 + 0.3312 = US$0.577880; held 1.20 + 0.50 + 0.27 + 0.52 = US$2.49.
func TestBenchmarkLedger(t *testing.T) {
	opinion := receipt("second-opinion-1", tables.ShapeNormalized, normalized(40_000, 22_266, 0, 0, 8_000, 0))
	opinion.Role, opinion.Meter.RateCard = tables.RoleSecondOpinion, "sonnet-4.6"
	probe := receipt("probe-1", tables.ShapeNormalized, "")
	probe.Role, probe.Meter = tables.RoleProbe, nil
	probe.Reservation.Cost = "1.20"
	remote := receipt("remote-1", tables.ShapeNormalized, "")
	remote.Role, remote.Meter = tables.RoleRemoteExecution, nil
	remote.Billing = tables.Billing{Basis: tables.BillingActual, ActualCharge: strp("0.3312")}
	remote.Output = &tables.OutputRef{Path: "bills/remote-1.json", SHA256: "b1", Bytes: 10}
	unbilled := receipt("remote-2", tables.ShapeNormalized, "")
	unbilled.Role, unbilled.Meter = tables.RoleRemoteExecution, nil
	unbilled.Billing = tables.Billing{Basis: tables.BillingActual, ActualCharge: strp("0.3312")}
	unbilled.Reservation.Cost = "0.50"
	interrupted := receipt("review-1", tables.ShapeNormalized, normalized(1_000, 0, 0, 0, 100, 0))
	interrupted.Status, interrupted.Reservation.Cost = tables.StatusInterruption, "0.27"
	unpriced := receipt("review-2", tables.ShapeNormalized, normalized(1_000, 0, 500, 0, 100, 0)) // the Codex card has no cache-write price
	c := testCampaign(opinion, probe, remote, unbilled, interrupted, unpriced)
	c.Manifest.Kind = rules.KindReviewerBenchmark
	out := Run(c)

	got := Commit(&c.Manifest.Ceilings, out.Ledger, tables.BillingReference)
	if got.Accounted == nil || got.Accounted.String() != "0.57788" || got.Held == nil || got.Held.String() != "2.49" {
		t.Errorf("accounted %v held %v, want 0.57788 and 2.49", got.Accounted, got.Held)
	}
	want := map[string]struct{ role, kind, cost string }{
		"second-opinion-1": {tables.RoleSecondOpinion, tables.LedgerAccounted, "0.24668"},
		"probe-1":          {tables.RoleProbe, tables.LedgerHeld, "1.20"},
		"remote-1":         {tables.RoleRemoteExecution, tables.LedgerAccounted, "0.3312"},
		"remote-2":         {tables.RoleRemoteExecution, tables.LedgerHeld, "0.50"},
		"review-1":         {tables.RoleReview, tables.LedgerHeld, "0.27"},
		"review-2":         {tables.RoleReview, tables.LedgerHeld, "0.52"},
	}
	for e := range out.Ledger.All() {
		w := want[e.SessionID]
		if e.Role != w.role || e.Kind != w.kind || e.ReferenceCost == nil || e.ReferenceCost.String() != w.cost {
			t.Errorf("ledger entry %s: %s %s %v, want %s %s %s", e.SessionID, e.Role, e.Kind, e.ReferenceCost, w.role, w.kind, w.cost)
		}
	}
	var sessions []string
	for row := range out.Tokens.All() {
		sessions = append(sessions, row.SessionID)
		if row.SessionID == "second-opinion-1" && (row.ReferenceCost == nil || row.ReferenceCost.String() != "0.2466798") {
			t.Errorf("second opinion's token row costs %v, want the exact 0.2466798", row.ReferenceCost)
		}
	}
	if !slices.Equal(sessions, []string{"review-1", "review-2", "second-opinion-1"}) {
		t.Errorf("token rows %v, want the model calls only", sessions)
	}
	var noted []string
	for _, f := range out.Findings {
		if f.Code == rules.CodeRbenchRemoteBillMissing {
			noted = append(noted, f.Session+" "+f.Pointer+" "+string(f.Severity))
		}
	}
	if !slices.Equal(noted, []string{"remote-2 /output warn"}) {
		t.Errorf("remote bills noted missing: %v, want remote-2's output, a warning", noted)
	}
	if slices.Contains(codes(out.Findings), rules.CodeMeterMissing) {
		t.Errorf("findings %v: a remote execution has no token meter to miss", codes(out.Findings))
	}
}

// TestCeilMicro: rounding up to the micro-unit never lowers a charge and
// leaves whole micro-units and unknown amounts alone.
func TestCeilMicro(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0", "0.00"}, {"0.000001", "0.000001"}, {"0.000001000001", "0.000002"}, {"0.2466798", "0.24668"}, {"12.614294", "12.614294"},
	} {
		m, err := tables.ParseMoney(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := ceilMicro(&m); got.String() != tc.want {
			t.Errorf("ceilMicro(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if ceilMicro(nil) != nil {
		t.Error("an unknown amount stays unknown")
	}
}
