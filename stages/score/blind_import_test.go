package score_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/score"
	"github.com/evalgate/evalgate/tables"
)

// blindCase is an export of the example with the grader ratings that
// correspond to the example's adjudications, line for line.
type blindCase struct {
	in       score.BlindImport
	exp      *score.BlindExport
	adjLines []string // the example's adjudications.jsonl
	ratings  []byte   // the equivalent ratings file
}

func newBlindCase(t *testing.T) *blindCase {
	t.Helper()
	fsys := exampleFS(t)
	res := runExample(t, fsys)
	exp := export(t, res, 3)
	labels := map[string]string{}
	for _, e := range exp.Key.Entries {
		labels[e.SessionID] = e.Label
	}
	bc := &blindCase{exp: exp, adjLines: adjudicationLines(t, fsys)}
	var buf bytes.Buffer
	for _, line := range bc.adjLines {
		// Rewrite the line's session_id member as a label member, textually,
		// so the rating is built without the code under test.
		var a tables.Adjudication
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatal(err)
		}
		r := strings.Replace(line, `"format":"evalgate.adjudication/v1","session_id":"`+a.SessionID+`"`,
			`"format":"evalgate.blind-rating/v1","label":"`+labels[a.SessionID]+`"`, 1)
		buf.WriteString(r + "\n")
	}
	bc.ratings = buf.Bytes()
	key := *exp.Key.Clone()
	bc.in = score.BlindImport{Campaign: res.Campaign, KeyFile: "key.sealed.json", Key: &key, RatingsFile: "ratings.jsonl"}
	return bc
}

func (bc *blindCase) decode(t *testing.T, ratings []byte) {
	t.Helper()
	recs, findings := load.BlindRatings("ratings.jsonl", bytes.NewReader(ratings))
	if len(findings) != 0 {
		t.Fatalf("ratings do not decode: %v", findings)
	}
	bc.in.Ratings = recs
}

func (bc *blindCase) items() fstest.MapFS {
	m := fstest.MapFS{}
	for _, it := range bc.exp.Items {
		m[it.Label+".json"] = &fstest.MapFile{Data: it.Data}
	}
	return m
}

func at(s string) *time.Time {
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &v
}

func TestBlindImportRoundTrip(t *testing.T) {
	bc := newBlindCase(t)
	bc.decode(t, bc.ratings)
	bc.in.UnblindedAt = at("2026-10-04T00:00:00Z") // after every frozen_at of the example
	bc.in.Items, bc.in.ItemsDir = bc.items(), "items"
	adjs, findings := score.ImportBlind(bc.in)
	if len(findings) != 0 {
		t.Fatalf("findings: %v", findings)
	}
	var out bytes.Buffer
	if err := score.WriteAdjudications(&out, adjs); err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(bc.adjLines, "\n") + "\n"; out.String() != want {
		t.Fatalf("round trip differs from the example's adjudications.jsonl:\n%s", firstDiff(out.String(), want))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(al), len(bl))
}

