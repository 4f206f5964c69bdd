package validate

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"

	"github.com/evalgate/evalgate/tables"
)

func TestRunRows(t *testing.T) {
	f := newFixture(t)
	b := f.find("T1-r1-B")
	b.MonotonicStartNS, b.MonotonicEndNS = ptrInt(1_000), ptrInt(61_000_001_000) // 61 s monotonic vs 90 s UTC
	b.ValidationMS = 250
	s := f.run()
	if len(s.Findings) > 0 {
		t.Fatalf("passing fixture rejected: %v", s.Findings)
	}
	if got := s.Sessions.Len(); got != 3 {
		t.Fatalf("%d session rows, want 3", got)
	}
	d, rb := sessionRow(s, "T1-r1-D"), sessionRow(s, "T1-r1-B")
	t.Run("draft row", func(t *testing.T) {
		want90 := int64(90 * time.Second)
		if d.Repository != "repo1" || d.Family != "fam1" || d.Role != "draft" || d.Arm != nil || !d.IdentityMatches {
			t.Errorf("row %+v", d)
		}
		if d.DurationNS == nil || *d.DurationNS != want90 || d.ReconciliationValid != nil || d.FinalValid == nil || !*d.FinalValid {
			t.Errorf("row %+v", d)
		}
	})
	t.Run("reconciliation row", func(t *testing.T) {
		if rb.DurationNS == nil || *rb.DurationNS != 61_000_000_000 || rb.ValidationNS != 250_000_000 {
			t.Errorf("duration/validation %+v", rb)
		}
		if rb.ReconciliationValid == nil || !*rb.ReconciliationValid || rb.AnswerValid == nil || !*rb.AnswerValid {
			t.Errorf("validity %+v", rb)
		}
	})
	t.Run("citations", func(t *testing.T) {
		// The draft and review base answers cite E1 and E2; so does the
		// reconciliation answer: 3 sessions x 2 citations.
		if s.Citations.Len() != 6 {
			t.Fatalf("%d citation rows, want 6", s.Citations.Len())
		}
		c := s.Citations.Collect()[0]
		if c.SessionID != "T1-r1-A" || c.Index != 0 || !slices.Equal(c.Supports, []string{"C1", "A1", "V1"}) || !c.Valid {
			t.Errorf("first citation row %+v", c)
		}
	})
	t.Run("dispositions", func(t *testing.T) {
		var ids []string
		for r := range s.Dispositions.All() {
			ids = append(ids, r.EvidenceID+":"+r.Status)
			if !r.Valid || r.SessionID != "T1-r1-B" {
				t.Errorf("row %+v", r)
			}
		}
		if want := []string{"E1:used", "E2:used", "E3:excluded", "E4:unresolved"}; !slices.Equal(ids, want) {
			t.Errorf("dispositions %v, want %v", ids, want)
		}
	})
}

func ptrInt(n int64) *int64 { return &n }

// TestRunDuplicatedReceiptCitations: validate keeps a row per receipt, so
// a review whose receipt appears twice has its citation rows twice; the
// count the score stage reads is still its answer's two citations, so its
// two rated citations are not reported as missing judgments.
func TestRunDuplicatedReceiptCitations(t *testing.T) {
	f := newFixture(t)
	f.receipt("T1-r1-A", tables.RoleReview, "A", 1)
	s := f.run()
	rows := 0
	for c := range s.Citations.All() {
		if c.SessionID == "T1-r1-A" {
			rows++
		}
	}
	if rows != 4 {
		t.Errorf("%d citation rows of the duplicated review, want 2 per receipt", rows)
	}
	i := 0
	for r := range s.Sessions.All() {
		if r.SessionID == "T1-r1-A" {
			if n := s.CitationCounts[i]; n != 2 {
				t.Errorf("row %d: citation count %d, want the answer's 2", i, n)
			}
		}
		i++
	}
	if len(s.CitationCounts) != i {
		t.Errorf("%d citation counts beside %d session rows", len(s.CitationCounts), i)
	}
}

func TestRunMalformedReconciliation(t *testing.T) {
	f := newFixture(t)
	f.answers["T1-r1-B"] = strings.Replace(f.answers["T1-r1-B"], `"obligations":[`, `"extra":1,"obligations":[`, 1)
	s := f.run()
	r := sessionRow(s, "T1-r1-B")
	if r.FinalValid == nil || !*r.FinalValid || r.ReconciliationValid == nil || *r.ReconciliationValid {
		t.Errorf("final_valid %v reconciliation_valid %v, want true false", r.FinalValid, r.ReconciliationValid)
	}
	if s.Citations.Len() != 6 {
		t.Errorf("%d citation rows, want 6: the final is still checked", s.Citations.Len())
	}
	for _, fd := range s.Findings {
		if fd.Severity != rules.Warn {
			t.Errorf("model fault recorded as campaign rejection: %v", fd)
		}
	}
}

