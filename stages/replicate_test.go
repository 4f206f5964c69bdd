package stages

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/internal/heaptest"
	"github.com/evalgate/evalgate/tables"
)

// Campaigns of any size for benchmarks: the paired-review-green example
// replicated k times along its repetitions. Copy c (0-based) of repetition
// r is repetition r + c·R (R the example's repetitions): its receipts and
// adjudications are the example's with the repetition, session, draft,
// reservation and request IDs renumbered, citing the example's answer
// files, and the manifest's repetitions, schedule and campaign ceilings
// are multiplied by k. Every copy reproduces the example's rows.

var (
	repIDMember   = regexp.MustCompile(`("(?:session_id|draft_session_id)":"[^"]*-r|"id":"res-[^"]*-r)([0-9]+)-`)
	repetitionKey = regexp.MustCompile(`"repetition":([0-9]+)`)
	requestIDKey  = regexp.MustCompile(`"request_id":"([^"]*)"`)
	timeKey       = regexp.MustCompile(`"(?:started_at|ended_at|frozen_at)":"([^"]*)"`)
	monotonicKey  = regexp.MustCompile(`"monotonic_(?:start|end)_ns":([0-9]+)`)
)

// copyShift is how much later each copy's sessions and ratings run than
// the copy before it: more than the example's whole span of sessions, so
// that the copies run serially (rule D3) and every copy's ratings stay
// after its answers and before the unblinding, which moves by k-1 shifts.
const copyShift = 2 * time.Hour

// replicate returns the example's files with k copies of its sessions; a
// v2 campaign (schedule.jsonl) when v2 is set.
func replicate(tb testing.TB, files map[string][]byte, k int, v2 bool) map[string][]byte {
	return replicateFiles(tb, files, k, v2, false)
}

// replicateFiles is replicate; when lazy, receipts.jsonl and
// adjudications.jsonl are the example's and the caller writes their
// copies (writeReplicatedLines).
func replicateFiles(tb testing.TB, files map[string][]byte, k int, v2, lazy bool) map[string][]byte {
	tb.Helper()
	var m tables.Manifest
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		tb.Fatal(err)
	}
	reps := m.Design.Repetitions
	out := make(map[string][]byte, len(files)+1)
	for name, data := range files {
		out[name] = data
	}
	if !lazy {
		out["receipts.jsonl"] = replicateLines(files["receipts.jsonl"], k, reps)
		out["adjudications.jsonl"] = replicateLines(files["adjudications.jsonl"], k, reps)
	}
	slots := m.Design.Schedule
	m.Design.Schedule = make([]tables.Slot, 0, len(slots)*k)
	for c := range int64(k) {
		for _, s := range slots {
			s.Repetition += c * reps
			m.Design.Schedule = append(m.Design.Schedule, s)
		}
	}
	m.Design.Repetitions = reps * int64(k)
	m.GatePolicy.Custom = "replicated-campaign" // the ceilings scale with the campaign: not the preset's
	cc := &m.Ceilings.Campaign
	n := int64(k)
	cc.PlannedSessions, cc.TotalSessions, cc.WallMS = cc.PlannedSessions*n, cc.TotalSessions*n, cc.WallMS*n
	cc.InputTokens, cc.OutputTokens, cc.InfrastructureReplacements = cc.InputTokens*n, cc.OutputTokens*n, cc.InfrastructureReplacements*n
	cc.ReferenceCost, cc.ActualCost = scaleMoney(tb, cc.ReferenceCost, n), scaleMoney(tb, cc.ActualCost, n)
	manifest, err := json.Marshal(&m, jsontext.WithIndent("  "))
	if err != nil {
		tb.Fatal(err)
	}
	out["manifest.json"] = manifest
	if u, ok := files["unblinding.json"]; ok {
		out["unblinding.json"] = shiftTimes(u, time.Duration(k-1)*copyShift)
	}
	if v2 {
		return toFormatV2(tb, out)
	}
	return out
}

// scaleMoney multiplies a whole decimal amount by n.
func scaleMoney(tb testing.TB, s string, n int64) string {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		tb.Fatalf("ceiling %q is not a whole amount", s)
	}
	return strconv.FormatInt(v*n, 10)
}

// replicateLines returns the JSONL lines k times, copy c renumbered by c·reps.
func replicateLines(data []byte, k int, reps int64) []byte {
	var b bytes.Buffer
	b.Grow(len(data) * k * 11 / 10)
	writeReplicatedLines(&b, data, k, reps)
	return b.Bytes()
}

