package load

import (
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// TestScheduleV2 loads the fixture with its schedule in schedule.jsonl (a
// v2 manifest) and breaks each rule of the schedule file once; each break
// is one finding, positioned in the file and line that holds it.
func TestScheduleV2(t *testing.T) {
	const M, S = "manifest.json", "schedule.jsonl"
	t.Run("valid", func(t *testing.T) {
		f := newFixture()
		f.v2 = true
		c, findings := Campaign(f.build(t), "fixture")
		if len(findings) != 0 {
			t.Fatalf("want no findings; got %v", findings)
		}
		want := []tables.Slot{{Task: "T1", Repetition: 1, Order: []string{"A", "B"}}, {Task: "T1", Repetition: 2, Order: []string{"B", "A"}}}
		if got := c.Manifest.Design.Schedule; len(got) != 2 || got[0].Task != "T1" || got[1].Repetition != 2 || got[1].Order[0] != "B" {
			t.Fatalf("schedule %+v, want %+v", got, want)
		}
	})
	runRejects(t, true, []rejectCase{{"schedule altered after hashing", func(f *fixture) {
		f.files[S] = `{"format":"evalgate.schedule/v1","task":"T1","repetition":1,"order":["A","B"]}` + "\n" +
			`{"format":"evalgate.schedule/v1","task":"T1","repetition":2,"order":["A","B"]}` + "\n"
	}, S, 0, rules.CodeHashMismatch, ""},
		{"schedule missing", func(f *fixture) { f.files[S] = "\x00delete" }, S, 0, rules.CodeFileMissing, ""},
		{"slot of an unknown task", func(f *fixture) {
			f.manifest.Design.Schedule = append(f.manifest.Design.Schedule, tables.Slot{Task: "T9", Repetition: 1, Order: []string{"A", "B"}})
		}, S, 3, rules.CodeUnknownTask, "/task"},
		{"slot order not a permutation", func(f *fixture) { f.raw[S] = []edit{set("/order", `["B","B"]`)} }, S, 1, rules.CodeOrderNotPermutation, "/order"},
		{"slot repetition out of range", func(f *fixture) {
			f.manifest.Design.Schedule = append(f.manifest.Design.Schedule, tables.Slot{Task: "T1", Repetition: 3, Order: []string{"A", "B"}})
		}, S, 3, rules.CodeSlotOutOfRange, "/repetition"},
		{"slot twice", func(f *fixture) {
			f.manifest.Design.Schedule = append(f.manifest.Design.Schedule, f.manifest.Design.Schedule[0])
		}, S, 3, rules.CodeSlotDuplicate, ""},
		{"slot line format", func(f *fixture) { f.raw[S] = []edit{set("/format", `"evalgate.schedule/v2"`)} }, S, 1, rules.CodeFormatUnsupported, "/format"},
		{"slot unknown member", func(f *fixture) { f.raw[S] = []edit{set("/arm", `"A"`)} }, S, 1, rules.CodeUnknownKey, "/arm"},
		{"slot missing", func(f *fixture) { f.manifest.Design.Schedule = f.manifest.Design.Schedule[:1] }, S, 0, rules.CodeSlotMissing, ""},
		{"v2 manifest listing its schedule", func(f *fixture) { f.raw[M] = []edit{set("/design/schedule", `[]`)} }, M, 0, rules.CodeUnknownKey, "/design/schedule"},
		{"v2 manifest naming no schedule file", func(f *fixture) { f.raw[M] = []edit{del("/design/schedule_file")} }, M, 0, rules.CodeMissingKey, "/design/schedule_file"},
		{"schedule path escaping", func(f *fixture) { f.raw[M] = []edit{set("/design/schedule_file/path", `"../schedule.jsonl"`)} }, M, 0, rules.CodePathInvalid, "/design/schedule_file/path"},
	})
}
