package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/internal/fixture"
	"github.com/evalgate/evalgate/stages/report/markdown"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

func TestRenderMarkdown(t *testing.T) {
	s := fixtureSet(t)
	c := fixtureCampaign()
	md := string(markdown.Render(scorecard.Build(c, s, figuresOf(c, s), "t"), s))
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
		if md := markdown.Render(scorecard.Build(c, s, figuresOf(c, s), ""), s); bytes.Contains(md, []byte("SYNTHETIC")) {
			t.Error("SYNTHETIC banner on a real campaign")
		}
	})
}

func TestRenderMarkdownEscapesInputs(t *testing.T) {
	hostile := "x|<img src=x onerror=alert(1)>\n# h"
	s := fixtureSet(t)
	fixture.EditRuns(s, func(runs []tables.Run) { runs[0].TaskID = hostile })
	s.Gates[0].Detail = hostile
	s.Decision[0].Reason = hostile
	s.Rejections = append(s.Rejections, rules.Finding{Code: "c", Severity: rules.Reject, Message: hostile})
	c := fixtureCampaign()
	c.Manifest.CampaignID = hostile
	md := string(markdown.Render(scorecard.Build(c, s, figuresOf(c, s), ""), s))
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
	for i := range scorecard.MaxListedFindings + 3 {
		s.Rejections = append(s.Rejections, rules.Finding{Code: "c", Severity: rules.Warn, Line: int64(i + 1), File: "f", Message: "m" + strconv.Itoa(i)})
	}
	md := string(markdown.Render(scorecard.Build(nil, s, figuresOf(nil, s), ""), s))
	if !strings.Contains(md, "… 3 more in campaign_findings.parquet") {
		t.Error("no overflow line for the findings beyond the cap")
	}
	// Findings alike but for their position are one line with their count.
	s.Rejections = nil
	for i := range scorecard.MaxListedFindings + 3 {
		s.Rejections = append(s.Rejections, rules.Finding{Code: "c", Severity: rules.Warn, Line: int64(i + 1), File: "f", Message: "m"})
	}
	md = string(markdown.Render(scorecard.Build(nil, s, figuresOf(nil, s), ""), s))
	want := fmt.Sprintf("- warn: f\\:1, f\\:2, f\\:3 and %d more\\: c\\: m \\(%d findings\\)\n", scorecard.MaxListedFindings, scorecard.MaxListedFindings+3)
	if !strings.Contains(md, want) || strings.Contains(md, "more in campaign_findings.parquet") {
		t.Errorf("repeated findings are not one line %q:\n%s", want, md)
	}
}
