package score_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/score"
	"github.com/evalgate/evalgate/tables"
)

// exampleFS copies the embedded example campaign so a test can add files.
func exampleFS(t *testing.T) fstest.MapFS {
	t.Helper()
	src, ok := fixtures.Example(fixtures.DefaultExample)
	if !ok {
		t.Fatal("no example campaign")
	}
	out := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		out[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func runExample(t *testing.T, fsys fs.FS) *stages.Result {
	t.Helper()
	res := stages.Run(fsys, "example", stages.Options{SkipIntervals: true})
	if !res.Loaded {
		t.Fatalf("example rejected by the loader: %v", res.Tables.Rejections)
	}
	return res
}

func export(t *testing.T, res *stages.Result, seed uint64) *score.BlindExport {
	t.Helper()
	exp, err := stages.ExportBlind(res, seed)
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// ratedSessions lists, independently of the code under test, the review
// sessions the example's adjudications.jsonl rates: the example rates
// exactly its scoreable reviews (a test below checks no rating is ignored).
func ratedSessions(c *tables.Campaign) []string {
	set := map[string]bool{}
	for a := range c.Adjudications.All() {
		set[a.Record.SessionID] = true
	}
	return slices.Sorted(maps.Keys(set))
}

func TestBlindExportCoversScoreableReviews(t *testing.T) {
	res := runExample(t, exampleFS(t))
	for _, f := range res.Tables.Rejections {
		if f.Code == rules.CodeRatingUnscoreableRun || f.Code == rules.CodeRunUnrated {
			t.Fatalf("the example's ratings do not match its scoreable reviews: %v", f)
		}
	}
	exp := export(t, res, 0)
	var got []string
	for _, e := range exp.Key.Entries {
		got = append(got, e.SessionID)
	}
	slices.Sort(got)
	if want := ratedSessions(res.Campaign); !slices.Equal(got, want) {
		t.Fatalf("exported sessions %v\nwant %v", got, want)
	}
	t.Run("items sorted by label and hashed in the key", func(t *testing.T) {
		if len(exp.Items) != len(exp.Key.Entries) {
			t.Fatalf("%d items, %d key entries", len(exp.Items), len(exp.Key.Entries))
		}
		for i, it := range exp.Items {
			sum := sha256.Sum256(it.Data)
			e := exp.Key.Entries[i]
			if it.Label != e.Label || hex.EncodeToString(sum[:]) != e.ItemSHA256 {
				t.Errorf("item %d %s does not match key entry %+v", i, it.Label, e)
			}
			if i > 0 && exp.Items[i-1].Label >= it.Label {
				t.Errorf("items not strictly sorted at %d", i)
			}
		}
	})
	t.Run("label is HMAC-SHA256 of the session", func(t *testing.T) {
		// Independent derivation: the key is sha256 over the NUL-terminated
		// domain, manifest sha256, manifest seed and export seed.
		c := res.Campaign
		e := exp.Key.Entries[0]
		want := score.NewBlindLabeler(c.ManifestSHA256, c.Manifest.Seed, 0).Label(e.SessionID)
		if e.Label != want || len(want) != 17 || want[0] != 'L' {
			t.Fatalf("label %s, want %s", e.Label, want)
		}
	})
}

func TestBlindExportDeterministic(t *testing.T) {
	one := export(t, runExample(t, exampleFS(t)), 7)
	two := export(t, runExample(t, exampleFS(t)), 7)
	t.Run("same seed byte-identical", func(t *testing.T) {
		if !bytes.Equal(one.KeyData, two.KeyData) || len(one.Items) != len(two.Items) {
			t.Fatal("keys differ")
		}
		for i := range one.Items {
			if one.Items[i].Label != two.Items[i].Label || !bytes.Equal(one.Items[i].Data, two.Items[i].Data) {
				t.Fatalf("item %d differs", i)
			}
		}
	})
	t.Run("other seed other labels", func(t *testing.T) {
		other := export(t, runExample(t, exampleFS(t)), 8)
		a := map[string]bool{}
		for _, it := range one.Items {
			a[it.Label] = true
		}
		for _, it := range other.Items {
			if a[it.Label] {
				t.Fatalf("label %s survives a change of seed", it.Label)
			}
		}
	})
}

// forbiddenKeyParts may not appear in any member name of an item.
var forbiddenKeyParts = []string{"arm", "cost", "session", "reconciliation", "disposition", "model",
	"started", "ended", "duration", "time", "token", "rater", "price", "position", "order", "repetition"}

func TestBlindItemsLeakNothing(t *testing.T) {
	res := runExample(t, exampleFS(t))
	exp := export(t, res, 0)
	var sessionIDs []string
	for s := range res.Tables.Sessions.All() {
		sessionIDs = append(sessionIDs, s.SessionID)
	}
	for _, it := range exp.Items {
		t.Run(it.Label, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal(it.Data, &doc); err != nil {
				t.Fatal(err)
			}
			walkJSON(doc, "", func(ptr, key string, v any) {
				for _, bad := range forbiddenKeyParts {
					if strings.Contains(strings.ToLower(key), bad) {
						t.Errorf("%s: member %q leaks %q", ptr, key, bad)
					}
				}
				if s, ok := v.(string); ok {
					for _, id := range sessionIDs {
						if strings.Contains(s, id) {
							t.Errorf("%s: value names session %s", ptr, id)
						}
					}
				}
			})
			top := doc.(map[string]any)
			if got := slices.Sorted(maps.Keys(top)); !slices.Equal(got, []string{"final", "format", "label", "task", "task_id", "truth"}) {
				t.Errorf("top-level members %v", got)
			}
		})
	}
}

func walkJSON(v any, ptr string, visit func(ptr, key string, v any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			visit(ptr+"/"+k, k, child)
			walkJSON(child, ptr+"/"+k, visit)
		}
	case []any:
		for _, child := range x {
			visit(ptr+"/*", "", child)
			walkJSON(child, ptr+"/*", visit)
		}
	}
}

func TestBlindItemKeepsFinalAndExclusions(t *testing.T) {
	res := runExample(t, exampleFS(t))
	exp := export(t, res, 0)
	for i, e := range exp.Key.Entries {
		var item tables.BlindItem
		if err := json.Unmarshal(exp.Items[i].Data, &item, json.RejectUnknownMembers(true)); err != nil {
			t.Fatal(err)
		}
		// The answer file is answers/<session>.json in the example; its
		// final member must be carried over exactly.
		raw, err := fs.ReadFile(res.Campaign.FS, "answers/"+e.SessionID+".json")
		if err != nil {
			t.Fatal(err)
		}
		var ans struct {
			Final tables.Final `json:"final"`
		}
		if err := json.Unmarshal(raw, &ans); err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(ans.Final)
		b, _ := json.Marshal(item.Final)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: final differs from the answer's", e.SessionID)
		}
		task := res.Campaign.Task(item.TaskID)
		if task == nil || item.Task != string(task.Text) || len(item.Truth) != len(task.Truth.Obligations) {
			t.Errorf("%s: task or truth missing", e.SessionID)
		}
		if !strings.HasPrefix(e.SessionID, item.TaskID+"-") {
			t.Errorf("%s: item of task %s", e.SessionID, item.TaskID)
		}
	}
}

