package aggregate

import (
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// constructedComplete's map is c.Task's packet flag for every ID: the
// first task of a repeated ID, false for an ID without a task.
func TestConstructedCompleteIsTaskLookup(t *testing.T) {
	c := &tables.Campaign{}
	for _, x := range []struct {
		id       string
		complete bool
	}{{"T1", true}, {"T2", false}, {"T1", false}, {"T3", false}, {"T3", true}, {"", true}} {
		c.Tasks = append(c.Tasks, tables.LoadedTask{Spec: tables.TaskSpec{ID: x.id}, Packet: tables.Packet{ConstructedComplete: x.complete}})
	}
	m := constructedComplete(c)
	for _, id := range []string{"T1", "T2", "T3", "", "T4"} {
		task := c.Task(id)
		if want := task != nil && task.Packet.ConstructedComplete; m[id] != want {
			t.Fatalf("constructedComplete[%q] = %v, want %v", id, m[id], want)
		}
	}
}
