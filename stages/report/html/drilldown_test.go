package html

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// TestTaskDetailsOrder: the drill-down lists tasks in order of first
// appearance, each with its runs in table order, whether each task's runs
// follow each other (the score stage's order, read in one pass) or not
// (one pass per task). The expected groups are built here by hand.
func TestTaskDetailsOrder(t *testing.T) {
	run := func(task string, rep int64, arm string) tables.Run {
		return tables.Run{TaskID: task, Repetition: rep, Arm: arm, Classification: tables.ClassValid}
	}
	grouped := []tables.Run{run("T2", 1, "A"), run("T2", 1, "B"), run("T1", 1, "A"), run("T1", 2, "B"), run("T3", 1, "A")}
	interleaved := []tables.Run{run("T2", 1, "A"), run("T1", 1, "A"), run("T2", 1, "B"), run("T3", 1, "A"), run("T1", 2, "B")}
	for _, tc := range []struct {
		name string
		runs []tables.Run
		want []string // task: rep/arm of each run
	}{
		{"grouped", grouped, []string{"T2: 1/A 1/B", "T1: 1/A 2/B", "T3: 1/A"}},
		{"interleaved", interleaved, []string{"T2: 1/A 1/B", "T1: 1/A 2/B", "T3: 1/A"}},
		{"empty", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for d := range taskDetails(spool.Of(tc.runs...), nil, "USD") {
				line := d.Task + ":"
				for _, row := range d.Runs.Rows {
					line += fmt.Sprintf(" %s/%s", row[0].Text, row[1].Text)
				}
				got = append(got, line)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("details %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTaskDetailsCollapse: a session's repeated identical findings (same
// code, severity and message at two positions) are one line of the
// drill-down with their count and positions; a different one keeps its own.
func TestTaskDetailsCollapse(t *testing.T) {
	runs := []tables.Run{{TaskID: "T1", Repetition: 1, Arm: "A", DraftSessionID: "D", ReviewSessionID: "R", Classification: tables.ClassValid}}
	same := rules.Finding{Code: rules.CodeJSONSyntax, Severity: rules.Warn, File: "answers/D.json", Session: "D", Message: "invalid JSON"}
	other := same
	other.File = "answers/D2.json"
	third := same
	third.Message, third.Session = "another", "R"
	var got string
	for d := range taskDetails(spool.Of(runs...), []rules.Finding{same, other, third}, "USD") {
		got = d.Runs.Rows[0][len(d.Runs.Rows[0])-1].Text
	}
	want := "warn: answers/D.json, answers/D2.json: json_syntax: invalid JSON (2 findings); warn: answers/D.json: json_syntax: another"
	if got != want {
		t.Errorf("findings cell %q, want %q", got, want)
	}
}
