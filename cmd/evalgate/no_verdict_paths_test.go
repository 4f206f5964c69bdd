package main

import (
	"slices"
	"testing"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Every path by which the aggregate stage gives no_verdict has a rejecting
// finding behind it, so validate rejects exactly when run gives no
// verdict: one case per path, on paired-review-green.
func TestNoVerdictPathsReject(t *testing.T) {
	cases := []struct {
		name string
		edit func(*controls.Campaign) error
		code rules.Code
	}{
		{"unknown gate policy preset", func(c *controls.Campaign) error {
			return c.EditManifest(func(m *tables.Manifest) { m.GatePolicy.Preset = "lenient" })
		}, rules.CodeGatePresetUnknown},
		// The design keeps only its baseline; the treatment's sessions and
		// ratings go too, so the design is the only defect.
		{"no treatment arm", func(c *controls.Campaign) error {
			rs, err := c.Receipts()
			if err != nil {
				return err
			}
			for _, r := range rs {
				if r.Arm != nil && *r.Arm == "B" {
					if err := c.DeleteReceipt(r.SessionID); err != nil {
						return err
					}
					_ = c.DeleteRatings(r.SessionID)
				}
			}
			return c.EditManifest(func(m *tables.Manifest) {
				base := m.Design.Arms[0].ID
				m.Design.Arms = m.Design.Arms[:1]
				for i := range m.Design.Schedule {
					m.Design.Schedule[i].Order = []string{base}
				}
			})
		}, rules.CodeDesignNoTreatment},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := judgeGreen(t, tc.edit)
			t.Logf("validate %d %v; run %d %s %s", o.validateExit, o.codes, o.runExit, o.run.Decision, o.run.Reason)
			o.wantNoVerdict(t, tc.code)
			if !slices.Contains(o.run.RejectingCodes, string(tc.code)) {
				t.Errorf("run rejecting codes %v lack %s", o.run.RejectingCodes, tc.code)
			}
		})
	}
}
