package report

import (
	"testing"

	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/stages/report/internal/fixture"
	"github.com/evalgate/evalgate/tables"
)

func ptr[T any](v T) *T { return &v }

func fixtureCampaign() *tables.Campaign { return fixture.Campaign() }

func fixtureSet(t testing.TB) *tables.Set { return fixture.Set(t) }

func run(t testing.TB, task string, rep int64, arm string, rNum, rDen, uNum, uDen int64, cost, review string, ns, reviewNS int64) tables.Run {
	return fixture.Run(t, task, rep, arm, rNum, rDen, uNum, uDen, cost, review, ns, reviewNS)
}

// figuresOf runs the aggregate stage on the runs and tokens of s, as the
// pipeline does, for the figures the reports format. A nil campaign (not
// loaded) has none.
func figuresOf(c *tables.Campaign, s *tables.Set) tables.Figures {
	if c == nil || s == nil {
		return tables.Figures{}
	}
	return aggregate.Run(c, tables.Validated{Sessions: s.Sessions}, tables.Accounted{Tokens: s.Tokens}, tables.Scored{Runs: s.Runs}).Figures
}
