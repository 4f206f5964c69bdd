package load

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The people of a campaign: the truth checker and the second source
// reviewer who sign off each oracle, and the raters of adjudications.jsonl.
// A placeholder ("TBD", "unknown", ...) is refused like a missing identity,
// and an oracle needs two different people: the second source reviewer
// checks the checker's scope and oracle.

// checkOracle checks the sign-off of one truth document at at.
func checkOracle(o tables.Oracle, at position) rules.Findings {
	var out rules.Findings
	for _, p := range []struct{ ptr, who string }{{"/oracle/checker", o.Checker}, {"/oracle/second_reviewer", o.SecondReviewer}} {
		if tables.PlaceholderIdentity(p.who) {
			out = append(out, at.finding(rules.CodeIdentityMissing, p.ptr,
				fmt.Sprintf("identity %s is the placeholder %q, which is refused like a missing one", lastToken(p.ptr), Clip(p.who))))
		}
	}
	if len(out) == 0 && strings.EqualFold(o.Checker, o.SecondReviewer) {
		out = append(out, at.finding(rules.CodeOracleNotIndependent, "/oracle/second_reviewer",
			fmt.Sprintf("the second source reviewer %q is the truth checker; the oracle needs a second person", Clip(o.SecondReviewer))))
	}
	return out
}

// checkRater refuses a placeholder rater identity.
func checkRater(l *tables.Line[tables.Adjudication], file string) rules.Findings {
	if !tables.PlaceholderIdentity(l.Record.Rater) {
		return nil
	}
	return rules.Findings{position{file: file, line: l.Line}.finding(rules.CodeIdentityMissing, "/rater",
		fmt.Sprintf("identity rater is the placeholder %q, which is refused like a missing one", Clip(l.Record.Rater)))}
}
