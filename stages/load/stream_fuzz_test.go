package load

import (
	"reflect"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The one-pass decoder against the two-pass one it replaced (decodeTree):
// on any bytes, for each published schema with a Go type, both accept or
// refuse alike, report the same findings and decode the same value. The
// only difference allowed is the order in which findings are found (an
// array's count is known only at its end when streaming), so findings are
// compared sorted; documents under a hundred findings of a code are not
// capped, and the fuzzer's are.

// streamTypes are the schemas compared, each with a new value of its type.
var streamTypes = []struct {
	schema string
	value  func() any
}{
	{"answer", func() any { return new(tables.Answer) }},
	{"manifest", func() any { return new(tables.Manifest) }},
	{"manifest-v2", func() any { return new(tables.Manifest) }},
	{"schedule", func() any { return new(tables.ScheduleLine) }},
	{"packet", func() any { return new(tables.Packet) }},
	{"truth", func() any { return new(tables.Truth) }},
	{"receipt", func() any { return new(tables.Receipt) }},
	{"adjudication", func() any { return new(tables.Adjudication) }},
	{"observations", func() any { return new(tables.ObservationLog) }},
	{"review", func() any { return new(tables.Review) }},
	{"cases", func() any { return new(tables.Cases) }},
	{"inventory", func() any { return new(tables.Inventory) }},
	{"finding-adjudication", func() any { return new(tables.FindingAdjudication) }},
}

func FuzzDecodeStreamOracle(f *testing.F) {
	fx := newFixture()
	m := fx.manifest
	seeds := map[string]any{
		"answer": validAnswer(), "manifest": m, "packet": fx.packet, "truth": fx.truth,
		"receipt": fx.receipts[0], "adjudication": fx.adjs[0],
		"schedule": tables.ScheduleLine{Format: tables.FormatSchedule, Slot: m.Design.Schedule[0]},
	}
	for i, st := range streamTypes {
		if v, ok := seeds[st.schema]; ok {
			f.Add(uint8(i), seedOf(f, v))
		}
		f.Add(uint8(i), []byte(`{}`))
	}
	f.Add(uint8(0), []byte(`{"final":{"claims":[null,1,"x",{"id":"C1"}]},"reconciliation":{"a":[[[]]]}}`))
	f.Add(uint8(6), []byte(`{"format":"evalgate.receipt/v1","meter":{"usage":{"a":[1,2]}},"x":1} `))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		st := streamTypes[int(which)%len(streamTypes)]
		at := position{file: "f", line: 1}
		var sinkA, sinkB rules.FindingCap
		a, b, c, zero := st.value(), st.value(), st.value(), st.value()
		okA, foundA := decodeStream(data, st.schema, at, a, &sinkA, newInterner(0))
		var sinkC rules.FindingCap
		okC, _ := decodeStreamTo(data, st.schema, at, c, &sinkC, newInterner(0), true) // in place
		okB, foundB := decodeTree(data, st.schema, at, b, &sinkB)
		sortA, sortB := slices.Clone(foundA), slices.Clone(foundB)
		sortA.Sort()
		sortB.Sort()
		switch {
		case okA != okB:
			t.Fatalf("%s: stream ok %v, tree ok %v\nstream %v\ntree   %v", st.schema, okA, okB, sortA, sortB)
		case !reflect.DeepEqual(sortA, sortB):
			t.Fatalf("%s: findings differ\nstream %v\ntree   %v", st.schema, sortA, sortB)
		case !reflect.DeepEqual(sinkA.Findings(), sinkB.Findings()):
			t.Fatalf("%s: sink findings differ", st.schema)
		case okA && !reflect.DeepEqual(a, b):
			t.Fatalf("%s: decoded values differ\nstream %#v\ntree   %#v", st.schema, a, b)
		case okC != okA || okC && !reflect.DeepEqual(c, a) || !okC && !reflect.DeepEqual(c, zero):
			t.Fatalf("%s: decoded in place: ok %v, %#v", st.schema, okC, c)
		}
	})
}
