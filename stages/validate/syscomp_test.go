package validate

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// sysCase mutates the system-comparison example and expects exactly the
// codes want (each at least once) from load and validate together.
type sysCase struct {
	name  string
	mut   func(t *testing.T, f fstest.MapFS)
	want  []rules.Code
	class map[string]tables.Classification // session → classification
}

var systemCases = []sysCase{
	{name: "the example is clean", mut: func(*testing.T, fstest.MapFS) {},
		class: map[string]tables.Classification{"S1-r1-madar-I": tables.ClassValid, "S1-r1-madar-R": tables.ClassValid, "setup-madar-relay-queue": tables.ClassValid,
			"S2-r2-native-I": tables.ClassScoredFailure, "S2-r2-native-R": tables.ClassNotDispatched}},
	{name: "a cold setup is missing", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			return slices.DeleteFunc(rs, func(r tables.Receipt) bool { return r.SessionID == "setup-madar-relay-queue" })
		})
	}, want: []rules.Code{rules.CodeSetupMissing}},
	{name: "a cold setup is recorded twice", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			dup := *sysFind(t, rs, "setup-serena-form-kit")
			dup.SessionID, dup.RequestID = "setup-serena-form-kit-2", "req_dup"
			return append(rs, dup)
		})
	}, want: []rules.Code{rules.CodeSetupDuplicate}},
	{name: "a cold setup is charged to a later workflow", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			r, other := sysFind(t, rs, "setup-serena-ledger-sync"), "S3"
			if r.TaskID == "S3" {
				other = "S4"
			}
			r.TaskID, r.Inputs.TaskSHA256 = other, sysFind(t, rs, other+"-r1-serena-I").Inputs.TaskSHA256
			return rs
		})
	}, want: []rules.Code{rules.CodeSetupNotFirst}},
	{name: "an investigation recorded no observations", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			sysFind(t, rs, "S1-r2-madar-I").Observations = nil
			return rs
		})
	}, want: []rules.Code{rules.CodeObservationsMissing},
		class: map[string]tables.Classification{"S1-r2-madar-I": tables.ClassInvalid, "S1-r2-madar-R": tables.ClassInvalid}},
	{name: "an empty investigation draft is a scored failure and its review must not run", mut: func(t *testing.T, f fstest.MapFS) {
		f["answers/S1-r2-madar-I.txt"] = &fstest.MapFile{Data: []byte(" \n")}
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			r := sysFind(t, rs, "S1-r2-madar-I")
			r.Output.SHA256, r.Output.Bytes = shaHex([]byte(" \n")), 2
			return rs
		})
	}, want: []rules.Code{rules.CodeInvestigationEmpty, rules.CodeReviewAfterFailedDraft, rules.CodeRenderedInputMismatch},
		class: map[string]tables.Classification{"S1-r2-madar-I": tables.ClassScoredFailure}},
	{name: "a review received another packet", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			sysFind(t, rs, "S1-r2-madar-R").Inputs.PacketSHA256 = sysFind(t, rs, "S1-r2-serena-R").Inputs.PacketSHA256
			return rs
		})
	}, want: []rules.Code{rules.CodeIdentityMismatch}, class: map[string]tables.Classification{"S1-r2-madar-R": tables.ClassInvalid}},
	{name: "a review names another workflow's investigation", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			id := "S1-r2-serena-I"
			sysFind(t, rs, "S1-r2-madar-R").Inputs.DraftSessionID = &id
			return rs
		})
		// Its rendering then has the other draft and packet: it differs too.
	}, want: []rules.Code{rules.CodeIdentityMismatch, rules.CodeRenderedInputMismatch}, class: map[string]tables.Classification{"S1-r2-madar-R": tables.ClassInvalid}},
	{name: "a packet one token over the limit is an evidence budget failure and its review must not run", mut: func(t *testing.T, f fstest.MapFS) {
		sysObs(t, f, "S1-r2-madar-I", func(l *tables.ObservationLog) { l.PacketTokens = tables.PacketTokenLimit + 1 })
	}, want: []rules.Code{rules.CodeEvidenceBudgetExceeded, rules.CodeReviewAfterFailedDraft},
		class: map[string]tables.Classification{"S1-r2-madar-I": tables.ClassScoredFailure}},
	{name: "a packet exactly at the limit is within it", mut: func(t *testing.T, f fstest.MapFS) {
		sysObs(t, f, "S1-r2-madar-I", func(l *tables.ObservationLog) { l.PacketTokens = tables.PacketTokenLimit })
	}, class: map[string]tables.Classification{"S1-r2-madar-I": tables.ClassValid, "S1-r2-madar-R": tables.ClassValid}},
	{name: "a missing review is reported with a planned row", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			return slices.DeleteFunc(rs, func(r tables.Receipt) bool { return r.SessionID == "S3-r1-native-R" })
		})
	}, want: []rules.Code{rules.CodeSessionMissing}, class: map[string]tables.Classification{"S3-r1-native-R": tables.ClassInvalid}},
}

func TestSystemComparisonValidate(t *testing.T) { checkSystemCases(t, systemCases) }

