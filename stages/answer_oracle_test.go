package stages

import (
	stdjson "encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
)

// CheckAnswer against a naive reference for a few rules of the response
// contract, decided here from encoding/json's generic decoding alone: the
// size cap, JSON validity, claim IDs unique, claim text trimmed.

// shapeBreaking are the findings after which the answer is not decoded
// any further, so the later rules cannot be expected.
var shapeBreaking = []rules.Code{
	rules.CodeTooLarge, rules.CodeJSONSyntax, rules.CodeTrailingData, rules.CodeDuplicateKey,
	rules.CodeInvalidUTF8, rules.CodeTooDeep, rules.CodeWrongType, rules.CodeNullHole,
	rules.CodeMissingKey, rules.CodeUnknownKey, rules.CodeNumberNotInteger, rules.CodeNumberOutOfRange,
	rules.CodeLineInvalid, rules.CodeTimestampInvalid, rules.CodeTooManyItems,
}

// naiveClaims returns the claims of a generically decoded answer's final.
func naiveClaims(data []byte) ([]map[string]any, bool) {
	var top map[string]any
	if stdjson.Unmarshal(data, &top) != nil {
		return nil, false
	}
	final, _ := top["final"].(map[string]any)
	list, _ := final["claims"].([]any)
	var claims []map[string]any
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			claims = append(claims, m)
		}
	}
	return claims, true
}

func FuzzCheckAnswerOracle(f *testing.F) {
	entries, _ := os.ReadDir(answersDir)
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(answersDir, e.Name())); err == nil {
			f.Add(data)
			for _, v := range brokenClaims(data) {
				f.Add(v)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := CheckAnswer("a.json", data, "review")
		has := func(c rules.Code) bool {
			return slices.ContainsFunc(got, func(fd rules.Finding) bool { return fd.Code == c })
		}
		if len(data) > load.MaxAnswerBytes {
			if !has(rules.CodeTooLarge) {
				t.Fatalf("an answer of %d bytes is not too_large: %v", len(data), codesOf(got))
			}
			return
		}
		if !stdjson.Valid(data) && len(got) == 0 {
			t.Fatalf("invalid JSON %q passes", data)
		}
		if slices.ContainsFunc(shapeBreaking, has) {
			return
		}
		claims, ok := naiveClaims(data)
		if !ok {
			return
		}
		seen := map[string]bool{}
		for _, c := range claims {
			id, _ := c["id"].(string)
			if seen[id] && !has(rules.CodeDuplicateID) {
				t.Fatalf("claim ID %q repeats but no duplicate_id: %v", id, codesOf(got))
			}
			seen[id] = true
			if text, ok := c["text"].(string); ok && text != "" && strings.TrimSpace(text) != text && !has(rules.CodeTextUntrimmed) {
				t.Fatalf("claim text %q is untrimmed but no text_untrimmed: %v", text, codesOf(got))
			}
		}
	})
}

// brokenClaims returns variants of an answer breaking one reference rule
// each: the second claim repeats the first's ID; the first claim's text is
// untrimmed.
func brokenClaims(data []byte) [][]byte {
	var out [][]byte
	for variant := range 2 {
		var top map[string]any
		if stdjson.Unmarshal(data, &top) != nil {
			return nil
		}
		final, _ := top["final"].(map[string]any)
		claims, _ := final["claims"].([]any)
		if len(claims) < 2 {
			return nil
		}
		first, _ := claims[0].(map[string]any)
		second, _ := claims[1].(map[string]any)
		if first == nil || second == nil {
			return nil
		}
		if variant == 0 {
			second["id"] = first["id"]
		} else if text, ok := first["text"].(string); ok {
			first["text"] = " " + text
		}
		if b, err := stdjson.Marshal(top); err == nil {
			out = append(out, b)
		}
	}
	return out
}