// writeReplicatedLines is replicateLines writing to w.
func writeReplicatedLines(b io.Writer, data []byte, k int, reps int64) {
	for c := range int64(k) {
		if c == 0 {
			b.Write(data)
			continue
		}
		shift := func(re *regexp.Regexp, line []byte, group int, f func([]byte) string) []byte {
			return re.ReplaceAllFunc(line, func(m []byte) []byte {
				sub := re.FindSubmatchIndex(m)
				return append(append(append([]byte{}, m[:sub[2*group]]...), f(m[sub[2*group]:sub[2*group+1]])...), m[sub[2*group+1]:]...)
			})
		}
		plus := func(v []byte) string {
			r, _ := strconv.ParseInt(string(v), 10, 64)
			return strconv.FormatInt(r+c*reps, 10)
		}
		for line := range bytes.Lines(data) {
			line = shift(repIDMember, line, 2, plus)
			line = shift(repetitionKey, line, 1, plus)
			line = shift(requestIDKey, line, 1, func(v []byte) string { return fmt.Sprintf("%s-c%d", v, c) })
			line = shift(timeKey, line, 1, func(v []byte) string { return later(v, time.Duration(c)*copyShift) })
			line = shift(monotonicKey, line, 1, func(v []byte) string {
				ns, _ := strconv.ParseInt(string(v), 10, 64)
				return strconv.FormatInt(ns+(time.Duration(c)*copyShift).Nanoseconds(), 10)
			})
			b.Write(line)
		}
	}
}

// later is the RFC 3339 time v moved by d (v unchanged when it is not one).
func later(v []byte, d time.Duration) string {
	t, err := time.Parse(time.RFC3339Nano, string(v))
	if err != nil {
		return string(v)
	}
	return t.Add(d).UTC().Format(time.RFC3339Nano)
}

// shiftTimes moves the unblinded_at of unblinding.json by d.
func shiftTimes(data []byte, d time.Duration) []byte {
	re := regexp.MustCompile(`"unblinded_at": ?"([^"]*)"`)
	return re.ReplaceAllFunc(data, func(m []byte) []byte {
		sub := re.FindSubmatch(m)
		return bytes.Replace(m, sub[1], []byte(later(sub[1], d)), 1)
	})
}

func TestReplicateKeepsRows(t *testing.T) {
	files := exampleFilesNamed(t, "paired-review-green")
	one := Run(mapFS(files), "x", Options{SkipIntervals: true})
	for _, v2 := range []bool{false, true} {
		three := Run(mapFS(replicate(t, files, 3, v2)), "x", Options{SkipIntervals: true})
		if !three.Admissible() || one.Admissible() != three.Admissible() {
			t.Fatalf("v2 %v: replicated campaign not admissible: %v", v2, three.Tables.Rejections)
		}
		if got, want := three.Tables.Sessions.Len(), 3*one.Tables.Sessions.Len(); got != want {
			t.Errorf("v2 %v: %d session rows, want %d", v2, got, want)
		}
	}
}

// TestWriteReplicated writes a replicated campaign to disk for measuring
// the binary (peak RSS with /usr/bin/time -v); it runs only when asked:
//
//	EVALGATE_REPLICATE_OUT=/tmp/c1m EVALGATE_REPLICATE_K=13889 go test ./stages -run TestWriteReplicated
//
// (k copies of the example's 72 sessions; format v2.)
func TestWriteReplicated(t *testing.T) {
	dir, kText := os.Getenv("EVALGATE_REPLICATE_OUT"), os.Getenv("EVALGATE_REPLICATE_K")
	if dir == "" {
		t.Skip("set EVALGATE_REPLICATE_OUT and EVALGATE_REPLICATE_K")
	}
	k, err := strconv.Atoi(kText)
	if err != nil || k < 1 {
		t.Fatalf("EVALGATE_REPLICATE_K=%q", kText)
	}
	base := exampleFilesNamed(t, "paired-review-green")
	var m tables.Manifest
	if err := json.Unmarshal(base["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	reps := m.Design.Repetitions
	files := replicateFiles(t, base, k, true, true)
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if name == "receipts.jsonl" || name == "adjudications.jsonl" {
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w := bufio.NewWriterSize(f, 1<<20)
			writeReplicatedLines(w, base[name], k, reps)
			if err := errors.Join(w.Flush(), f.Close()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkRunSessions runs replicated v2 campaigns of about 10^4 and 10^5
// sessions and reports the time per session and the peak heap above the
// campaign's own bytes (which a MapFS holds in memory):
//
//	go test ./stages -run '^$' -bench RunSessions -benchtime 1x
//
// For the binary's peak RSS on a campaign on disk, see TestWriteReplicated.
func BenchmarkRunSessions(b *testing.B) {
	base := exampleFilesNamed(b, "paired-review-green")
	for _, k := range []int{139, 1389} {
		fsys := mapFS(replicate(b, base, k, true))
		sessions := k * 72
		b.Run(fmt.Sprintf("sessions=%d", sessions), func(b *testing.B) {
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			floor := ms.HeapAlloc
			var peak uint64
			for b.Loop() {
				peak = max(peak, heaptest.Peak(func() {
					if res := Run(fsys, "bench", Options{}); !res.Admissible() {
						b.Fatal("replicated campaign not admissible")
					}
				}))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sessions), "ns/session")
			b.ReportMetric(float64(peak-min(peak, floor))/(1<<20), "peak-heap-MiB")
		})
	}
}
