package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

// toFormatV2 converts a v1 campaign's files to format v2: the manifest's
// schedule moves into schedule.jsonl, which the manifest names by path and
// sha256. Every other file is kept as it is.
func toFormatV2(tb testing.TB, files map[string][]byte) map[string][]byte {
	tb.Helper()
	var m tables.Manifest
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		tb.Fatal(err)
	}
	schedule, err := tables.EncodeSchedule(m.Design.Schedule)
	if err != nil {
		tb.Fatal(err)
	}
	sum := sha256.Sum256(schedule)
	m.Format = tables.FormatManifestV2
	m.Design.Schedule = nil
	m.Design.ScheduleFile = &tables.ScheduleFile{Path: "schedule.jsonl", SHA256: hex.EncodeToString(sum[:])}
	manifest, err := json.Marshal(&m, jsontext.WithIndent("  "))
	if err != nil {
		tb.Fatal(err)
	}
	out := make(map[string][]byte, len(files)+1)
	for k, v := range files {
		out[k] = v
	}
	out["manifest.json"], out["schedule.jsonl"] = manifest, schedule
	return out
}

// exampleFilesNamed reads every file of the embedded example name.
func exampleFilesNamed(tb testing.TB, name string) map[string][]byte {
	tb.Helper()
	fsys, ok := fixtures.Example(name)
	if !ok {
		tb.Fatalf("no example %s", name)
	}
	files := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files[path], err = fs.ReadFile(fsys, path)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// TestFormatV1StillLoads: every embedded example is a v1 campaign (their
// golden outputs, unchanged, prove v1 loads as before), and each example
// with a schedule, converted to v2, gives the very tables and figures of
// its v1 form: the schedule's place changes no number.
func TestFormatV1StillLoads(t *testing.T) {
	for _, name := range fixtures.Examples() {
		t.Run(name, func(t *testing.T) {
			files := exampleFilesNamed(t, name)
			var head struct {
				Format string `json:"format"`
			}
			if err := json.Unmarshal(files["manifest.json"], &head); err != nil || head.Format != tables.FormatManifest {
				t.Fatalf("example manifest format %q (%v), want %s", head.Format, err, tables.FormatManifest)
			}
			v1 := Run(mapFS(files), name, Options{})
			v2files := toFormatV2(t, files)
			v2 := Run(mapFS(v2files), name, Options{})
			if v1.Loaded != v2.Loaded || v1.Admissible() != v2.Admissible() {
				t.Fatalf("v1 loaded %v admissible %v; v2 loaded %v admissible %v; v2 rejections %v",
					v1.Loaded, v1.Admissible(), v2.Loaded, v2.Admissible(), v2.Tables.Rejections)
			}
			if !reflect.DeepEqual(tableRows(v1.Tables), tableRows(v2.Tables)) {
				t.Errorf("v2 tables differ from v1's\nv1 rejections %v\nv2 rejections %v", v1.Tables.Rejections, v2.Tables.Rejections)
			}
			if !reflect.DeepEqual(v1.Figures, v2.Figures) {
				t.Error("v2 figures differ from v1's")
			}
			if len(v2files["manifest.json"]) >= len(files["manifest.json"]) && len(v1.Campaign.Manifest.Design.Schedule) > 0 {
				t.Errorf("v2 manifest has %d bytes, v1 %d: the schedule did not leave it", len(v2files["manifest.json"]), len(files["manifest.json"]))
			}
		})
	}
}
