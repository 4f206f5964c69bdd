package account

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

var propertySeed = flag.Uint64("account.seed", 741, "seed of the random-meter property test")

// randomMeter returns a random usage of a random shape and its reference
// cost on the Sonnet card (3 / 0.30 / 3.75 / 6 / 15 per million), computed
// independently of the decoder with big.Rat from the raw counts.
func randomMeter(rng *rand.Rand) (shape tables.UsageShape, usage string, cost *big.Rat) {
	n := func() int64 { return rng.Int64N(200_000) }
	price := func(tokens int64, perMillion string) *big.Rat {
		p, _ := new(big.Rat).SetString(perMillion)
		return p.Mul(p, big.NewRat(tokens, 1_000_000))
	}
	sum := func(rs ...*big.Rat) *big.Rat {
		t := new(big.Rat)
		for _, r := range rs {
			t.Add(t, r)
		}
		return t
	}
	switch rng.IntN(4) {
	case 0: // normalized
		u, c, w5, w1, o := n(), n(), n(), n(), n()
		r := rng.Int64N(o + 1)
		return tables.ShapeNormalized, normalized(u, c, w5, w1, o, r),
			sum(price(u, "3"), price(c, "0.30"), price(w5, "3.75"), price(w1, "6"), price(o, "15"))
	case 1: // OpenAI Responses: cached inside input, reasoning inside output
		in, o := n(), n()
		c, r := rng.Int64N(in+1), rng.Int64N(o+1)
		return tables.ShapeOpenAIResponses, fmt.Sprintf(
				`{"input_tokens":%d,"input_tokens_details":{"cached_tokens":%d},"output_tokens":%d,"output_tokens_details":{"reasoning_tokens":%d},"total_tokens":%d}`,
				in, c, o, r, in+o),
			sum(price(in-c, "3"), price(c, "0.30"), price(o, "15"))
	case 2: // Anthropic: reads and writes outside input
		in, cr, w5, w1, o := n(), n(), n(), n(), n()
		return tables.ShapeAnthropic, fmt.Sprintf(
				`{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":%d}}`,
				in, w5+w1, cr, o, w5, w1),
			sum(price(in, "3"), price(cr, "0.30"), price(w5, "3.75"), price(w1, "6"), price(o, "15"))
	default: // Gemini: cached inside prompt, thoughts outside candidates
		p, cand, th := n(), n(), n()
		c := rng.Int64N(p + 1)
		return tables.ShapeGemini, fmt.Sprintf(
				`{"promptTokenCount":%d,"cachedContentTokenCount":%d,"candidatesTokenCount":%d,"thoughtsTokenCount":%d,"totalTokenCount":%d}`,
				p, c, cand, th, p+cand+th),
			sum(price(p-c, "3"), price(c, "0.30"), price(cand+th, "15"))
	}
}

// The campaign's total reference cost equals the sum of its sessions'
// costs exactly, and each session's cost equals an independent big.Rat
// computation from the raw meter.
func TestPropertyCampaignCostIsSumOfSessions(t *testing.T) {
	seed := *propertySeed
	t.Logf("seed %d (rerun with -account.seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0x65766167))
	for trial := range 50 {
		t.Run(fmt.Sprintf("trial %d", trial), func(t *testing.T) {
			var receipts []tables.Receipt
			want := map[string]*big.Rat{}
			total := new(big.Rat)
			for i := range 1 + rng.IntN(30) {
				shape, usage, cost := randomMeter(rng)
				r := receipt(fmt.Sprintf("S%02d", i), shape, usage)
				r.Meter.RateCard = "sonnet-4.6"
				receipts = append(receipts, r)
				want[r.SessionID] = cost
				total.Add(total, cost)
			}
			s := runOn(testCampaign(receipts...))
			var sum tables.Money
			for _, tok := range s.Tokens.Collect() {
				if tok.ReferenceCost == nil {
					t.Fatalf("session %s unpriced: %+v", tok.SessionID, tok)
				}
				if got := new(big.Rat).SetFrac64(int64(*tok.ReferenceCost), 1_000_000_000_000); got.Cmp(want[tok.SessionID]) != 0 {
					t.Errorf("session %s cost %s, want %s", tok.SessionID, tok.ReferenceCost, want[tok.SessionID].FloatString(12))
				}
				sum += *tok.ReferenceCost
			}
			used := Summarize(s.Ledger).Accounted.ReferenceCost
			if used == nil || *used != sum {
				t.Errorf("campaign reference cost %v != Σ sessions %s", used, sum)
			}
			if got := new(big.Rat).SetFrac64(int64(sum), 1_000_000_000_000); got.Cmp(total) != 0 {
				t.Errorf("Σ sessions %s, want %s", sum, total.FloatString(12))
			}
		})
	}
}
