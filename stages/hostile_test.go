package stages

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
)

// Hand-made hostile campaigns: each is the embedded example with one file
// made hostile. Each must finish quickly with a typed finding, never panic,
// and allocate a bounded amount of memory (rules L2, X1).

const mib = 1 << 20

// hostileCase is one hostile campaign and the finding it must produce.
type hostileCase struct {
	name  string
	build func(t testing.TB, files map[string][]byte)
	code  rules.Code // a finding with this code and file is required
	file  string
	// maxAlloc bounds the bytes Run allocates (both runs of runTwice are
	// measured together): coarse, to catch a copy per line or per item.
	maxAlloc uint64
}

// setFile replaces a file of the campaign; with rehash the digests other
// files record for it are updated (see updateDigests).
func setFile(files map[string][]byte, name string, data []byte, rehash bool) {
	old := files[name]
	files[name] = data
	if rehash {
		updateDigests(files, old, name)
	}
}

// replaceOnce replaces the first occurrence of old in a file, failing the
// test when there is none.
func replaceOnce(t testing.TB, files map[string][]byte, name, old, new string, rehash bool) {
	t.Helper()
	data := files[name]
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	setFile(files, name, bytes.Replace(data, []byte(old), []byte(new), 1), rehash)
}

// manifestWithTasks returns the example manifest with n copies of task T1
// named T1..Tn (all naming T1's files) and an empty schedule.
func manifestWithTasks(t testing.TB, manifest []byte, n int) []byte {
	t.Helper()
	var top, design map[string]jsontext.Value
	var tasks []map[string]jsontext.Value
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(json.Unmarshal(manifest, &top))
	must(json.Unmarshal(top["design"], &design))
	must(json.Unmarshal(design["tasks"], &tasks))
	many := make([]map[string]jsontext.Value, n)
	for i := range many {
		many[i] = maps.Clone(tasks[0])
		many[i]["id"] = jsontext.Value(fmt.Sprintf(`"T%d"`, i+1))
	}
	var err error
	design["tasks"], err = json.Marshal(many, json.Deterministic(true))
	must(err)
	design["schedule"] = jsontext.Value(`[]`)
	top["design"], err = json.Marshal(design, json.Deterministic(true))
	must(err)
	out, err := json.Marshal(top, json.Deterministic(true))
	must(err)
	return out
}

