package account_test

// C20 (rule A4): comparative allocations include the shared draft D in
// every arm's complete workflow; physical campaign billing counts D once.
// So, over the runs and tokens tables the pipeline writes:
//
//	Σ_runs workflow_cost − (arms − 1) × Σ_drafts cost = Σ_tokens cost
//
// where a session's cost is reference_cost + tool_charges. The identity is
// checked on the example campaign and on the same campaign with random
// meters; the physical side is also computed here, from
// the raw receipts, independently of stages/account.

import (
	"flag"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

var c20Seed = flag.Uint64("account.c20seed", 2020, "seed of the C20 random-meter property test")

// exampleReferenceCost is the example's physical billing, computed by a
// separate script from receipts.jsonl: over its 70 dispatched receipts
// (openai.responses meters, no tool calls) Σ (4 × (input − cached) +
// 0.40 × cached + 20 × output) / 10^6 = 638859/125000 = 5.110872.
const exampleReferenceCost = "5.110872"

func TestC20SharedDraftBilledOnce(t *testing.T) {
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	res := stages.Run(fsys, "example", stages.Options{SkipIntervals: true})
	if !res.Loaded {
		t.Fatalf("example not loaded: %v", res.Tables.Rejections)
	}
	want, _ := new(big.Rat).SetString(exampleReferenceCost)
	c20Identity(t, res.Campaign, res.Tables, want)
	t.Run("the ledger bills D once", func(t *testing.T) {
		got := account.Summarize(res.Tables.Ledger).Accounted.ReferenceCost
		if got == nil || got.String() != exampleReferenceCost {
			t.Errorf("ledger accounted reference cost = %v, want %s", got, exampleReferenceCost)
		}
	})
}

// TestC20PropertyRandomMeters replaces every meter of the example with a
// random normalized usage (no tool calls: a paired review has none), runs
// validate → account → score, and checks the identity against a physical
// total computed here from the random values.
func TestC20PropertyRandomMeters(t *testing.T) {
	seed := *c20Seed
	t.Logf("seed %d (rerun with -account.c20seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	fsys, _ := fixtures.Example(fixtures.DefaultExample)
	for trial := range 20 {
		t.Run(fmt.Sprintf("trial %d", trial), func(t *testing.T) {
			c, fs := load.Campaign(fsys, "example")
			if c == nil || fs.Rejected() {
				t.Fatalf("example not loaded: %v", fs)
			}
			physical := randomizeMeters(rng, c)
			s := stages.RunCampaign(c, stages.Options{SkipIntervals: true})
			c20Identity(t, c, s, physical)
		})
	}
}

// randomizeMeters rewrites every dispatched receipt's meter as a random
// normalized usage on the example's Codex card (4 / 0.40 / 20, no cache
// writes), and returns the exact physical billing computed from those values.
func randomizeMeters(rng *rand.Rand, c *tables.Campaign) *big.Rat {
	total := new(big.Rat)
	perMillion := func(tokens, price int64) *big.Rat { return big.NewRat(tokens*price, 1_000_000) }
	rs := c.Receipts.Collect()
	defer func() { c.Receipts = spool.Of(rs...) }()
	for i := range rs {
		r := &rs[i].Record
		if r.Status == tables.StatusNotDispatched || r.Meter == nil {
			continue
		}
		u, cached, out := rng.Int64N(60_000), rng.Int64N(20_000), rng.Int64N(8_000)
		reasoning := rng.Int64N(out + 1)
		r.Meter.Shape = tables.ShapeNormalized
		r.Meter.Usage = jsontext.Value(fmt.Sprintf(
			`{"uncached_input":%d,"cached_input":%d,"cache_write_5m":0,"cache_write_1h":0,"output":%d,"reasoning":%d}`,
			u, cached, out, reasoning))
		total.Add(total, perMillion(u, 4))
		total.Add(total, big.NewRat(cached*4, 10_000_000)) // 0.40 per million
		total.Add(total, perMillion(out, 20))
		// No tool calls: a draft or review of a paired review has no tools,
		// and one that records a call is an invalid execution (rule D5).
	}
	return total
}

// c20Identity fails t with every C20 violation of s.
func c20Identity(t *testing.T, c *tables.Campaign, s *tables.Set, want *big.Rat) {
	t.Helper()
	for _, v := range c20Violations(c, s, want) {
		t.Error(v)
	}
}

// c20Violations checks C20 on the runs and tokens tables of s: each run's
// workflow cost is its draft's plus its review's cost (D allocated to
// every arm), each draft is allocated to every arm, the tokens table bills
// want, and allocations minus (arms − 1) × drafts equal that billing. It
// returns one sentence per violation, none when C20 holds.
func c20Violations(c *tables.Campaign, s *tables.Set, want *big.Rat) []string {
	var out []string
	cost := map[string]*big.Rat{}
	physical := new(big.Rat)
	for _, tok := range s.Tokens.Collect() {
		if tok.ReferenceCost == nil || tok.ToolCharges == nil {
			return append(out, "session "+tok.SessionID+" has an unknown cost")
		}
		v := new(big.Rat).Add(rat(*tok.ReferenceCost), rat(*tok.ToolCharges))
		if cost[tok.SessionID] == nil { // a session's cost is its first row; every row bills
			cost[tok.SessionID] = v
		}
		physical.Add(physical, v)
	}
	if physical.Cmp(want) != 0 {
		out = append(out, fmt.Sprintf("physical billing Σ tokens = %s, want %s computed from the receipts",
			physical.FloatString(12), want.FloatString(12)))
	}
	arms := int64(len(c.Manifest.Design.Arms))
	allocated := new(big.Rat)
	drafts := map[string]int64{}
	for _, r := range s.Runs.Collect() {
		if r.WorkflowCost == nil {
			return append(out, fmt.Sprintf("run %s/r%d/%s has no workflow cost", r.TaskID, r.Repetition, r.Arm))
		}
		allocated.Add(allocated, rat(*r.WorkflowCost))
		drafts[r.DraftSessionID]++
		parts := new(big.Rat).Add(orZero(cost[r.DraftSessionID]), orZero(cost[r.ReviewSessionID]))
		if parts.Cmp(rat(*r.WorkflowCost)) != 0 {
			out = append(out, fmt.Sprintf("run %s/r%d/%s: workflow cost %s, want draft + review = %s",
				r.TaskID, r.Repetition, r.Arm, r.WorkflowCost, parts.FloatString(12)))
		}
	}
	if len(drafts) == 0 {
		return append(out, "no runs")
	}
	draftTotal := new(big.Rat)
	for _, id := range slices.Sorted(maps.Keys(drafts)) {
		if n := drafts[id]; n != arms {
			out = append(out, fmt.Sprintf("draft %s is allocated to %d runs, want every one of %d arms", id, n, arms))
		}
		draftTotal.Add(draftTotal, orZero(cost[id]))
	}
	lhs := new(big.Rat).Sub(allocated, new(big.Rat).Mul(big.NewRat(arms-1, 1), draftTotal))
	if lhs.Cmp(physical) != 0 {
		out = append(out, fmt.Sprintf("Σ workflow cost − (%d − 1) × Σ drafts = %s but physical billing is %s: D is not billed exactly once",
			arms, lhs.FloatString(12), physical.FloatString(12)))
	}
	return out
}

func rat(m tables.Money) *big.Rat { return big.NewRat(int64(m), 1_000_000_000_000) }

// orZero is the cost of a session with no token row (a not_dispatched
// review after a shared-draft failure): nothing was billed.
func orZero(r *big.Rat) *big.Rat {
	if r == nil {
		return new(big.Rat)
	}
	return r
}
