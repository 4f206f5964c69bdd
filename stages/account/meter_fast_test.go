package account

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
)

// refUnmarshal is decoder.unmarshal without its fast path: the json
// package alone.
func refUnmarshal(d *decoder, usage []byte, v any) bool {
	if len(usage) == 0 || jsontext.Value(usage).Kind() != '{' {
		d.add(rules.CodeMeterMalformed, "", "The meter's usage is not a JSON object.")
		return false
	}
	return d.jsonUnmarshal(usage, v)
}

// usageText writes a random usage object for tab: mostly the plain form
// the fast path takes, sometimes with one of the forms it leaves to the
// json package.
func usageText(r *rand.Rand, tab *usageTable) string {
	ws := func() string { return []string{"", "", "", " ", "\n  ", "\t", "\r\n"}[r.IntN(7)] }
	count := func() string {
		if r.IntN(12) == 0 {
			return []string{"-1", "-0", "1.0", "1e3", "01", "null", "9223372036854775808", "9223372036854775807", `"5"`, "{}", "[]", "true", "1E2", "0.5", "18446744073709551616"}[r.IntN(15)]
		}
		return []string{"0", "1", "7", "1234", "1000000000000000", "9223372036854775807"}[r.IntN(6)]
	}
	name := func(n string) string {
		switch r.IntN(40) {
		case 0:
			return strings.ToUpper(n)
		case 1:
			return strings.Replace(n, "_", `\u005f`, 1)
		case 2:
			return n + "x"
		}
		return n
	}
	object := func(names []string, value func(string) string) string {
		var b strings.Builder
		b.WriteString(ws() + "{")
		r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		k := r.IntN(len(names) + 1)
		if r.IntN(3) == 0 {
			k = len(names)
		}
		picked := names[:k]
		if k > 0 && r.IntN(25) == 0 {
			picked = append(picked, picked[0]) // a repeated member
		}
		for i, n := range picked {
			if i > 0 {
				b.WriteString(ws() + ",")
			}
			b.WriteString(ws() + `"` + name(n) + `"` + ws() + ":" + ws() + value(n))
		}
		b.WriteString(ws() + "}" + ws())
		return b.String()
	}
	var top []string
	for _, m := range tab.members {
		top = append(top, m.name)
	}
	sort.Strings(top)
	s := object(top, func(n string) string {
		m := tab.member([]byte(n))
		if !m.object {
			return count()
		}
		if r.IntN(15) == 0 {
			return []string{"null", "5", "[]"}[r.IntN(3)]
		}
		var inner []string
		for _, l := range m.nested {
			inner = append(inner, l.name)
		}
		sort.Strings(inner)
		return object(inner, func(string) string { return count() })
	})
	switch r.IntN(30) {
	case 0:
		s += "x"
	case 1:
		s = s[:len(s)/2]
	case 2:
		s += "{}"
	}
	return s
}

func checkShape[T any](t *testing.T, r *rand.Rand, eligible bool) {
	t.Helper()
	tab := usageTableOf(reflect.TypeFor[T]())
	if (tab != nil) != eligible {
		t.Fatalf("%v: fast path %v, want %v", reflect.TypeFor[T](), tab != nil, eligible)
	}
	if tab == nil {
		return
	}
	fast := 0
	for range 4000 {
		text := []byte(usageText(r, tab))
		var got, want T
		var dg, dw decoder
		okG, okW := dg.unmarshal(text, &got), refUnmarshal(&dw, text, &want)
		if okG != okW || !reflect.DeepEqual(dg.problems, dw.problems) || (okW && !reflect.DeepEqual(got, want)) {
			t.Fatalf("%v %s: unmarshal %v %+v %+v, json %v %+v %+v", reflect.TypeFor[T](), text, okG, dg.problems, got, okW, dw.problems, want)
		}
		var probe T
		if fastUnmarshal(text, &probe) {
			fast++
			if !okW || !reflect.DeepEqual(probe, want) {
				t.Fatalf("%v %s: the fast path took a text the json package decodes otherwise", reflect.TypeFor[T](), text)
			}
		}
	}
	if fast < 1000 {
		t.Fatalf("%v: only %d texts took the fast path", reflect.TypeFor[T](), fast)
	}
}

// TestFastUsageMatchesJSON: the meter shapes of counts take the fast path, and
// decoder.unmarshal gives what the json package alone gives (values,
// success and problems) on plain usage objects and on texts with
// repeated, unknown, escaped or differently cased names, nulls, signs,
// fractions, exponents, counts beyond int64, nested non-objects, trailing
// bytes and truncation.
func TestFastUsageMatchesJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	checkShape[normalizedUsage](t, r, true)
	checkShape[responsesUsage](t, r, true)
	checkShape[chatUsage](t, r, true)
	checkShape[codexUsage](t, r, true)
	checkShape[codexTokenUsage](t, r, true)
	// Shapes with text or raw members are left to the json package.
	checkShape[anthropicUsage](t, r, false)
	checkShape[geminiUsage](t, r, false)
	checkShape[inspectUsage](t, r, false)
	checkShape[harborUsage](t, r, false)
}
