package validate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalgate/evalgate/tables"
)

// The normalised label-leak check (rule G6: "Benchmark labels and lineage
// variants cannot leak into reviewer inputs"). An exact search is beaten
// by a trivial rewording, so every label and every reviewer input is
// compared in a normal form: letters lowercased, every run of anything
// that is not a letter or a digit (whitespace, punctuation, symbols) one
// space, and the text padded with a space at each end, so that a label
// matches only whole words. A defect description is searched whole and as
// each of its sentences and clauses of at least minFragmentWords words,
// so that a reviewer shown one substantive sentence of it (the rest
// dropped) has seen the answer key.

// minFragmentWords is the fewest words a sentence or clause of a defect
// description must have to be searched on its own: shorter fragments
// ("the tests") are common words, not a label.
const minFragmentWords = 4

// normalized appends the normal form of data to dst: " word word … ".
func normalized(dst, data []byte) []byte {
	dst = append(dst, ' ')
	space := true
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		data = data[n:]
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			dst, space = append(dst, byte(r)), false
		case r < utf8.RuneSelf && r >= 'A' && r <= 'Z':
			dst, space = append(dst, byte(r+'a'-'A')), false
		case r >= utf8.RuneSelf && r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			dst, space = utf8.AppendRune(dst, unicode.ToLower(r)), false
		case !space:
			dst, space = append(dst, ' '), true
		}
	}
	if !space {
		dst = append(dst, ' ')
	}
	return dst
}

// normalText is the normal form of s, or "" when s has no letter or digit.
func normalText(s string) string {
	n := string(normalized(nil, []byte(s)))
	if strings.TrimSpace(n) == "" {
		return ""
	}
	return n
}

// fragments splits a description into its sentences and clauses: at
// sentence ends (. ! ? followed by a space or the end) and at ; : and
// commas and dashes between words, keeping those of at least
// minFragmentWords words.
func fragments(text string) []string {
	var out []string
	add := func(s string) {
		if len(strings.Fields(normalText(s))) >= minFragmentWords {
			out = append(out, s)
		}
	}
	for _, sentence := range splitAfterAny(text, ".!?") {
		add(sentence)
		if parts := strings.FieldsFunc(sentence, func(r rune) bool { return strings.ContainsRune(";:,—–()", r) }); len(parts) > 1 {
			for _, p := range parts {
				add(p)
			}
		}
	}
	return out
}

// splitAfterAny splits text after every rune of seps that ends a
// sentence: followed by whitespace or the end of the text.
func splitAfterAny(text, seps string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if !strings.ContainsRune(seps, r) {
			continue
		}
		next := i + utf8.RuneLen(r)
		if next == len(text) || unicode.IsSpace(rune(text[next])) {
			out = append(out, text[start:next])
			start = next
		}
	}
	if strings.TrimSpace(text[start:]) != "" {
		out = append(out, text[start:])
	}
	return out
}

// benchLabels lists every label of every case of the benchmark, in case
// order, in normal form: case ID, variant name, expected location written
// path:start-end, the defect description and the mutation rationale whole
// and by their sentences and clauses. A text that is the same label of several cases is listed
// for each.
func benchLabels(cases []tables.Case) []label {
	var out []label
	add := func(caseID, what, text string) {
		if n := normalText(text); n != "" {
			out = append(out, label{caseID, what, n})
		}
	}
	for _, c := range cases {
		add(c.ID, "case ID", c.ID)
		if c.Variant != nil {
			add(c.ID, "variant name", *c.Variant)
		}
		if r := c.MutationRationale; r != nil {
			add(c.ID, "mutation rationale", *r)
			seen := map[string]bool{normalText(*r): true}
			for _, f := range fragments(*r) {
				if n := normalText(f); !seen[n] {
					seen[n] = true
					out = append(out, label{c.ID, "mutation rationale (a sentence or clause of it)", n})
				}
			}
		}
		if d := c.Defect; d != nil {
			add(c.ID, "expected location", fmt.Sprintf("%s:%d-%d", d.Location.Path, d.Location.StartLine, d.Location.EndLine))
			whole := normalText(d.Description)
			add(c.ID, "defect description", d.Description)
			seen := map[string]bool{whole: true}
			for _, f := range fragments(d.Description) {
				if n := normalText(f); !seen[n] {
					seen[n] = true
					out = append(out, label{c.ID, "defect description (a sentence or clause of it)", n})
				}
			}
		}
	}
	return out
}

// leaks groups the labels found in one input by their text: the first
// case that has it and how many other cases share it.
type leak struct {
	label
	others int
}

func groupLeaks(found []label) []leak {
	var out []leak
	at := map[string]int{}
	for _, l := range found {
		if i, ok := at[l.text]; ok {
			out[i].others++
			continue
		}
		at[l.text] = len(out)
		out = append(out, leak{label: l})
	}
	return out
}

// clipLabel bounds a label's text in a message.
func clipLabel(s string) string {
	if len(s) <= 80 {
		return s
	}
	cut := 80
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
