package importers

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/rules"
)

// FuzzInspectLog: any bytes give a log or rejecting findings, never a
// panic; an accepted log's samples are sorted and unique and every usage
// is a JSON object; every finding is typed.
func FuzzInspectLog(f *testing.F) {
	// Small real logs only: the fuzzer minimises slowly on large seeds.
	for _, name := range []string{"log_formats.eval", "2025-05-12T20-28-13-04-00_no-samples.json"} {
		data, err := os.ReadFile(filepath.Join(inspectTestdata, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(inspectJSON("0.3.95", "openai/x", `{"id":1,"epoch":1,"model_usage":`+okUsage+`}`)))
	f.Add(zipOf(f, "_journal/start.json", evalHeader, "samples/1.json", `{"id":"a","epoch":2,"model_usage":{}}`))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		log, fs := ReadInspectLog("fuzz", bytes.NewReader(data), int64(len(data)))
		for _, x := range fs {
			if x.Code == "" || x.Message == "" || (x.Severity != rules.Reject && x.Severity != rules.Warn) {
				t.Fatalf("untyped finding %+v", x)
			}
		}
		if (log == nil) != fs.Rejected() {
			t.Fatalf("log %v but rejected=%v", log != nil, fs.Rejected())
		}
		if log == nil {
			return
		}
		for i, s := range log.Samples {
			if i > 0 {
				p := log.Samples[i-1]
				if c := compareSampleIDs(p.ID, s.ID); c > 0 || (c == 0 && p.Epoch >= s.Epoch) {
					t.Fatalf("samples out of order or repeated at %d", i)
				}
			}
			for _, u := range s.Usage {
				if u.Usage.Kind() != '{' {
					t.Fatalf("usage %q is not an object", u.Usage)
				}
			}
		}
	})
}
