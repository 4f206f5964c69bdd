package account

import (
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// TestCommitmentReproducesPilotLedger runs the reviewer benchmark's final pilot accounting (rule A7)
// through the account stage: accounted $70.868357 plus held $27.10 is
// $97.968357 committed against the unchanged $150 cap, leaving $52.031643.
// The accounted charges are the reviewer-benchmark protocol's own parts (comparisons $20.136099,
// second opinion $0.246680, Astra stratum $33.876137, Sonnet stratum
// $12.614294, and the remaining $3.995147 of the search pilot); the holds
// are the earlier $6.30 and a later $20.80 of interrupted requests and
// remote billing awaiting reconciliation. A resumed session replays one
// request ID and must not be charged again. Expected figures are the reviewer-benchmark protocol's
// text, compared as exact decimal strings.
func TestCommitmentReproducesPilotLedger(t *testing.T) {
	var receipts []tables.Receipt
	for i, charge := range []string{"20.136099", "0.246680", "33.876137", "12.614294", "3.995147"} {
		r := receipt("S"+itoa(int64(i+1)), tables.ShapeNormalized, normalized(1000, 0, 0, 0, 100, 0))
		r.Billing = tables.Billing{Basis: tables.BillingActual, ActualCharge: strp(charge)}
		receipts = append(receipts, r)
	}
	resumed := receipts[2]
	resumed.SessionID = "S3-resumed"
	receipts = append(receipts, resumed) // same request ID: reused, never charged twice
	for i, hold := range []string{"6.30", "20.80"} {
		r := receipt("H"+itoa(int64(i+1)), tables.ShapeNormalized, "")
		r.Status, r.Meter = tables.StatusInterruption, nil
		r.Reservation.Cost = hold
		receipts = append(receipts, r)
	}
	c := testCampaign(receipts...)
	c.Manifest.Ceilings.Campaign.ActualCost = "150"
	out := Run(c)
	got := Commit(&c.Manifest.Ceilings, out.Ledger, tables.BillingActual)
	for _, f := range []struct {
		name string
		m    *tables.Money
		want string
	}{
		{"cap", got.Cap, "150.00"},
		{"accounted", got.Accounted, "70.868357"},
		{"held", got.Held, "27.10"},
		{"reserved", got.Reserved, "0.00"},
		{"committed", got.Committed, "97.968357"},
		{"remaining", got.Remaining, "52.031643"},
	} {
		if f.m == nil || f.m.String() != f.want {
			t.Errorf("%s = %v, want %s", f.name, f.m, f.want)
		}
	}
	if !got.Within() {
		t.Error("committed $97.968357 is within the $150 cap")
	}
	replayed := 0
	for e := range out.Ledger.All() {
		if e.Kind == tables.LedgerReplayed {
			replayed++
		}
	}
	if replayed != 1 {
		t.Errorf("%d replayed entries, want the resumed session's 1", replayed)
	}
}

// TestCommitmentUnknownIsNotZero: a held charge without a reservation is
// unknown, so committed and remaining are unknown, and the cap is not
// shown as met.
func TestCommitmentUnknownIsNotZero(t *testing.T) {
	r := receipt("H1", tables.ShapeNormalized, "")
	r.Status, r.Meter, r.Reservation = tables.StatusInterruption, nil, nil
	c := testCampaign(r)
	got := Commit(&c.Manifest.Ceilings, Run(c).Ledger, tables.BillingActual)
	if got.Held != nil || got.Committed != nil || got.Remaining != nil || got.Within() {
		t.Errorf("commitment = %+v, want unknown held, committed and remaining", got)
	}
}

// TestCommitmentAtAndAboveCap: exactly at the cap is within it; one
// pico-unit above is not, and remaining is negative.
func TestCommitmentAtAndAboveCap(t *testing.T) {
	for _, tc := range []struct {
		hold, remaining string
		within          bool
	}{{"150", "0.00", true}, {"150.000000000001", "-0.000000000001", false}} {
		r := receipt("H1", tables.ShapeNormalized, "")
		r.Status, r.Meter = tables.StatusInterruption, nil
		r.Reservation.Cost = tc.hold
		c := testCampaign(r)
		c.Manifest.Ceilings.Campaign.ActualCost = "150"
		got := Commit(&c.Manifest.Ceilings, Run(c).Ledger, tables.BillingActual)
		if got.Remaining == nil || got.Remaining.String() != tc.remaining || got.Within() != tc.within {
			t.Errorf("hold %s: remaining %v within %v, want %s %v", tc.hold, got.Remaining, got.Within(), tc.remaining, tc.within)
		}
	}
}
