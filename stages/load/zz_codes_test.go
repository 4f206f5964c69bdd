package load

import (
	"flag"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// TestEveryCodeEmitted checks that every load code is produced by at least
// one test case above (it runs last: files run in name order).
func TestEveryCodeEmitted(t *testing.T) {
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
		t.Skip("needs the whole test suite")
	}
	for _, d := range tables.AllCodes() {
		if d.Stage == "load" && !emitted[d.Code] {
			t.Errorf("code %s is never emitted by a test", d.Code)
		}
	}
}
