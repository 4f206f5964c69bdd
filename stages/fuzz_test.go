package stages

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The pipeline-level fuzz target mutates one file of the embedded example
// campaign and runs the whole pipeline on it. Whatever the bytes, the
// pipeline must not panic, every finding must be typed and positioned, the
// findings sorted, every planned run must keep its row, and two runs must
// give equal tables (rules L2, X1).

// exampleFiles returns the files of the embedded paired-review example by
// path, read once. Callers must not modify the byte slices.
var exampleFiles = sync.OnceValues(func() (map[string][]byte, error) {
	fsys, ok := fixtures.Example("paired-review")
	if !ok {
		return nil, fmt.Errorf("example paired-review is missing")
	}
	files := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, path)
		files[path] = data
		return err
	})
	return files, err
})

func loadExample(tb testing.TB) map[string][]byte {
	tb.Helper()
	files, err := exampleFiles()
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// fileGroups sorts the example's files into the kinds a fuzzed index picks
// from, so that every kind is picked equally often however many answers
// there are.
func fileGroups(files map[string][]byte) [][]string {
	prefixes := []string{"manifest.json", "tasks/", "receipts.jsonl", "answers/", "adjudications.jsonl", "sources/", "prompts/"}
	groups := make([][]string, len(prefixes))
	for _, name := range slices.Sorted(maps.Keys(files)) {
		for i, p := range prefixes {
			if strings.HasPrefix(name, p) {
				groups[i] = append(groups[i], name)
				break
			}
		}
	}
	return slices.DeleteFunc(groups, func(g []string) bool { return len(g) == 0 })
}

// pickFile maps a fuzzed index to a file name.
func pickFile(files map[string][]byte, pick uint16) string {
	groups := fileGroups(files)
	g := groups[int(pick)%len(groups)]
	return g[int(pick)/len(groups)%len(g)]
}

// Mutation operations.
const (
	opReplace  = iota // overwrite bytes at the offset with the payload
	opInsert          // insert the payload at the offset
	opTruncate        // cut the file at the offset
	opWhole           // replace the whole file with the payload
	opDelete          // remove the file
	opCut             // remove len(payload) bytes at the offset
	numOps
)

// mutate returns a mutated copy of data and whether the file still exists.
func mutate(data []byte, op uint8, off uint32, payload []byte) ([]byte, bool) {
	at := 0
	if len(data) > 0 {
		at = int(off % uint32(len(data)+1))
	}
	switch op % numOps {
	case opReplace:
		out := slices.Clone(data)
		end := min(at+len(payload), len(out))
		copy(out[at:end], payload)
		return append(out, payload[end-at:]...), true
	case opInsert:
		return slices.Concat(data[:at], payload, data[at:]), true
	case opTruncate:
		return slices.Clone(data[:at]), true
	case opWhole:
		return slices.Clone(payload), true
	case opDelete:
		return nil, false
	default:
		end := min(at+len(payload), len(data))
		return slices.Concat(data[:at], data[end:]), true
	}
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// mutatedCampaign builds the example with one file mutated. When rehash is
// set, the digests (and, for an answer, the byte count) that other files
// record for the mutated file are updated, cascading to the files that
// record those files' digests, so the mutation reaches the stages after
// load instead of stopping at a hash mismatch.
func mutatedCampaign(files map[string][]byte, name string, op uint8, off uint32, payload []byte, rehash bool) fstest.MapFS {
	out := make(map[string][]byte, len(files))
	for k, v := range files {
		out[k] = v
	}
	data, keep := mutate(files[name], op, off, payload)
	if !keep {
		delete(out, name)
	} else {
		out[name] = data
		if rehash {
			updateDigests(out, files[name], name)
		}
	}
	fsys := fstest.MapFS{}
	for k, v := range out {
		fsys[k] = &fstest.MapFile{Data: v, Mode: 0o444}
	}
	return fsys
}

// updateDigests replaces, in every other file, the digest of old (the
// original bytes of name) with the digest of out[name], and so on for
// every file that changed in turn. It returns name, renamed when it is a
// content-addressed source.
func updateDigests(out map[string][]byte, old []byte, name string) string {
	type change struct {
		name     string
		old, new []byte
	}
	queue := []change{{name, old, out[name]}}
	for steps := 0; len(queue) > 0 && steps < 32; steps++ {
		ch := queue[0]
		queue = queue[1:]
		oldSum, newSum := sha(ch.old), sha(ch.new)
		if oldSum == newSum {
			continue
		}
		if strings.HasPrefix(ch.name, "sources/") {
			if ch.name == name {
				name = "sources/" + newSum
			}
			delete(out, ch.name)
			ch.name = "sources/" + newSum
			out[ch.name] = ch.new
		}
		oldBytes := fmt.Sprintf(`"sha256":"%s","bytes":%d`, newSum, len(ch.old))
		newBytes := fmt.Sprintf(`"sha256":"%s","bytes":%d`, newSum, len(ch.new))
		for _, k := range slices.Sorted(maps.Keys(out)) {
			if k == ch.name {
				continue
			}
			v := out[k]
			w := bytes.ReplaceAll(v, []byte(oldSum), []byte(newSum))
			w = bytes.ReplaceAll(w, []byte(oldBytes), []byte(newBytes))
			if !bytes.Equal(v, w) {
				out[k] = w
				queue = append(queue, change{k, v, w})
			}
		}
	}
	return name
}

// plannedRuns is an independent count of the runs the manifest plans: each
// distinct (task, repetition) of the schedule, or every task × repetition
// without one, times the arms.
func plannedRuns(m *tables.Manifest) int {
	d := m.Design
	if len(d.Schedule) == 0 {
		return len(d.Tasks) * int(d.Repetitions) * len(d.Arms)
	}
	slots := map[string]bool{}
	for _, s := range d.Schedule {
		slots[fmt.Sprintf("%q/%d", s.Task, s.Repetition)] = true
	}
	return len(slots) * len(d.Arms)
}

// findingCompare is the documented order of findings, written out again here
// so that the test does not trust rules.Findings.Sort.
func findingCompare(a, b rules.Finding) int {
	return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
		strings.Compare(a.Pointer, b.Pointer), strings.Compare(string(a.Code), string(b.Code)),
		strings.Compare(a.Session, b.Session), strings.Compare(a.Message, b.Message))
}

// checkResult checks the invariants every run of the pipeline keeps.
func checkResult(t *testing.T, res *Result) {
	t.Helper()
	if res == nil || res.Tables == nil {
		t.Fatal("Run returned no result or no tables")
	}
	known := map[rules.Code]bool{}
	for _, d := range rules.AllCodes() {
		known[d.Code] = true
	}
	findings := res.Tables.Rejections
	for _, f := range findings {
		switch {
		case !known[f.Code]:
			t.Errorf("finding with undocumented code: %#v", f)
		case f.Message == "":
			t.Errorf("finding without a message: %#v", f)
		case f.File == "":
			t.Errorf("finding without a file: %#v", f)
		case f.Severity != rules.Reject && f.Severity != rules.Warn:
			t.Errorf("finding with severity %q: %#v", f.Severity, f)
		case f.Pointer != "" && !strings.HasPrefix(f.Pointer, "/"):
			t.Errorf("finding pointer is not a JSON pointer: %#v", f)
		}
	}
	if !slices.IsSortedFunc(findings, findingCompare) {
		t.Errorf("findings are not sorted")
	}
	if !res.Loaded {
		if !rules.Findings(findings).Rejected() {
			t.Errorf("campaign not loaded but no finding rejects it")
		}
		return
	}
	if res.Campaign == nil {
		t.Fatal("Loaded with a nil campaign")
	}
	if want := plannedRuns(&res.Campaign.Manifest); res.Tables.Runs.Len() != want {
		t.Errorf("runs table has %d rows; the manifest plans %d runs", res.Tables.Runs.Len(), want)
	}
	type runKey struct {
		task, arm string
		rep       int64
	}
	seen := map[runKey]bool{}
	for _, r := range res.Tables.Runs.Collect() {
		k := runKey{r.TaskID, r.Arm, r.Repetition}
		if seen[k] {
			t.Errorf("run %v has two rows", k)
		}
		seen[k] = true
	}
}

// runTwice runs the pipeline twice on fsys, checks the invariants and that
// both runs give deep-equal tables, and returns the first result.
func runTwice(t *testing.T, fsys fs.FS) *Result {
	t.Helper()
	first := Run(fsys, "fuzz", Options{})
	checkResult(t, first)
	second := Run(fsys, "fuzz", Options{})
	if first.Loaded != second.Loaded || !reflect.DeepEqual(tableRows(first.Tables), tableRows(second.Tables)) {
		t.Errorf("two runs on the same campaign differ")
	}
	return first
}

// tableRows is every table of s as its rows in order, keyed by name: what
// two table sets are compared by (a spooled table's encoded form is not a
// value to compare).
func tableRows(s *tables.Set) map[string]any {
	out := map[string]any{}
	for _, t := range tables.Registry() {
		out[t.Name] = t.Rows(s)
	}
	return out
}

// fuzzSeed is one meaningful mutation of the example.
type fuzzSeed struct {
	pick    uint16
	op      uint8
	off     uint32
	payload []byte
	rehash  bool
}

// groupIndex returns the pick that selects file name.
func groupIndex(tb testing.TB, files map[string][]byte, name string) uint16 {
	for pick := range uint16(4096) {
		if pickFile(files, pick) == name {
			return pick
		}
	}
	tb.Fatalf("no pick selects %s", name)
	return 0
}

func fuzzSeeds(tb testing.TB) []fuzzSeed {
	files := loadExample(tb)
	manifest := groupIndex(tb, files, "manifest.json")
	receipts := groupIndex(tb, files, "receipts.jsonl")
	answer := groupIndex(tb, files, "answers/T1-r1-B.json")
	adjs := groupIndex(tb, files, "adjudications.jsonl")
	packet := groupIndex(tb, files, "tasks/T1/packet.json")
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	return []fuzzSeed{
		{manifest, opInsert, 1, []byte(`"format":"evalgate.manifest/v1",`), false},
		{manifest, opReplace, uint32(bytes.Index(files["manifest.json"], []byte(`"repetitions": 3`)) + 15), []byte("NaN"), false},
		{receipts, opReplace, uint32(bytes.Index(files["receipts.jsonl"], []byte(`"input_tokens":`)) + 15), []byte("99999999999999999999999999"), false},
		{receipts, opInsert, 0, []byte(`{"format":"evalgate.receipt/v1","attempt":1e400}` + "\n"), false},
		{answer, opWhole, 0, []byte(`{"final":` + deep + `,"reconciliation":null}`), true},
		{answer, opWhole, 0, nil, true},
		{answer, opWhole, 0, nil, false},
		{answer, opReplace, 40, []byte("Infinity,-0,1e999"), true},
		{adjs, opReplace, 60, []byte("\xff\xfe\xc0\x80"), false},
		{adjs, opCut, 100, make([]byte, 40), false},
		{packet, opReplace, 200, []byte(`"end_line":1000000000,`), true},
		{groupIndex(tb, files, "tasks/T1/truth.json"), opTruncate, 50, nil, true},
		{0, opDelete, 0, nil, false},
	}
}

func FuzzPipeline(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s.pick, s.op, s.off, s.payload, s.rehash)
	}
	files := loadExample(f)
	f.Fuzz(func(t *testing.T, pick uint16, op uint8, off uint32, payload []byte, rehash bool) {
		name := pickFile(files, pick)
		runTwice(t, mutatedCampaign(files, name, op, off, payload, rehash))
	})
}

