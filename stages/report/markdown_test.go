package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalgate/evalgate/tables"
)

func TestEscapeMarkdown(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "T1 r2", "T1 r2"},
		{"table_pipe", "a|b", `a\|b`},
		{"html", "<script>alert(1)</script>", `&lt;script&gt;alert\(1\)&lt;/script&gt;`},
		{"link", "[x](javascript:y)", `\[x\]\(javascript\:y\)`},
		{"heading_via_newline", "ok\n# owned", `ok \# owned`},
		{"emphasis_code", "*b* _i_ `c`", "\\*b\\* \\_i\\_ \\`c\\`"},
		{"entity", "&amp;", `&amp;amp;`},
		{"www_autolink", "see www.evil.com", `see www\.evil.com`},
		{"url_autolink", "http://x.y", `http\://x.y`},
		{"plain_punctuation_kept", "0.85 >= a-b", `0.85 &gt;= a-b`},
		{"bidi_override", "a\u202eb", "a b"},
		{"invalid_utf8", "a\xffb", "a\uFFFDb"},
		{"unicode_kept", "résumé 日本", "résumé 日本"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := escapeMarkdown(c.in); got != c.want {
				t.Errorf("escapeMarkdown(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// FuzzEscapeMarkdown checks that no input can break out of a table cell or
// start raw HTML: the output has no line break, no '<' or '>', no
// unescaped '|', and is valid UTF-8.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{"", "a|b", "<b>", "\\|", "x\r\ny", "\u2028", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := escapeMarkdown(s)
		if strings.ContainsAny(out, "\n\r<>\u2028\u2029") || !utf8.ValidString(out) {
			t.Fatalf("escapeMarkdown(%q) = %q", s, out)
		}
		for i := 0; i < len(out); i++ {
			if out[i] == '\\' {
				i++ // the escaped character
				continue
			}
			if out[i] == '|' {
				t.Fatalf("unescaped | in %q", out)
			}
		}
	})
}

func TestRenderMarkdown(t *testing.T) {
	s := fixtureSet(t)
	c := fixtureCampaign()
	md := string(RenderMarkdown(BuildScorecard(c, s, figuresOf(c, s), Meta{ToolVersion: "t"}), s))
	t.Run("synthetic_banner_first", func(t *testing.T) {
		if i := strings.Index(md, "SYNTHETIC"); i < 0 || i > strings.Index(md, "## Decision") {
			t.Error("no SYNTHETIC banner before the decision")
		}
	})
	t.Run("section_order", func(t *testing.T) {
		last := -1
		for _, h := range []string{"## Decision", "## Completion", "## Gates", "### Source and protocol correctness",
			"### Final evidence and plan correctness", "### Complete cost and time", "## Runs per task",
			"## Findings", "## Exploratory intervals (do not gate)"} {
			i := strings.Index(md, h)
			if i <= last {
				t.Errorf("%q at %d, not after %d", h, i, last)
			}
			last = i
		}
	})
	t.Run("decision", func(t *testing.T) {
		if !strings.Contains(md, "**do\\_not\\_advance** for arm B") {
			t.Error("decision line missing")
		}
	})
	t.Run("intervals_have_no_pass_marks", func(t *testing.T) {
		iv := md[strings.Index(md, "## Exploratory intervals"):]
		if strings.Contains(iv, "pass") || strings.Contains(iv, "FAIL") {
			t.Errorf("interval section carries a pass/fail mark:\n%s", iv)
		}
	})
	t.Run("gate_fail_marked", func(t *testing.T) {
		if !strings.Contains(md, "| FAIL |") {
			t.Error("failing gate not marked FAIL")
		}
	})
	t.Run("not_synthetic", func(t *testing.T) {
		c := fixtureCampaign()
		c.Manifest.Synthetic = false
		if md := RenderMarkdown(BuildScorecard(c, s, figuresOf(c, s), Meta{}), s); bytes.Contains(md, []byte("SYNTHETIC")) {
			t.Error("SYNTHETIC banner on a real campaign")
		}
	})
}

func TestRenderMarkdownEscapesInputs(t *testing.T) {
	hostile := "x|<img src=x onerror=alert(1)>\n# h"
	s := fixtureSet(t)
	s.Runs[0].TaskID = hostile
	s.Gates[0].Detail = hostile
	s.Decision[0].Reason = hostile
	s.Rejections = append(s.Rejections, tables.Finding{Code: "c", Severity: tables.Reject, Message: hostile})
	c := fixtureCampaign()
	c.Manifest.CampaignID = hostile
	md := string(RenderMarkdown(BuildScorecard(c, s, figuresOf(c, s), Meta{}), s))
	for _, bad := range []string{"<img", "\n# h", "x|"} {
		t.Run(bad, func(t *testing.T) {
			if strings.Contains(md, bad) {
				t.Errorf("report.md contains unescaped %q", bad)
			}
		})
	}
}

func TestRenderMarkdownFindingsCap(t *testing.T) {
	s := &tables.Set{}
	for i := range maxListedFindings + 3 {
		s.Rejections = append(s.Rejections, tables.Finding{Code: "c", Severity: tables.Warn, Line: int64(i + 1), File: "f"})
	}
	md := string(RenderMarkdown(BuildScorecard(nil, s, figuresOf(nil, s), Meta{}), s))
	if !strings.Contains(md, "… 3 more in rejections.parquet") {
		t.Error("no overflow line for the findings beyond the cap")
	}
}
