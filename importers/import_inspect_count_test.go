package importers

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
)

// millionSamples is a .json log of n samples (each ~40 bytes, no usage).
func millionSamples(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"version":2,"status":"success","eval":{"model":"openai/m","packages":{"inspect_ai":"0.3.200"}},"samples":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"s%d","epoch":1,"model_usage":{}}`, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// TestInspectJSONSamplesCountedBeforeRead reads a .json log of 10^6
// samples (more than maxInspectSamples) through the importer's reader and
// requires the too_large refusal with the counted number, allocating
// little beyond the log's own bytes: the samples are counted by streaming
// over the document before any is copied out. Decoding the document first
// (a []jsontext.Value of a million copied members, about its size again
// plus 24 MB of slice headers, doubled while it grows) allocated more than
// twice the log's size.
func TestInspectJSONSamplesCountedBeforeRead(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10^6-sample log")
	}
	data := millionSamples(1_000_000)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	log, fs := ReadInspectLog("million.json", bytes.NewReader(data), int64(len(data)))
	runtime.ReadMemStats(&after)
	if log != nil || len(fs) != 1 || fs[0].Code != rules.CodeTooLarge || fs[0].Pointer != "/samples" ||
		!strings.Contains(fs[0].Message, "the log has 1000000 samples; the cap is 100000") {
		t.Fatalf("got %v, want one too_large finding at /samples counting 1000000 samples", fs)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	bound := uint64(len(data)) + 4<<20 // one copy of the log, and the decoder's state
	t.Logf("log of %d bytes: %d bytes allocated (bound %d)", len(data), alloc, bound)
	if alloc > bound {
		t.Errorf("reading a %d-byte log of 10^6 samples allocated %d bytes, more than %d: the samples were decoded before they were counted", len(data), alloc, bound)
	}
}

// TestCountInspectSamples counts the top-level samples array only, and
// gives up (leaving the decoding to say why) on anything else.
func TestCountInspectSamples(t *testing.T) {
	for _, c := range []struct {
		doc string
		n   int
		ok  bool
	}{
		{`{"eval":{"samples":[1,2,3]},"samples":[{"a":[1]},2]}`, 2, true},
		{`{"samples":[]}`, 0, true},
		{`{"eval":{}}`, 0, false},
		{`{"samples":{"x":1}}`, 0, false},
		{`[1,2]`, 0, false},
		{`{"samples":[1,2`, 0, false},
		{``, 0, false},
	} {
		if n, ok := countInspectSamples([]byte(c.doc)); n != c.n || ok != c.ok {
			t.Errorf("%s: got %d, %v; want %d, %v", c.doc, n, ok, c.n, c.ok)
		}
	}
}