// adjudicationWithRatings returns one adjudication line with n obligation
// ratings.
func adjudicationWithRatings(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"format":"evalgate.adjudication/v1","session_id":"T1-r1-B","rater":"rater-9","rater_role":"primary","blinded":true,"frozen_at":"2026-10-02T09:00:00Z","obligations":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"obligation_id":"O%d","outcome":"addressed"}`, i+1)
	}
	b.WriteString(`],"citations":[],"critical_wrong_claims":0,"wrong_claims":0,"unsupported_claims":0,"false_completeness_claims":0,"wrong_exclusions":0}`)
	b.WriteByte('\n')
	return b.Bytes()
}

// hostileText is appended to every string: NUL, right-to-left override,
// zero-width space and joiner, a byte-order mark and an isolate.
const hostileText = "\u0000\u202e\u200b\u200d\ufeff\u2067"

// poisonStrings appends hostileText to every string value (not member
// names) of one JSON document, keeping its layout otherwise.
func poisonStrings(t testing.TB, doc []byte) []byte {
	t.Helper()
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("poisonStrings: %v", err)
		}
		kind, length := dec.StackIndex(dec.StackDepth())
		isName := kind == '{' && length%2 == 1
		if tok.Kind() == '"' && !isName {
			tok = jsontext.String(tok.String() + hostileText)
		}
		if err := enc.WriteToken(tok); err != nil {
			t.Fatalf("poisonStrings: %v", err)
		}
	}
	return out.Bytes()
}

// poisonFile applies poisonStrings to a JSON file or to each line of a
// JSONL file.
func poisonFile(t testing.TB, name string, data []byte) []byte {
	if !strings.HasSuffix(name, ".jsonl") {
		return poisonStrings(t, data)
	}
	var out []byte
	for line := range bytes.Lines(data) {
		out = append(out, bytes.TrimSuffix(poisonStrings(t, line), []byte("\n"))...)
		out = append(out, '\n')
	}
	return out
}

func hostileCases() []hostileCase {
	const answer = "answers/T1-r1-B.json"
	const packet = "tasks/T1/packet.json"
	cases := []hostileCase{{
		name: "answer_of_5MiB_over_the_cap",
		build: func(t testing.TB, f map[string][]byte) {
			big := slices.Concat([]byte(`{"final":"`), bytes.Repeat([]byte("a"), 5*mib), []byte(`"}`))
			setFile(f, answer, big, true)
		},
		code: rules.CodeTooLarge, file: answer, maxAlloc: 48 * mib,
	}, {
		name: "answer_of_2_million_values_within_the_cap",
		build: func(t testing.TB, f map[string][]byte) {
			many := slices.Concat([]byte(`{"final":{"claims":[0`), bytes.Repeat([]byte(",0"), 2_000_000), []byte(`]},"reconciliation":null}`))
			setFile(f, answer, many, true)
		},
		code: rules.CodeTooManyItems, file: answer, maxAlloc: 1024 * mib,
	}, {
		name: "receipts_line_of_2MiB",
		build: func(t testing.TB, f map[string][]byte) {
			line := slices.Concat([]byte(`{"format":"`), bytes.Repeat([]byte("r"), 2*mib), []byte("\"}\n"))
			setFile(f, "receipts.jsonl", slices.Concat(line, f["receipts.jsonl"]), false)
		},
		code: rules.CodeLineTooLong, file: "receipts.jsonl", maxAlloc: 64 * mib,
	}, {
		name: "answer_nested_100000_deep",
		build: func(t testing.TB, f map[string][]byte) {
			deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
			setFile(f, answer, []byte(`{"final":`+deep+`,"reconciliation":null}`), true)
		},
		code: rules.CodeTooDeep, file: answer, maxAlloc: 64 * mib,
	}, {
		name: "manifest_nested_100000_deep",
		build: func(t testing.TB, f map[string][]byte) {
			setFile(f, "manifest.json", []byte(strings.Repeat(`{"a":`, 100000)+"1"+strings.Repeat("}", 100000)), false)
		},
		code: rules.CodeTooDeep, file: "manifest.json", maxAlloc: 64 * mib,
	}, {
		name: "adjudications_nested_100000_deep",
		build: func(t testing.TB, f map[string][]byte) {
			setFile(f, "adjudications.jsonl", []byte(strings.Repeat("[", 100000)+"\n"), false)
		},
		code: rules.CodeTooDeep, file: "adjudications.jsonl", maxAlloc: 64 * mib,
	}, {
		name: "citation_end_line_2^53-1_on_a_small_file",
		build: func(t testing.TB, f map[string][]byte) {
			replaceOnce(t, f, answer, `"start_line":32,"end_line":40`, `"start_line":32,"end_line":9007199254740991`, true)
		},
		code: rules.CodeCitationBeyondSource, file: answer, maxAlloc: 256 * mib,
	}, {
		name: "citation_end_line_2^53",
		build: func(t testing.TB, f map[string][]byte) {
			replaceOnce(t, f, answer, `"start_line":32,"end_line":40`, `"start_line":32,"end_line":9007199254740992`, true)
		},
		code: rules.CodeLineInvalid, file: answer, maxAlloc: 256 * mib,
	}, {
		name: "packet_item_claiming_lines_1_to_10^9",
		build: func(t testing.TB, f map[string][]byte) {
			replaceOnce(t, f, packet, `"start_line": 27,`+"\n"+`      "end_line": 34,`, `"start_line": 1,"end_line": 1000000000,`, true)
		},
		code: rules.CodeSourceLinesOutOfRange, file: packet, maxAlloc: 256 * mib,
	}, {
		name: "adjudication_with_10^6_ratings_over_the_line_cap",
		build: func(t testing.TB, f map[string][]byte) {
			setFile(f, "adjudications.jsonl", slices.Concat(f["adjudications.jsonl"], adjudicationWithRatings(1_000_000)), false)
		},
		code: rules.CodeLineTooLong, file: "adjudications.jsonl", maxAlloc: 64 * mib,
	}, {
		name: "adjudication_with_20000_ratings_within_the_line_cap",
		build: func(t testing.TB, f map[string][]byte) {
			line := adjudicationWithRatings(20_000)
			if len(line) > mib {
				t.Fatalf("line has %d bytes, over the 1 MiB cap", len(line))
			}
			setFile(f, "adjudications.jsonl", slices.Concat(f["adjudications.jsonl"], line), false)
		},
		// The schema caps obligation ratings at the truth's 8 obligations:
		// one size finding, not one finding per rating.
		code: rules.CodeTooManyItems, file: "adjudications.jsonl", maxAlloc: 64 * mib,
	}, {
		name: "source_path_with_dotdot",
		build: func(t testing.TB, f map[string][]byte) {
			replaceOnce(t, f, packet, `"path": "src/limiter.ts"`, `"path": "../../etc/passwd"`, true)
		},
		code: rules.CodePathInvalid, file: packet, maxAlloc: 256 * mib,
	}, {
		name: "answer_output_path_with_dotdot",
		build: func(t testing.TB, f map[string][]byte) {
			replaceOnce(t, f, "receipts.jsonl", `"path":"answers/T1-r1-B.json"`, `"path":"answers/../../../etc/passwd"`, false)
		},
		code: rules.CodePathInvalid, file: "receipts.jsonl", maxAlloc: 256 * mib,
	}, {
		name: "manifest_with_10000_tasks",
		build: func(t testing.TB, f map[string][]byte) {
			setFile(f, "manifest.json", manifestWithTasks(t, f["manifest.json"], 10000), false)
		},
		code: rules.CodeTooLarge, file: "manifest.json", maxAlloc: 64 * mib,
	}, {
		name: "manifest_with_1000_tasks_within_the_cap",
		build: func(t testing.TB, f map[string][]byte) {
			m := manifestWithTasks(t, f["manifest.json"], 1000)
			if len(m) > mib {
				t.Fatalf("manifest has %d bytes, over the 1 MiB cap", len(m))
			}
			setFile(f, "manifest.json", m, false)
		},
		code: rules.CodeTaskMismatch, file: packet, maxAlloc: 1024 * mib,
	}}
	cases = append(cases, hostileCase{
		name: "packet_with_2000_items_on_a_source_of_10^6_lines",
		build: func(t testing.TB, f map[string][]byte) {
			src := bytes.Repeat([]byte("x\n"), 1_000_000)
			sum := sha(src)
			f["sources/"+sum] = src
			var b bytes.Buffer
			b.WriteString(`{"format":"evalgate.packet/v1","task_id":"T1","repository":"tallybucket","commit":"40b390ef324d6c798a70070cf1ffc1eb31990850","constructed_complete":false,"items":[`)
			for i := range 2000 {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"id":"E%d","path":"src/x.ts","start_line":%d,"end_line":%d,"file_sha256":"%s","text":"x\n"}`, i+1, i+1, i+1, sum)
			}
			b.WriteString(`]}`)
			setFile(f, packet, b.Bytes(), true)
		},
		code: rules.CodePacketItemCount, file: packet, maxAlloc: 256 * mib,
	})
	for _, name := range []string{"manifest.json", packet, "tasks/T1/truth.json", "receipts.jsonl", "adjudications.jsonl", answer} {
		cases = append(cases, hostileCase{
			name: "nul_rtl_and_zero_width_in_every_string_of_" + name,
			build: func(t testing.TB, f map[string][]byte) {
				setFile(f, name, poisonFile(t, name, f[name]), true)
			},
			file: name, maxAlloc: 1024 * mib,
		})
	}
	return cases
}

func TestHostileCampaigns(t *testing.T) {
	base := loadExample(t)
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			files := make(map[string][]byte, len(base))
			for k, v := range base {
				files[k] = v
			}
			tc.build(t, files)
			fsys := fstest.MapFS{}
			for k, v := range files {
				fsys[k] = &fstest.MapFile{Data: v, Mode: 0o444}
			}
			// The bound is on work, counted in bytes allocated, which the
			// same input and code make the same on any machine; time is
			// BenchmarkHostileCampaigns'.
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res := runTwice(t, fsys)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("two runs: %d MiB allocated, %d findings", alloc/mib, len(res.Tables.Rejections))
			if alloc > tc.maxAlloc {
				t.Errorf("two runs allocated %d MiB; the bound is %d MiB", alloc/mib, tc.maxAlloc/mib)
			}
			checkText(t, res.Tables.Rejections)
			if !slices.ContainsFunc(res.Tables.Rejections, func(f rules.Finding) bool {
				return f.File == tc.file && (tc.code == "" || f.Code == tc.code)
			}) {
				t.Errorf("no %q finding on %s; findings:\n%s", tc.code, tc.file, firstFindings(res.Tables.Rejections, 20))
			}
		})
	}
}

// BenchmarkHostileCampaigns times one run of each hostile campaign, which
// TestHostileCampaigns bounds by the bytes it allocates:
//
//	go test ./stages -run '^$' -bench HostileCampaigns -benchtime 1x
func BenchmarkHostileCampaigns(b *testing.B) {
	base := loadExample(b)
	for _, tc := range hostileCases() {
		files := make(map[string][]byte, len(base))
		for k, v := range base {
			files[k] = v
		}
		tc.build(b, files)
		fsys := mapFS(files)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				Run(fsys, "hostile", Options{SkipIntervals: true})
			}
		})
	}
}

// checkText requires every finding's text to be valid UTF-8 without NUL,
// so that findings print and encode as they are.
func checkText(t *testing.T, findings rules.Findings) {
	t.Helper()
	for _, f := range findings {
		for _, s := range []string{f.File, f.Pointer, f.Session, f.Message} {
			if !utf8.ValidString(s) {
				t.Errorf("finding text is not valid UTF-8: %q", f.Error())
			}
		}
	}
}

func firstFindings(fs rules.Findings, n int) string {
	var b strings.Builder
	for i, f := range fs {
		if i == n {
			fmt.Fprintf(&b, "... and %d more\n", len(fs)-n)
			break
		}
		b.WriteString(f.Error() + "\n")
	}
	return b.String()
}