// checkSystemCases runs each case on a fresh copy of the system-comparison
// example.
func checkSystemCases(t *testing.T, cases []sysCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := sysExample(t)
			tc.mut(t, f)
			c, found := load.Campaign(f, "example")
			if found.Rejected() {
				t.Fatalf("load rejected: %v", found)
			}
			s := Run(c, load.Answers(c))
			var got []rules.Code
			for _, x := range s.Findings {
				if !slices.Contains(got, x.Code) {
					got = append(got, x.Code)
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Fatalf("codes %v, want %v: %v", got, want, s.Findings)
			}
			for id, class := range tc.class {
				if row := sysRow(s, id); row == nil || row.Classification != class {
					t.Errorf("session %s: row %+v, want classification %s", id, row, class)
				}
			}
			if n := s.Sessions.Len(); n < 72+8 { // every planned workflow session has a row; a missing setup has none
				t.Errorf("%d session rows, want at least 80", n)
			}
		})
	}
}

func sysRow(s Out, id string) *tables.Session {
	for r := range s.Sessions.All() {
		if r.SessionID == id {
			return &r
		}
	}
	return nil
}

func sysExample(t *testing.T) fstest.MapFS {
	t.Helper()
	return exampleMapFS(t, "system-comparison")
}

// exampleMapFS is an editable copy of the embedded example name.
func exampleMapFS(t *testing.T, name string) fstest.MapFS {
	t.Helper()
	src, ok := fixtures.Example(name)
	if !ok {
		t.Fatalf("no %s example", name)
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

// sysEdit rewrites receipts.jsonl through edit.
func sysEdit(t *testing.T, f fstest.MapFS, edit func([]tables.Receipt) []tables.Receipt) {
	t.Helper()
	var rs []tables.Receipt
	data := f["receipts.jsonl"].Data
	for start, i := 0, 0; i < len(data); i++ {
		if data[i] != '\n' {
			continue
		}
		var r tables.Receipt
		if err := json.Unmarshal(data[start:i], &r); err != nil {
			t.Fatal(err)
		}
		rs, start = append(rs, r), i+1
	}
	var out []byte
	for _, r := range edit(rs) {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(append(out, b...), '\n')
	}
	f["receipts.jsonl"] = &fstest.MapFile{Data: out}
}

func sysFind(t *testing.T, rs []tables.Receipt, id string) *tables.Receipt {
	t.Helper()
	for i := range rs {
		if rs[i].SessionID == id {
			return &rs[i]
		}
	}
	t.Fatalf("no receipt %s", id)
	return nil
}

func shaHex(b []byte) string { return sum(b) }

// sysObs rewrites an investigation's observation log and keeps its
// receipt and its review's packet hash consistent with the new bytes. The
// token count is the recorder's: a larger count than bytes is allowed here
// by padding the response of the last observation.
func sysObs(t *testing.T, f fstest.MapFS, session string, edit func(*tables.ObservationLog)) {
	t.Helper()
	path := "observations/" + session + ".json"
	var l tables.ObservationLog
	if err := json.Unmarshal(f[path].Data, &l); err != nil {
		t.Fatal(err)
	}
	edit(&l)
	data, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if pad := l.PacketTokens - int64(len(data)); pad > 0 { // keep tokens <= bytes for a byte-level tokenizer
		last := &l.Observations[len(l.Observations)-1]
		last.Response += strings.Repeat(" ", int(pad))
		if data, err = json.Marshal(l); err != nil {
			t.Fatal(err)
		}
	}
	f[path] = &fstest.MapFile{Data: data}
	sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
		r := sysFind(t, rs, session)
		r.Observations.SHA256, r.Observations.Bytes = sum(data), int64(len(data))
		for i := range rs {
			if rs[i].Inputs.DraftSessionID != nil && *rs[i].Inputs.DraftSessionID == session {
				rs[i].Inputs.PacketSHA256 = sum(data)
			}
		}
		return rs
	})
	restampReviews(t, f, session)
}

// restampReviews makes the reviews of investigation session declare the
// rendering of their edited inputs, so that an edit of the observation
// log breaks only the rule under test. The rendering rule itself is tested
// against a hand rendering in render_test.go.
func restampReviews(t *testing.T, f fstest.MapFS, session string) {
	t.Helper()
	c, found := load.Campaign(f, "example")
	if c == nil {
		t.Fatal(found)
	}
	v := newRunner(c, load.Answers(c))
	rs := c.Receipts.Collect()
	for i := range rs {
		v.noteReceipt(&rs[i].Record) // as the pass notes them
	}
	renderings := map[string]tables.Rendering{}
	for i := range rs {
		r := &rs[i].Record
		if r.Role == tables.RoleReview && deref(r.Inputs.DraftSessionID) == session && r.Status != tables.StatusNotDispatched {
			rend, err := v.render(r)
			if err != nil {
				t.Fatal(err)
			}
			renderings[r.SessionID] = rend
		}
	}
	sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
		for i := range rs {
			if rend, ok := renderings[rs[i].SessionID]; ok {
				rs[i].Inputs.RenderedSHA256, rs[i].Inputs.RenderedBytes = rend.SHA256, rend.Bytes
				rs[i].Inputs.DataBlocks = nil
				for _, p := range rend.Parts {
					if p.Kind == tables.PartKindData {
						rs[i].Inputs.DataBlocks = append(rs[i].Inputs.DataBlocks, tables.BlockDigest{Label: p.ID, SHA256: p.SHA256, Bytes: p.Bytes})
					}
				}
			}
		}
		return rs
	})
}
