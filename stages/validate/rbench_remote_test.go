package validate

import (
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// TestStatesAmount: a bill supports an actual charge when it states an
// amount equal to it as a whole number token, by hand.
func TestStatesAmount(t *testing.T) {
	for _, tc := range []struct {
		text, charge string
		want         bool
	}{
		{"provider,sandbox,charge_usd\nmodal,sb-1,0.3312\n", "0.3312", true},
		{"total: $0.331200.", "0.3312", true},     // trailing zeros and a sentence's full stop
		{`{"amount": 1.2}`, "1.20", true},         // JSON
		{"charge 0.33", "0.3312", false},          // rounded: not the same amount
		{"charge 10.3312", "0.3312", false},       // part of a longer number
		{"id sb0.3312", "0.3312", false},          // glued to a word
		{"version 0.3312.1", "0.3312", false},     // a dotted version, not an amount
		{"cpu_hours 2, charge 0.6624", "2", true}, // any stated amount counts
		{"no amount here", "0", false},
	} {
		m, err := tables.ParseMoney(tc.charge)
		if err != nil {
			t.Fatal(err)
		}
		if got := statesAmount([]byte(tc.text), m); got != tc.want {
			t.Errorf("statesAmount(%q, %s) = %v, want %v", tc.text, tc.charge, got, tc.want)
		}
	}
}
