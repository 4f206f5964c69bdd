package load

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// A v1 manifest lists the design's schedule in the manifest; a v2
// manifest names a JSONL file of one slot per line and its sha256
// (design.schedule_file), so the manifest stays small at any number of
// sessions. Both load into Design.Schedule; scheduleAt says where each
// slot was written, for findings.

// manifestSchema names the published schema a manifest is checked
// against: manifest-v2 when its top-level format member says so, manifest
// (v1, which reports any other format) otherwise. Only the top-level
// members before format are tokenized.
func manifestSchema(data []byte) string {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return "manifest"
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			break
		}
		if name.String() != "format" {
			if dec.SkipValue() != nil {
				break
			}
			continue
		}
		if v, err := dec.ReadToken(); err == nil && v.Kind() == '"' && v.String() == tables.FormatManifestV2 {
			return "manifest-v2"
		}
		break
	}
	return "manifest"
}

// scheduleAt locates the slots of a design's schedule: in the manifest
// (v1) or in the lines of its schedule file (v2).
type scheduleAt struct {
	manifest position
	file     string  // v2: the schedule file; "" for v1
	lines    []int64 // v2: the line of each slot
}

// slot is where slot i was written and the pointer prefix of its members.
func (s scheduleAt) slot(i int) (position, string) {
	if s.file == "" {
		return s.manifest, indexPointer("/design/schedule", i)
	}
	return position{file: s.file, line: s.lines[i]}, ""
}

// whole is where the schedule as a whole was written.
func (s scheduleAt) whole() (position, string) {
	if s.file == "" {
		return s.manifest, "/design/schedule"
	}
	return position{file: s.file}, ""
}

// name is how a message names slot i.
func (s scheduleAt) name(i int) string {
	if s.file == "" {
		return indexPointer("/design/schedule", i)
	}
	return fmt.Sprintf("%s line %d", s.file, s.lines[i])
}

// loadSchedule fills a v2 design's Schedule from the file it names,
// checking the file's sha256, and says where each slot was written. It
// reports false when a slot may be lost (the file could not be read to its
// end, or a line did not decode): the slots then cannot be checked for
// completeness, and the finding that lost it is the one reported. Task IDs and orders are
// interned, so a million slots keep a few distinct strings and slices.
func (l *loader) loadSchedule(d *tables.Design, at position) (scheduleAt, bool) {
	where := scheduleAt{manifest: at}
	ref := d.ScheduleFile
	if ref == nil {
		return where, true
	}
	where.file = ref.Path
	if pathProblem(ref.Path) != "" || !isLowerHex(ref.SHA256, 64) {
		return where, false // already reported by the schema walk
	}
	lines, sum, complete := readJSONLHashed(l, ref.Path, "schedule", func(*tables.ScheduleLine) string { return "" })
	if sum != "" && sum != ref.SHA256 {
		l.add(position{file: ref.Path}.finding(rules.CodeHashMismatch, "",
			fmt.Sprintf("file sha256 is %s but manifest.json design.schedule_file says %s", sum, Clip(ref.SHA256))))
	}
	tasks := make(map[string]string, len(d.Tasks))
	for _, t := range d.Tasks {
		tasks[t.ID] = t.ID
	}
	orders := map[string][]string{}
	d.Schedule = make([]tables.Slot, len(lines))
	where.lines = make([]int64, len(lines))
	for i, line := range lines {
		s := line.Record.Slot
		if id, ok := tasks[s.Task]; ok {
			s.Task = id
		}
		key := strings.Join(s.Order, "\x00")
		if o, ok := orders[key]; ok {
			s.Order = o
		} else {
			orders[key] = s.Order
		}
		d.Schedule[i], where.lines[i] = s, line.Line
	}
	return where, complete
}
