package load

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/fixtures/rbdefects"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// FuzzDecodeReview: a reviewer output never panics the decoder; a review
// that decodes cleanly re-encodes to bytes that decode to the same review,
// and its enumerations are the published ones (the oracle: the Go
// constants, not the schema the decoder reads).
func FuzzDecodeReview(f *testing.F) {
	files, err := rbdefects.Example()
	if err != nil {
		f.Fatal(err)
	}
	for p, b := range files {
		if strings.HasSuffix(p, "/review.json") && strings.Contains(p, "F1") {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"format":"evalgate.review/v1"}`))
	var rf reviewFiles
	decode := func(b []byte) (*tables.Review, rules.Findings) { return rf.DecodeReview("r.json", b) }
	f.Fuzz(func(t *testing.T, data []byte) {
		r, findings := decode(data)
		checkFindings(t, findings)
		if r == nil {
			return
		}
		for _, c := range r.Criteria {
			if !slices.Contains(tables.Criteria, c.Criterion) {
				t.Fatalf("criterion %q decoded", c.Criterion)
			}
		}
		for _, fd := range r.Findings {
			if !slices.Contains(tables.DefectCategories, fd.Category) || fd.Location.StartLine < 1 {
				t.Fatalf("finding %+v decoded", fd)
			}
		}
		roundTrip(t, r, decode)
	})
}

// FuzzTrial: a trial result never panics the reader; a result is returned
// only for a file whose sha256 is the one asked for.
func FuzzTrial(f *testing.F) {
	files, _ := rbdefects.Example()
	for p, b := range files {
		if strings.HasPrefix(p, "trials/") {
			f.Add(b)
			break
		}
	}
	f.Add([]byte(`{"task_checksum":"x","task_name":"a","trial_name":"b","verifier_result":null,"exception_info":null,"agent_result":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"trials/t/result.json": &fstest.MapFile{Data: data}}
		rf := reviewFiles{answerFiles{fsys: fsys}}
		res, exists := rf.Trial("trials/t/result.json", sha256Hex(data))
		if res != nil && !exists {
			t.Fatal("a result without a bound file")
		}
		if res != nil && !isLowerHex(res.TaskChecksum, 64) {
			t.Fatalf("task_checksum %q decoded", res.TaskChecksum)
		}
		if r, ok := rf.Trial("trials/t/result.json", sha256Hex(append(data, 'x'))); r != nil || ok {
			t.Fatal("a trial bound under another sha256")
		}
	})
}
