package validate

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// BenchmarkRun measures the validate stage alone, per session, on the
// 3,000-session synthetic campaign of bench/ (the shape of the
// 100,000-session one: 34 repetitions of each task):
//
//	go test ./stages/validate -run '^$' -bench Run -benchtime 3x
//
// Every answer is read and decoded once before the timer starts (the load
// stage's work, measured in stages/load), so ns/session and
// alloc-B/session are validate's own checks, renderings and rows.
func BenchmarkRun(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "campaign")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if _, err := fixtures.Synth("paired-review", dir, fixtures.SynthOptions{Sessions: 3000, MaxTasks: 30, FaultPPM: 50_000, Seed: 741}); err != nil {
		b.Fatal(err)
	}
	fsys, err := confined.OpenCampaignDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer fsys.Close()
	c, found := load.Campaign(fsys, "bench")
	if c == nil || found.Rejected() {
		b.Fatalf("the synthetic campaign does not load: %v", found)
	}
	answers := readAhead(c)
	sessions := float64(c.Receipts.Len())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		Run(c, answers)
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/sessions, "ns/session")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/sessions, "alloc-B/session")
}

// aheadAnswers serves answers read and decoded before: Read returns the
// bytes read for an output, Decode the answer decoded from exactly those
// bytes (any other bytes are decoded then, as load.Answers does).
type aheadAnswers struct {
	plain   tables.Answers
	read    map[tables.OutputRef]*readResult // by value: each pass over the receipts decodes its own
	decoded map[*byte]*readResult            // by the first byte of the data read
}

type readResult struct {
	data     []byte
	matches  bool
	err      error
	answer   *tables.Answer
	findings rules.Findings
}

func readAhead(c *tables.Campaign) aheadAnswers {
	a := aheadAnswers{plain: load.Answers(c), read: map[tables.OutputRef]*readResult{}, decoded: map[*byte]*readResult{}}
	for l := range c.Receipts.All() {
		out := l.Record.Output
		if out == nil {
			continue
		}
		r := &readResult{}
		r.data, r.matches, r.err = a.plain.Read(out)
		if r.err == nil && r.matches && len(r.data) > 0 {
			r.answer, r.findings = a.plain.Decode(out.Path, r.data)
			a.decoded[&r.data[0]] = r
		}
		a.read[*out] = r
	}
	return a
}

func (a aheadAnswers) Read(out *tables.OutputRef) ([]byte, bool, error) {
	if r, ok := a.read[*out]; ok {
		return r.data, r.matches, r.err
	}
	return a.plain.Read(out)
}

func (a aheadAnswers) Decode(file string, data []byte) (*tables.Answer, rules.Findings) {
	if len(data) > 0 {
		if r := a.decoded[&data[0]]; r != nil && len(r.data) == len(data) {
			return r.answer, slices.Clone(r.findings) // the caller sorts and extends them
		}
	}
	return a.plain.Decode(file, data)
}
