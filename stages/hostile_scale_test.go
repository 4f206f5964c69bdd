package stages

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalgate/evalgate/internal/heaptest"
	"github.com/evalgate/evalgate/rules"
)

// Hostile inputs at scale: memory and time must follow the input's size.
// Peak heap is measured with runtime.MemStats, with generous bounds; time
// is shown by benchmarks only (a doubling of n should double ns/op).

var sessionIDMember = regexp.MustCompile(`"session_id":"[^"]*"`)

// unknownSessions returns the example's receipts.jsonl followed by n
// copies of its first receipt, each for a session the design does not
// plan.
func unknownSessions(tb testing.TB, files map[string][]byte, n int) []byte {
	tb.Helper()
	receipts := files["receipts.jsonl"]
	first, _, _ := bytes.Cut(receipts, []byte("\n"))
	if !sessionIDMember.Match(first) {
		tb.Fatal("the example's first receipt has no session_id")
	}
	var b bytes.Buffer
	b.Grow(len(receipts) + n*(len(first)+16))
	b.Write(receipts)
	for i := range n {
		b.Write(sessionIDMember.ReplaceAll(first, []byte(fmt.Sprintf(`"session_id":"unplanned-%d"`, i))))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func mapFS(files map[string][]byte) fstest.MapFS {
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: v, Mode: 0o444}
	}
	return fsys
}

// BenchmarkUnknownSessions: receipts for sessions the design does not plan
// once made the decision quadratic (10k: 1.5 s, 20k: 5.6 s, 40k: 22 s).
// Each doubling of n must now about double ns/op:
//
//	go test ./stages -run '^$' -bench UnknownSessions -benchtime 1x
func BenchmarkUnknownSessions(b *testing.B) {
	base := loadExample(b)
	for _, n := range []int{12_500, 25_000, 50_000, 100_000} {
		files := make(map[string][]byte, len(base))
		for k, v := range base {
			files[k] = v
		}
		files["receipts.jsonl"] = unknownSessions(b, files, n)
		fsys := mapFS(files)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				res := Run(fsys, "bench", Options{SkipIntervals: true})
				if res.Admissible() {
					b.Fatal("unplanned sessions were admitted")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/session")
		})
	}
}

// manyKeys is one JSON object of n members, as short as names go, and no
// longer than limit bytes.
func manyKeys(n, limit int) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for i := range n {
		var name []byte
		for k := i; ; k /= len(digits) {
			name = append(name, digits[k%len(digits)])
			if k < len(digits) {
				break
			}
		}
		if b.Len()+len(name)+6 > limit {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + string(name) + `":0`)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// TestHostileCampaignsAtScale is the matrix of hostile inputs whose size,
// not their bytes, is the attack. Each must stay under a peak heap bound
// and end with its typed finding.
func TestHostileCampaignsAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	const mib = 1 << 20
	cases := []struct {
		name  string
		build func(files map[string][]byte)
		code  rules.Code
		file  string
		peak  uint64 // bound on the peak heap
		// modelFault: the hostile file is an answer, a fault of the model
		// scored as a failure; the campaign stays admissible.
		modelFault bool
	}{{
		// 2*10^4 receipts of 1.6 KB (33 MB), each of a session the design
		// does not plan and each citing an answer that is read and checked:
		// the bound is linear in the input, about 12 times its size.
		// BenchmarkUnknownSessions shows the time growing linearly to 10^5.
		name: "2*10^4_receipts_for_unplanned_sessions",
		build: func(f map[string][]byte) {
			f["receipts.jsonl"] = unknownSessions(t, f, 20_000)
		},
		file: "receipts.jsonl", peak: 448 * mib,
	}, {
		name: "every_packet_one_object_of_as_many_keys_as_8MiB_holds",
		build: func(f map[string][]byte) {
			obj := manyKeys(1_000_000, 8*mib)
			for name := range f {
				if strings.HasSuffix(name, "/packet.json") {
					setFile(f, name, obj, true)
				}
			}
		},
		code: rules.CodeUnknownKey, peak: 512 * mib,
	}, {
		name: "receipt_lines_of_objects_of_as_many_keys_as_1MiB_holds",
		build: func(f map[string][]byte) {
			line := manyKeys(1_000_000, mib-1)
			f["receipts.jsonl"] = bytes.Repeat(append(line, '\n'), 16)
		},
		code: rules.CodeUnknownKey, file: "receipts.jsonl", peak: 256 * mib,
	}, {
		name: "answer_of_30000_arrays_nested_to_the_legal_depth",
		build: func(f map[string][]byte) {
			// 4 levels above the claims: 60 more is the deepest legal.
			deep := strings.Repeat("[", 60) + strings.Repeat("]", 60)
			var b strings.Builder
			b.WriteString(`{"final":{"claims":[`)
			for i := range 30_000 {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(deep)
			}
			b.WriteString(`]},"reconciliation":null}`)
			setFile(f, "answers/T1-r1-B.json", []byte(b.String()), true)
		},
		code: rules.CodeTooManyItems, file: "answers/T1-r1-B.json", peak: 512 * mib, modelFault: true,
	}}
	base := loadExample(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := make(map[string][]byte, len(base))
			for k, v := range base {
				files[k] = v
			}
			tc.build(files)
			fsys := mapFS(files)
			var res *Result
			peak := heaptest.Peak(func() { res = Run(fsys, "scale", Options{SkipIntervals: true}) })
			t.Logf("peak heap %d MiB, %d findings", peak/mib, len(res.Tables.Rejections))
			if peak > tc.peak {
				t.Errorf("peak heap %d MiB; the bound is %d MiB", peak/mib, tc.peak/mib)
			}
			if n := len(res.Tables.Rejections); n > rules.MaxFindings+len(rules.AllCodes()) {
				t.Errorf("%d findings: more than the caps allow", n)
			}
			if res.Admissible() != tc.modelFault {
				t.Errorf("admissible = %v; want %v", res.Admissible(), tc.modelFault)
			}
			found := false
			for _, f := range res.Tables.Rejections {
				found = found || (tc.code == "" || f.Code == tc.code) && (tc.file == "" || f.File == tc.file)
			}
			if !found {
				t.Errorf("no %q finding on %q; findings:\n%s", tc.code, tc.file, firstFindings(res.Tables.Rejections, 20))
			}
		})
	}
}
