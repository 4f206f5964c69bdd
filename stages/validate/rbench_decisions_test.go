package validate

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestPriorDecisions: which earlier decisions an input holds, by hand.
// Review E (case C1, baseline) ended at 10:00 with three findings:
//   - F1 "The grader reads report.txt; the solver can write that file
//     itself." — its whole text (11 words), its sentence (the same) and
//     its clauses "the grader reads report txt" (5 words) and "the solver
//     can write that file itself" (7 words) are decisions;
//   - F2 "Wrong reward." — 2 words, too short to be searched, and its
//     location instruction.md:1-1 is 4 words ("instruction md 1 1");
//   - F3 "Keep the public signature unchanged." — E's own input says it,
//     so it is no decision of E's; F3's location tests/test.sh:5-7
//     ("tests test sh 5 7") is.
//
// F1's location tests/test.sh:2-2 is a decision as well. A session that
// started at 10:05 (after E ended) and is shown any of them has seen E's
// decision; one that started at 09:59 (before E ended) has not; a text its
// own task files contain is no leak.
func TestPriorDecisions(t *testing.T) {
	ended := time.Date(2026, 10, 17, 10, 0, 0, 0, time.UTC)
	task := []byte("# Task\nThe grader reads REPORT.TXT, always.\n")
	c := &tables.Campaign{
		Manifest: tables.Manifest{Design: tables.Design{Arms: []tables.Arm{{ID: "baseline", Prompts: []string{"p"}}, {ID: "candidate", Prompts: []string{"p"}}}}},
		Sources:  map[string][]byte{"s1": task},
		Prompts:  map[string][]byte{"p": []byte("Rate each criterion pass, fail or unknown.")},
	}
	b := &bench{c: c, b: &tables.Benchmark{Files: map[string][]tables.InventoryFile{"C2": {{Path: "instruction.md", SHA256: "s1"}}}}}
	earlier := &tables.Receipt{SessionID: "E", TaskID: "C1", Arm: strp("baseline"), EndedAt: &ended}
	rev := &tables.Review{Findings: []tables.ReviewFinding{
		{ID: "F1", Problem: "The grader reads report.txt; the solver can write that file itself.", Location: tables.Location{Path: "tests/test.sh", StartLine: 2, EndLine: 2}},
		{ID: "F2", Problem: "Wrong reward.", Location: tables.Location{Path: "instruction.md", StartLine: 1, EndLine: 1}},
		{ID: "F3", Problem: "Keep the public signature unchanged.", Location: tables.Location{Path: "tests/test.sh", StartLine: 5, EndLine: 7}},
	}}
	own := normalized(nil, []byte("Task files… Keep the public signature UNCHANGED; other modules import it."))
	b.noteDecisions(&tables.ReviewAttempt{Row: tables.ReviewRow{CaseID: "C1", Profile: "baseline"}}, earlier, rev, own)
	// F1: whole = sentence, two clauses, location; F2: location; F3: location.
	if n := len(b.decided.list); n != 6 {
		t.Fatalf("%d decision texts, want 6", n)
	}

	after, before := ended.Add(5*time.Minute), ended.Add(-time.Minute)
	for _, tc := range []struct {
		name    string
		input   string
		started time.Time
		caseID  string
		want    []string // the texts found, one hit per earlier session
		count   int
	}{
		{"a clause, reworded", "Hint: THE SOLVER can write that-file itself!", after, "C3", []string{"the solver can write that file itself"}, 1},
		{"the whole problem and so its clauses", "the grader reads report.txt, the solver can write that file itself", after, "C3",
			[]string{"the grader reads report txt the solver can write that file itself"}, 3},
		{"before the review ended", "the solver can write that file itself", before, "C3", nil, 0},
		{"a location", "see tests/test.sh:5-7 and instruction.md 1 1", after, "C3", []string{"tests test sh 5 7"}, 2},
		{"too short, or the review's own input", "Wrong reward. Keep the public signature unchanged.", after, "C3", nil, 0},
		{"not whole words", "the solver can write that file itselfish", after, "C3", nil, 0},
		{"in the session's own task files", "the grader reads report txt", after, "C2", nil, 0},
		{"the same text, another case's task files", "the grader reads report txt", after, "C3", []string{"the grader reads report txt"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &tables.Receipt{SessionID: "L", TaskID: tc.caseID, Arm: strp("candidate"), StartedAt: tc.started}
			hits := b.priorDecisions(normalized(nil, []byte(tc.input)), r)
			var got []string
			count := 0
			for _, h := range hits {
				got = append(got, h.text)
				count += h.count
				if s := b.decided.refs[h.ref].session; s != "E" {
					t.Errorf("hit names session %s, want E", s)
				}
			}
			if len(got) != len(tc.want) || count != tc.count {
				t.Fatalf("found %q (%d texts), want %q (%d)", got, count, tc.want, tc.count)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("found %q, want %q", got[i], tc.want[i])
				}
			}
		})
	}
}

func strp(s string) *string { return &s }

// TestPriorDecisionsOutOfOrder: receipts need not be in time order. With
// the earlier baseline review's receipt moved to the end of the file, its
// decision is found in the later candidate input all the same, once
// (after every receipt is read), on the candidate receipt's line.
func TestPriorDecisionsOutOfOrder(t *testing.T) {
	for _, moved := range []bool{false, true} {
		files, err := rbdefects.Example()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range rbdefects.All() {
			if d.Name == "an earlier baseline decision inside a reviewer input" {
				if err := d.Apply(files); err != nil {
					t.Fatal(err)
				}
			}
		}
		lines := bytes.SplitAfter(files["receipts.jsonl"], []byte("\n"))
		want := int64(0)
		for i, l := range lines {
			if bytes.Contains(l, []byte(`"session_id":"F04-v1-candidate-r2"`)) {
				want = int64(i + 1)
			}
		}
		if moved {
			for i, l := range lines {
				if bytes.Contains(l, []byte(`"session_id":"F04-v1-baseline-r2"`)) {
					lines = append(slices.Delete(lines, i, i+1), l)
					want--
					break
				}
			}
		}
		files["receipts.jsonl"] = bytes.Join(lines, nil)
		var got []string
		for _, f := range benchOn(t, files).Problems {
			if f.Code == rules.CodeRbenchPriorDecisionInInput {
				got = append(got, fmt.Sprintf("%d %s", f.Line, f.Session))
			}
		}
		if w := fmt.Sprintf("%d F04-v1-candidate-r2", want); !slices.Equal(got, []string{w}) {
			t.Errorf("moved %v: prior-decision findings %q, want [%s]", moved, got, w)
		}
	}
}
