package account

import (
	"strconv"

	"github.com/evalgate/evalgate/tables"
)

// Headroom is one campaign ceiling against the ledger's use (rule A7's
// "remaining allowance"): what the ceiling allows, what accounted + held +
// reserved charges use, and what is left. Values are exact decimal text:
// token and session counts as integers, money as tables.Money text.
type Headroom struct {
	Ceiling   string  `json:"ceiling"`   // the manifest ceiling's JSON pointer, e.g. /ceilings/campaign/reference_cost
	Limit     *string `json:"limit"`     // null when the ceiling is invalid
	Used      *string `json:"used"`      // null when some ledger charge is unknown
	Remaining *string `json:"remaining"` // limit − used; negative when exceeded; null when either is unknown
}

// Remaining lists the campaign ceilings admission checks (A6/A7), in a
// fixed order, against used (Summarize(ledger).Used). Wall time is not
// listed: it cannot be bounded before dispatch.
func Remaining(c *tables.Campaign, used Allowance) []Headroom {
	lim, _ := manifestLimits(&c.Manifest)
	const base = "/ceilings/campaign/"
	return []Headroom{
		countHeadroom(base+"total_sessions", lim.total, used.Sessions),
		countHeadroom(base+"input_tokens", lim.campaignInput, used.InputTokens),
		countHeadroom(base+"output_tokens", lim.campaignOutput, used.OutputTokens),
		moneyHeadroom(base+"reference_cost", lim.referenceCost, used.ReferenceCost),
		moneyHeadroom(base+"actual_cost", lim.actualCost, used.ActualCost),
	}
}

func countHeadroom(ptr string, limit *int64, used int64) Headroom {
	h := Headroom{Ceiling: ptr, Used: textp(strconv.FormatInt(used, 10))}
	if limit != nil {
		h.Limit = textp(strconv.FormatInt(*limit, 10))
		// Both are non-negative, so the difference cannot overflow.
		h.Remaining = textp(strconv.FormatInt(*limit-used, 10))
	}
	return h
}

func moneyHeadroom(ptr string, limit, used *tables.Money) Headroom {
	h := Headroom{Ceiling: ptr}
	if limit != nil {
		h.Limit = textp(limit.String())
	}
	if used != nil {
		h.Used = textp(used.String())
	}
	if limit != nil && used != nil {
		h.Remaining = textp((*limit - *used).String())
	}
	return h
}

func textp(s string) *string { return &s }
