package validate

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestModelIdentityRule: on the paired-review-green example, which validates
// clean, a receipt whose returned model carries the provider prefix the
// manifest's lacks is the same model (Inspect AI writes both spellings in
// one log), while one naming another provider is an identity_mismatch
// whose message shows both names.
func TestModelIdentityRule(t *testing.T) {
	for _, c := range []struct {
		name, prefix string
		mismatch     bool
	}{
		{"provider prefix", "openai/", false},
		{"prefix of another model", "openai/x-", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp := loadedExample(t, "paired-review-green")
			want := cp.Manifest.Identities.ReturnedModel
			var session, got string
			cp.EditReceipts(func(rs []tables.Line[tables.Receipt]) []tables.Line[tables.Receipt] {
				for i := range rs {
					if rs[i].Record.Status == tables.StatusResponse {
						rs[i].Record.Identity.ReturnedModel = c.prefix + want
						session, got = rs[i].Record.SessionID, rs[i].Record.Identity.ReturnedModel
						break
					}
				}
				return rs
			})
			var found []rules.Finding
			for _, f := range validated(cp).Findings {
				if f.Code == rules.CodeIdentityMismatch {
					found = append(found, f)
				}
			}
			if !c.mismatch {
				if len(found) > 0 {
					t.Fatalf("%q is %q under the rule, but: %v", got, want, found)
				}
				return
			}
			if len(found) != 1 || found[0].Session != session {
				t.Fatalf("want one identity_mismatch for %s, got %v", session, found)
			}
			for _, s := range []string{`"` + got + `"`, `"` + want + `"`} {
				if !strings.Contains(found[0].Message, s) {
					t.Errorf("message %q does not show %s", found[0].Message, s)
				}
			}
		})
	}
}
