package scorecard

import (
	"testing"

	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/stages/report/internal/fixture"
	"github.com/evalgate/evalgate/tables"
)

func fixtureCampaign() *tables.Campaign { return fixture.Campaign() }

func fixtureSet(t testing.TB) *tables.Set { return fixture.Set(t) }

// figuresOf runs the aggregate stage on the runs and tokens of s, as the
// pipeline does, for the figures the scorecard formats.
func figuresOf(c *tables.Campaign, s *tables.Set) tables.Figures {
	if c == nil {
		return tables.Figures{}
	}
	return aggregate.Run(c, tables.Validated{Sessions: s.Sessions}, tables.Accounted{Tokens: s.Tokens}, tables.Scored{Runs: s.Runs}).Figures
}
