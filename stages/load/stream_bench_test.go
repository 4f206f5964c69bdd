package load

import (
	"bufio"
	"bytes"
	"io/fs"
	"testing"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// BenchmarkDecodeAnswer decodes one answer of the paired-review example
// with the one-pass decoder (stream) and the two-pass one it replaced
// (tree): compare ns/op, B/op and allocs/op.
//
//	go test ./stages/load -run '^$' -bench DecodeAnswer -benchmem
func BenchmarkDecodeAnswer(b *testing.B) {
	fsys, _ := fixtures.Example("paired-review")
	data, err := fs.ReadFile(fsys, "answers/T1-r1-B.json")
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []struct {
		name   string
		decode func([]byte, string, position, any, *rules.FindingCap) (bool, rules.Findings)
	}{{"stream", func(data []byte, schema string, at position, out any, sink *rules.FindingCap) (bool, rules.Findings) {
		return decodeStream(data, schema, at, out, sink, nil)
	}}, {"tree", decodeTree}} {
		b.Run(d.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var a tables.Answer
				if ok, _ := d.decode(data, "answer", position{file: "a"}, &a, nil); !ok {
					b.Fatal("answer refused")
				}
			}
		})
	}
}

// BenchmarkDecodeReceipts decodes the paired-review example's receipts
// and ratings as a campaign's JSONL files are decoded (one interner for
// the campaign): compare ns/op, B/op and allocs/op.
//
//	go test ./stages/load -run '^$' -bench DecodeReceipts -benchmem
func BenchmarkDecodeReceipts(b *testing.B) {
	fsys, _ := fixtures.Example("paired-review")
	receipts, err := fs.ReadFile(fsys, "receipts.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	ratings, err := fs.ReadFile(fsys, "adjudications.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(receipts) + len(ratings)))
	for b.Loop() {
		l := &loader{}
		_, okR := decodeLines(l, bufio.NewReader(bytes.NewReader(receipts)), "receipts.jsonl", "receipt",
			func(r *tables.Receipt) string { return r.SessionID })
		_, okA := decodeLines(l, bufio.NewReader(bytes.NewReader(ratings)), "adjudications.jsonl", "adjudication",
			func(a *tables.Adjudication) string { return a.SessionID })
		if !okR || !okA || len(l.findings()) > 0 {
			b.Fatal("example refused")
		}
	}
}