// adjudicationLines returns the example's adjudications.jsonl lines.
func adjudicationLines(t *testing.T, fsys fs.FS) []string {
	data, err := fs.ReadFile(fsys, "adjudications.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func TestScoreRefusesRatingsAfterUnblinding(t *testing.T) {
	const cutoff = "2026-10-02T09:04:00Z"
	fsys := exampleFS(t)
	// Independent expectation: the lines whose frozen_at is not before the
	// cutoff (same fixed-width UTC format, so text order is time order).
	var want []int64
	for i, line := range adjudicationLines(t, fsys) {
		_, rest, _ := strings.Cut(line, `"frozen_at":"`)
		frozen, _, _ := strings.Cut(rest, `"`)
		if len(frozen) != len(cutoff) {
			t.Fatalf("line %d: unexpected frozen_at %q", i+1, frozen)
		}
		if frozen >= cutoff {
			want = append(want, int64(i+1))
		}
	}
	if len(want) == 0 || len(want) == len(adjudicationLines(t, fsys)) {
		t.Fatalf("cutoff %s must split the example's ratings", cutoff)
	}
	t.Run("ratings at or after unblinding refused", func(t *testing.T) {
		fsys["unblinding.json"] = &fstest.MapFile{Data: []byte(`{"format":"evalgate.unblinding/v1","unblinded_at":"` + cutoff + `"}` + "\n")}
		res := runExample(t, fsys)
		var got []int64
		for _, f := range res.Tables.Rejections {
			if f.Code == rules.CodeRatingAfterUnblinding {
				if f.Severity != rules.Reject || f.File != "adjudications.jsonl" || f.Pointer != "/frozen_at" {
					t.Errorf("finding %v", f)
				}
				got = append(got, f.Line)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("refused lines %v, want %v", got, want)
		}
		// Line 2 rates T2-r1-B (the second primary): the run loses a
		// usable rating and stays unscored.
		for _, r := range res.Tables.Runs.Collect() {
			if r.TaskID == "T2" && r.Repetition == 1 && r.Arm == "B" && r.Scored {
				t.Errorf("run T2 r1 B is still scored: %+v", r)
			}
		}
	})
	t.Run("ratings before unblinding count", func(t *testing.T) {
		fsys["unblinding.json"] = &fstest.MapFile{Data: []byte(`{"format":"evalgate.unblinding/v1","unblinded_at":"2026-10-04T00:00:00Z"}`)}
		res := runExample(t, fsys)
		for _, f := range res.Tables.Rejections {
			if f.Code == rules.CodeRatingAfterUnblinding {
				t.Fatalf("unexpected %v", f)
			}
		}
	})
}
