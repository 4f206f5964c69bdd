package stages

import (
	"testing"

	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/tables"
)

// TestAccountRequest checks the field-by-field copy of a decoded request
// into the account stage's request: every value distinct, so a swapped
// field shows.
func TestAccountRequest(t *testing.T) {
	in := &tables.AdmitRequest{Format: tables.FormatRequest, RequestID: "q", SessionID: "s", RateCard: "c",
		MeterShape: "m", ReservationID: "r", MaxInputTokens: 7, MaxOutputTokens: 11}
	want := account.Request{RequestID: "q", SessionID: "s", RateCard: "c", MaxInputTokens: 7, MaxOutputTokens: 11,
		ReservationID: "r", MeterShape: "m"}
	if got := accountRequest(in); got != want {
		t.Fatalf("accountRequest = %+v, want %+v", got, want)
	}
}
