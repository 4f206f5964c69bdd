package load

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/tables"
)

// heldStrings counts the interner's occupied string slots.
func heldStrings(in *interner) int {
	n := 0
	for _, s := range in.strs {
		if s != "" {
			n++
		}
	}
	return n
}

// TestInternerBounded: a flood of unique strings and arrays replaces
// entries of the fixed tables instead of growing them, and a value seen
// again after the flood is shared again.
func TestInternerBounded(t *testing.T) {
	if got := len(newInterner(1 << 40).strs); got != maxInternSlots {
		t.Fatalf("a huge file gets %d slots, want the cap %d", got, maxInternSlots)
	}
	if got := len(newInterner(0).strs); got != 256 {
		t.Fatalf("an empty file gets %d slots, want 256", got)
	}
	in := newInterner(0)
	for i := range 10 * len(in.strs) {
		in.bytes(fmt.Appendf(nil, "unique-%d", i))
	}
	if n := heldStrings(in); n > len(in.strs) || len(in.strs) != 256 {
		t.Fatalf("after %d unique strings the table holds %d in %d slots", 10*256, n, len(in.strs))
	}
	a := in.bytes([]byte("T1"))
	b := in.bytes([]byte("T1"))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatal("a repeated string after the flood is not shared")
	}
	long := strings.Repeat("x", maxInternBytes+1)
	if in.bytes([]byte(long)) != long || heldStrings(in) > len(in.strs) {
		t.Fatal("a string over the length cap is not returned as read")
	}
	if got := len(newInterner(1 << 40).slices); got != maxSharedLists {
		t.Fatalf("a huge file gets %d slice slots, want the cap %d", got, maxSharedLists)
	}
	// an array over the byte cap gets a slice of its own and no slot
	elems := make([]string, 100)
	for i := range elems {
		elems[i] = strings.Repeat("y", 20)
	}
	raw := []byte(`["` + strings.Join(elems, `","`) + `"]`)
	scratch := reflect.New(reflect.TypeFor[[]string]()).Elem()
	scratch.Set(reflect.ValueOf(elems))
	var x, y []string
	in.list(reflect.ValueOf(&x).Elem(), scratch, raw)
	in.list(reflect.ValueOf(&y).Elem(), scratch, raw)
	if !slices.Equal(x, elems) || unsafe.SliceData(x) == unsafe.SliceData(y) || slices.ContainsFunc(in.slices, func(l sharedList) bool { return l.v != nil }) {
		t.Fatalf("an array of %d bytes (cap %d) was shared or kept", len(raw), maxSharedListBytes)
	}
	scratch.Set(reflect.ValueOf(elems[:2]))
	in.list(reflect.ValueOf(&x).Elem(), scratch, []byte(`["`+elems[0]+`","`+elems[1]+`"]`))
	in.list(reflect.ValueOf(&y).Elem(), scratch, []byte(`["`+elems[0]+`","`+elems[1]+`"]`))
	if len(x) != 2 || unsafe.SliceData(x) != unsafe.SliceData(y) || cap(x) != 2 {
		t.Fatal("a short array decoded twice is not shared at its length")
	}
}

// TestInternedCampaignOfUniqueStrings decodes ratings whose every tagged
// string is unique: the records decode as without the interner, and the
// table stays at its room.
func TestInternedCampaignOfUniqueStrings(t *testing.T) {
	fsys, _ := fixtures.Example("paired-review")
	data, err := fs.ReadFile(fsys, "adjudications.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	var file bytes.Buffer
	const lines = 2000
	for i := range lines {
		line := bytes.Replace(first, []byte(`"rater":"`), fmt.Appendf(nil, `"rater":"u%d-`, i), 1)
		line = bytes.ReplaceAll(line, []byte(`"obligation_id":"O`), fmt.Appendf(nil, `"obligation_id":"O%d`, i))
		file.Write(line)
		file.WriteByte('\n')
	}
	l := &loader{}
	records, whole := decodeLines(l, bufio.NewReader(&file), "adjudications.jsonl", "adjudication",
		func(a *tables.Adjudication) string { return a.SessionID })
	if !whole || len(records) != lines {
		t.Fatalf("%d of %d lines decoded (whole %v): %v", len(records), lines, whole, l.findings())
	}
	if n := heldStrings(l.intern); len(l.intern.strs) != 256 || n > 256 {
		t.Fatalf("the table holds %d strings in %d slots after %d unique ratings", n, len(l.intern.strs), lines)
	}
	for i, r := range records {
		if want := fmt.Sprintf("O%d1", i); r.Record.Obligations[0].ObligationID != want {
			t.Fatalf("line %d: obligation %q, want %q", i+1, r.Record.Obligations[0].ObligationID, want)
		}
	}
}

// TestInternedValuesShared: in the example's receipts, the tagged values
// repeated across records are one copy, and every record equals its
// decoding without the interner.
func TestInternedValuesShared(t *testing.T) {
	fsys, _ := fixtures.Example("paired-review")
	data, err := fs.ReadFile(fsys, "receipts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	decode := func(l *loader) []tables.Line[tables.Receipt] {
		records, whole := decodeLines(l, bufio.NewReader(bytes.NewReader(data)), "receipts.jsonl", "receipt",
			func(r *tables.Receipt) string { return r.SessionID })
		if !whole || len(l.findings()) > 0 {
			t.Fatalf("receipts not decoded: %v", l.findings())
		}
		return records
	}
	shared := decode(&loader{})
	plain := make([]tables.Line[tables.Receipt], len(shared))
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		plain[i].Line = int64(i + 1)
		if ok, found := decodeDoc(line, "receipt", position{file: "receipts.jsonl"}, &plain[i].Record); !ok || len(found) > 0 {
			t.Fatalf("line %d: %v", i+1, found)
		}
	}
	if !reflect.DeepEqual(shared, plain) {
		t.Fatal("interned receipts differ from receipts decoded without the interner")
	}
	byRole, byTask := map[string]*tables.Receipt{}, map[string]*tables.Receipt{}
	sharedTask, sharedPrompts := 0, 0
	for i := range shared {
		r := &shared[i].Record
		if o, ok := byRole[r.Role+armOf(r)]; ok && unsafe.SliceData(o.Inputs.PromptSHA256s) == unsafe.SliceData(r.Inputs.PromptSHA256s) {
			sharedPrompts++
		}
		if o, ok := byTask[r.TaskID]; ok && unsafe.StringData(o.Inputs.TaskSHA256) == unsafe.StringData(r.Inputs.TaskSHA256) {
			sharedTask++
		}
		if cap(r.Inputs.PromptSHA256s) != len(r.Inputs.PromptSHA256s) {
			t.Fatalf("%s: a shared slice has room past its length", r.SessionID)
		}
		byRole[r.Role+armOf(r)], byTask[r.TaskID] = r, r
	}
	if sharedPrompts == 0 || sharedTask == 0 {
		t.Fatalf("no value shared: prompt hash lists %d, task hashes %d", sharedPrompts, sharedTask)
	}
	drafts := map[string]*string{} // the draft_session_id of both arms of a pair: one pointer
	for i := range shared {
		d := shared[i].Record.Inputs.DraftSessionID
		if d == nil {
			continue
		}
		if first, ok := drafts[*d]; ok && first != d {
			t.Fatalf("%s: draft_session_id %q is not shared with its pair's", shared[i].Record.SessionID, *d)
		}
		drafts[*d] = d
	}
	if len(drafts) == 0 {
		t.Fatal("the example has no review naming its draft")
	}
}

func armOf(r *tables.Receipt) string {
	if r.Arm == nil {
		return ""
	}
	return *r.Arm
}
