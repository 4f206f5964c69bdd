package tables

import (
	"bytes"

	"github.com/go-json-experiment/json"
)

// EncodeSchedule is the schedule file of a v2 manifest listing slots: one
// ScheduleLine per slot, in order, each ending in "\n". Its sha256 is the
// manifest's design.schedule_file.sha256.
func EncodeSchedule(slots []Slot) ([]byte, error) {
	var b bytes.Buffer
	for _, s := range slots {
		line, err := json.Marshal(ScheduleLine{Format: FormatSchedule, Slot: s})
		if err != nil {
			return nil, err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}