func TestBlindImportRefuses(t *testing.T) {
	// The example's first rating line is frozen at 2026-10-02T09:00:00Z and
	// its second at 09:04:00Z.
	cases := []struct {
		name   string
		change func(bc *blindCase) []byte // returns the ratings to import
		code   rules.Code
		file   string
		line   int64
	}{
		{"rating after unblinding flag", func(bc *blindCase) []byte {
			bc.in.UnblindedAt = at("2026-10-02T09:02:00Z")
			return bc.ratings
		}, rules.CodeRatingAfterUnblinding, "ratings.jsonl", 2},
		{"rating frozen at the unblinding instant", func(bc *blindCase) []byte {
			bc.in.UnblindedAt = at("2026-10-02T09:04:00Z")
			return firstLines(bc.ratings, 2)
		}, rules.CodeRatingAfterUnblinding, "ratings.jsonl", 2},
		{"rating after unblinding.json", func(bc *blindCase) []byte {
			c := *bc.in.Campaign
			c.Unblinding = &tables.Unblinding{Format: tables.FormatUnblinding, UnblindedAt: *at("2026-10-02T09:02:00Z")}
			bc.in.Campaign = &c
			bc.in.UnblindedAt = at("2026-10-05T00:00:00Z") // the earlier time wins
			return firstLines(bc.ratings, 2)
		}, rules.CodeRatingAfterUnblinding, "ratings.jsonl", 2},
		{"unknown label", func(bc *blindCase) []byte {
			return []byte(strings.Replace(string(firstLines(bc.ratings, 1)), `"label":"L`, `"label":"Lx`, 1))
		}, rules.CodeBlindLabelUnknown, "ratings.jsonl", 1},
		{"not blinded", func(bc *blindCase) []byte {
			return []byte(strings.Replace(string(firstLines(bc.ratings, 1)), `"blinded":true`, `"blinded":false`, 1))
		}, rules.CodeRatingNotBlinded, "ratings.jsonl", 1},
		{"tampered item", func(bc *blindCase) []byte {
			items := bc.items()
			name := bc.exp.Items[0].Label + ".json"
			items[name] = &fstest.MapFile{Data: append(bytes.Clone(items[name].Data), ' ')}
			bc.in.Items, bc.in.ItemsDir = items, "items"
			return bc.ratings
		}, rules.CodeBlindItemTampered, "items/" + "FIRST", 0},
		{"missing item", func(bc *blindCase) []byte {
			items := bc.items()
			delete(items, bc.exp.Items[0].Label+".json")
			bc.in.Items, bc.in.ItemsDir = items, "items"
			return bc.ratings
		}, rules.CodeBlindItemTampered, "items/" + "FIRST", 0},
		{"extra item", func(bc *blindCase) []byte {
			items := bc.items()
			items["L0000000000000000.json"] = &fstest.MapFile{Data: []byte("{}\n")}
			bc.in.Items, bc.in.ItemsDir = items, "items"
			return bc.ratings
		}, rules.CodeBlindItemTampered, "items/L0000000000000000.json", 0},
		{"key of another campaign", func(bc *blindCase) []byte {
			bc.in.Key.ManifestSHA256 = strings.Repeat("0", 64)
			return bc.ratings
		}, rules.CodeBlindKeyCampaign, "key.sealed.json", 0},
		{"key with swapped sessions", func(bc *blindCase) []byte {
			e := bc.in.Key.Entries
			e[0].SessionID, e[1].SessionID = e[1].SessionID, e[0].SessionID
			return bc.ratings
		}, rules.CodeBlindKeyInvalid, "key.sealed.json", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bc := newBlindCase(t)
			bc.in.UnblindedAt = at("2026-10-04T00:00:00Z")
			bc.decode(t, tc.change(bc))
			file := strings.Replace(tc.file, "FIRST", bc.exp.Items[0].Label+".json", 1)
			_, findings := score.ImportBlind(bc.in)
			var hit []rules.Finding
			for _, f := range findings {
				if f.Severity == rules.Reject {
					hit = append(hit, f)
				}
			}
			if len(hit) == 0 || hit[0].Code != tc.code || hit[0].File != file || hit[0].Line != tc.line {
				t.Fatalf("want first rejection %s at %s:%d, got %v", tc.code, file, tc.line, findings)
			}
			for _, f := range hit {
				if f.Code != tc.code {
					t.Errorf("unrelated rejection %v", f)
				}
			}
		})
	}
	t.Run("no unblinding time warns", func(t *testing.T) {
		bc := newBlindCase(t)
		bc.decode(t, bc.ratings)
		c := *bc.in.Campaign // the example has an unblinding.json; this campaign has none
		c.Unblinding = nil
		bc.in.Campaign = &c
		_, findings := score.ImportBlind(bc.in)
		if len(findings) != 1 || findings[0].Code != rules.CodeBlindUnblindingAbsent || findings[0].Severity != rules.Warn {
			t.Fatalf("findings %v", findings)
		}
	})
}

func firstLines(b []byte, n int) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	return []byte(strings.Join(lines[:n], ""))
}

func TestDecodeBlindKey(t *testing.T) {
	bc := newBlindCase(t)
	good := string(bc.exp.KeyData)
	t.Run("export's key decodes", func(t *testing.T) {
		k, findings := score.DecodeBlindKey("k", bc.exp.KeyData)
		if k == nil || len(findings) != 0 || len(k.Entries) != len(bc.exp.Items) {
			t.Fatalf("key %v, findings %v", k, findings)
		}
	})
	label0 := bc.exp.Key.Entries[0].Label
	label1 := bc.exp.Key.Entries[1].Label
	cases := []struct{ name, data, ptr string }{
		{"not JSON", "{", ""},
		{"unknown member", strings.Replace(good, `"seed"`, `"arm":"A","seed"`, 1), ""},
		{"duplicate member", strings.Replace(good, `"seed"`, `"seed": 1,"seed"`, 1), ""},
		{"other format", strings.Replace(good, tables.FormatBlindKey, "evalgate.blind-key/v9", 1), "/format"},
		{"repeated label", strings.Replace(good, label1, label0, 1), "/entries/1/label"},
		{"malformed label", strings.Replace(good, label0, "../x", 1), "/entries/0/label"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, findings := score.DecodeBlindKey("k", []byte(tc.data))
			if k != nil || len(findings) == 0 || findings[0].Code != rules.CodeBlindKeyInvalid || findings[0].Pointer != tc.ptr {
				t.Fatalf("key %v, findings %v", k, findings)
			}
		})
	}
}

func FuzzDecodeBlindKey(f *testing.F) {
	f.Add([]byte(`{"format":"evalgate.blind-key/v1","campaign_id":"c","manifest_sha256":"` + strings.Repeat("a", 64) +
		`","seed":1,"entries":[{"label":"L0123456789abcdef","session_id":"s","item_sha256":"` + strings.Repeat("b", 64) + `"}]}`))
	f.Add([]byte(`{"entries":[{},{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, findings := score.DecodeBlindKey("k", data)
		if (k == nil) == (len(findings) == 0) {
			t.Fatalf("key %v with findings %v", k, findings)
		}
		for _, f := range findings {
			if f.Code == "" || f.Message == "" {
				t.Fatalf("finding without code or message: %+v", f)
			}
		}
	})
}
