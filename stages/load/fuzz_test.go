package load

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// checkFindings fails on a finding without code or message.
func checkFindings(t *testing.T, findings rules.Findings) {
	for _, f := range findings {
		if f.Code == "" || f.Message == "" {
			t.Fatalf("finding without code or message: %#v", f)
		}
	}
}

// roundTrip re-encodes a cleanly decoded value and decodes it again with
// decode: the result must be clean, equal, and re-encode to the same bytes.
func roundTrip[T any](t *testing.T, v *T, decode func([]byte) (*T, rules.Findings)) {
	b1, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("re-encode: %v", err)
	}
	v2, findings := decode(b1)
	if v2 == nil || len(findings) != 0 {
		t.Fatalf("re-decode of %s: %v", b1, findings)
	}
	b2, err := json.Marshal(v2)
	if err != nil || !bytes.Equal(b1, b2) {
		t.Fatalf("re-encode differs:\n%s\n%s", b1, b2)
	}
	if !reflect.DeepEqual(v, v2) && !bytes.Contains(b1, []byte(`"usage"`)) {
		t.Fatalf("re-decoded value differs")
	}
}

// docDecoder decodes one document of the named schema the way Campaign does.
func docDecoder[T any](schema string) func([]byte) (*T, rules.Findings) {
	return func(data []byte) (*T, rules.Findings) {
		var v T
		ok, findings := decodeDoc(data, schema, position{file: "f", line: 1}, &v)
		if !ok || findings.Rejected() {
			return nil, findings
		}
		return &v, findings
	}
}

func fuzzDoc[T any](f *testing.F, decode func([]byte) (*T, rules.Findings), seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte("[\"\xff\"]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, findings := decode(data)
		checkFindings(t, findings)
		if v != nil {
			roundTrip(t, v, decode)
		}
	})
}

func seedOf(f *testing.F, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

func FuzzAnswer(f *testing.F) {
	fuzzDoc(f, func(d []byte) (*tables.Answer, rules.Findings) { return Answer("a.json", d) }, seedOf(f, validAnswer()))
}

func FuzzManifest(f *testing.F) {
	m := newFixture().manifest
	h := tables.SchemaSHA256("answer")
	m.Prompts[0].SHA256, m.Prompts[1].SHA256 = h, h
	t := &m.Design.Tasks[0]
	t.TaskSHA256, t.PacketSHA256, t.TruthSHA256 = h, h, h
	fuzzDoc(f, docDecoder[tables.Manifest]("manifest"), seedOf(f, m))
}

func FuzzPacket(f *testing.F) {
	fuzzDoc(f, docDecoder[tables.Packet]("packet"), seedOf(f, newFixture().packet))
}

func FuzzTruth(f *testing.F) {
	fuzzDoc(f, docDecoder[tables.Truth]("truth"), seedOf(f, newFixture().truth))
}

func FuzzReceiptLine(f *testing.F) {
	fuzzDoc(f, docDecoder[tables.Receipt]("receipt"), seedOf(f, newFixture().receipts[0]))
}

func FuzzAdjudicationLine(f *testing.F) {
	fuzzDoc(f, docDecoder[tables.Adjudication]("adjudication"), seedOf(f, newFixture().adjs[0]))
}