func TestRunMissingDispositionRow(t *testing.T) {
	f := newFixture(t)
	f.answers["T1-r1-B"] = strings.Replace(f.answers["T1-r1-B"], `{"evidence_id":"E1","status":"used","final_ids":["C1"]},`, ``, 1)
	s := f.run()
	if d := s.Dispositions.Collect(); len(d) != 4 || d[0].EvidenceID != "E1" || d[0].Status != tables.StatusMissing || d[0].Valid {
		t.Errorf("dispositions %+v", d)
	}
}

// TestRunDeterministic runs the same campaign with receipts in two orders.
func TestRunDeterministic(t *testing.T) {
	f1, f2 := newFixture(t), newFixture(t)
	replacement(f1)
	replacement(f2)
	slices.Reverse(f2.receipts)
	s1, s2 := f1.run(), f2.run()
	for i := range s2.Findings { // line numbers differ by construction
		s1.Findings[i].Line, s2.Findings[i].Line = 0, 0
	}
	if !reflect.DeepEqual(s1.Citations.Collect(), s2.Citations.Collect()) || !reflect.DeepEqual(s1.Dispositions.Collect(), s2.Dispositions.Collect()) {
		t.Errorf("citation or disposition rows differ with receipt order")
	}
	if r1, r2 := s1.Sessions.Collect(), s2.Sessions.Collect(); !reflect.DeepEqual(r1, r2) {
		t.Errorf("session rows differ with receipt order:\n%+v\n%+v", r1, r2)
	}
	s1.Sessions, s2.Sessions, s1.Citations, s2.Citations, s1.Dispositions, s2.Dispositions = nil, nil, nil, nil, nil, nil // compared in order above
	if !reflect.DeepEqual(s1, s2) {
		t.Errorf("outputs differ with receipt order:\n%+v\n%+v", s1, s2)
	}
}

// TestEveryCodeCovered asserts that every validate code is produced by a
// unit case here or named by a file in stages/testdata/answers.
func TestEveryCodeCovered(t *testing.T) {
	covered := map[rules.Code]bool{}
	for _, c := range answerCases {
		for _, code := range c.want {
			covered[code] = true
		}
	}
	for _, c := range runCases {
		for _, code := range c.want {
			covered[code] = true
		}
	}
	for _, c := range promptCases {
		for _, code := range c.want {
			covered[code] = true
		}
	}
	for _, c := range slices.Concat(systemCases, custodySystemCases) {
		for _, code := range c.want {
			covered[code] = true
		}
	}
	for _, c := range custodyCases {
		for _, code := range c.want {
			covered[code] = true
		}
	}
	for _, c := range policyCases() {
		for _, code := range c.want {
			covered[code] = true
		}
	}
	covered[rules.CodePromptNamedInstruction] = true // TestNamedInstructions
	for _, d := range rbdefects.All() {
		if d.Stage == "validate" {
			for _, code := range d.Want {
				covered[code] = true
			}
		}
	}
	covered[rules.CodeRbenchReviewMalformed] = true // the example's malformed review: TestBenchmarkGrounding
	covered[rules.CodeProviderUnexpected] = true    // a provider on a paired review: TestProviderFindingsOtherKinds
	for _, c := range []rules.Code{rules.CodeDevelopmentRoundsInvalid, rules.CodeDevelopmentRevisionRepeated, rules.CodeDevelopmentRevisionScope,
		rules.CodeDevelopmentRevisionOrder, rules.CodeEvaluationBeforeFreeze} {
		covered[c] = true // TestDevelopmentRounds, TestDevelopmentRevisionScope
	}
	for _, c := range []rules.Code{rules.CodeDesignArmsMismatch, rules.CodeEvaluationTasksTooFew, rules.CodeDesignTaskCount, rules.CodeDesignRepetitions,
		rules.CodeDesignRepositories, rules.CodeDesignCategories, rules.CodeDesignOrderUnbalanced, rules.CodeDesignOrderOneSided} {
		covered[c] = true // TestPairedDesign
	}
	entries, err := os.ReadDir("../testdata/answers")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if parts := strings.Split(e.Name(), "__"); len(parts) == 3 && parts[0] != "valid" {
			covered[rules.Code(parts[1])] = true
		}
	}
	for _, d := range rules.AllCodes() {
		if d.Stage == "validate" && !covered[d.Code] {
			t.Errorf("code %s has no test case", d.Code)
		}
	}
}
