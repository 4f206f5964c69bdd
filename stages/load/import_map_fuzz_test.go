package load

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// typedFindings fails when a finding lacks its code, message or severity.
func typedFindings(t *testing.T, fs rules.Findings) {
	t.Helper()
	for _, x := range fs {
		if x.Code == "" || x.Message == "" || (x.Severity != rules.Reject && x.Severity != rules.Warn) {
			t.Fatalf("untyped finding %+v", x)
		}
	}
}

// FuzzImportMap: any bytes give a mapping or rejecting findings, never a
// panic; an accepted mapping is for the source asked and maps no session
// twice.
func FuzzImportMap(f *testing.F) {
	f.Add([]byte(validMap))
	f.Add([]byte(strings.Replace(validMap, `"billing":"reference"`, `"billing":"actual"`, 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, fs := ImportMap("fuzz", tables.SourceCodex, data)
		typedFindings(t, fs)
		if m == nil {
			return
		}
		seen := map[string]bool{}
		for _, s := range m.Sessions {
			if seen[s.SessionID] {
				t.Fatalf("session %q mapped twice", s.SessionID)
			}
			seen[s.SessionID] = true
		}
		if m.Source != tables.SourceCodex || m.Billing == tables.BillingActual || m.OutputFile != "" {
			t.Fatalf("accepted %+v", m)
		}
	})
}