// TestPipelineExample pins the harness on the unmutated example: it loads,
// is admissible, and plans 8 tasks × 3 repetitions × 2 arms = 48 runs.
func TestPipelineExample(t *testing.T) {
	files := loadExample(t)
	fsys := mutatedCampaign(files, "manifest.json", opInsert, 0, nil, true)
	res := runTwice(t, fsys)
	if !res.Admissible() {
		t.Fatalf("example is not admissible: %v", res.Tables.Rejections)
	}
	if res.Tables.Runs.Len() != 48 {
		t.Errorf("runs = %d, want 48", res.Tables.Runs.Len())
	}
}

// TestPipelineRehash checks that the harness's digest update lets a
// mutation through the hash checks to the rule it breaks: a mutated answer
// is still read (an undecodable answer is a warning on its session), and a
// mutated source is renamed and its packets and the manifest updated, so
// the packet text no longer matching is what is found.
func TestPipelineRehash(t *testing.T) {
	files := loadExample(t)
	const source = "sources/4160a88cfe779de13cdc45f654d1f91034b5f81c0fed0a2f7b06188946a41008" // src/limiter.ts of T1
	for _, tc := range []struct {
		name, file string
		op         uint8
		payload    string
		loaded     bool
		code       rules.Code
	}{
		{"answer_replaced", "answers/T1-r1-B.json", opWhole, `{}`, true, rules.CodeMissingKey},
		{"source_line_inserted", source, opInsert, "// inserted line\n", false, rules.CodePacketTextMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runTwice(t, mutatedCampaign(files, tc.file, tc.op, 0, []byte(tc.payload), true))
			if res.Loaded != tc.loaded {
				t.Errorf("Loaded = %v, want %v: %v", res.Loaded, tc.loaded, res.Tables.Rejections)
			}
			codes := map[rules.Code]bool{}
			for _, f := range res.Tables.Rejections {
				codes[f.Code] = true
			}
			if !codes[tc.code] || codes[rules.CodeHashMismatch] {
				t.Errorf("want a %s finding and no hash_mismatch: %v", tc.code, res.Tables.Rejections)
			}
		})
	}
}
