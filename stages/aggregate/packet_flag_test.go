package aggregate

import (
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// A packet intentionally constructed to be complete is recorded on both
// arms' task rows of that task, and on no other task: a fact the reports
// read, so no retrieval-quality claim rests on it.
func TestPacketConstructedComplete(t *testing.T) {
	f := newFixture(t, 8, 1)
	for _, spec := range f.c.Manifest.Design.Tasks {
		f.c.Tasks = append(f.c.Tasks, tables.LoadedTask{Spec: spec, Packet: tables.Packet{TaskID: spec.ID, ConstructedComplete: spec.ID == "T2"}})
	}
	f.aggregate()
	for _, task := range []string{"T1", "T2", "T3"} {
		for _, arm := range []string{"A", "B"} {
			if got, want := f.taskRow(task, arm).PacketConstructedComplete, task == "T2"; got != want {
				t.Errorf("%s %s packet_constructed_complete = %v, want %v", task, arm, got, want)
			}
		}
	}
	f.wantDecision(tables.DecisionAdvance, "")
}
