package main

// The recomputation's own small answer check (see recompute_test.go).

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// ---- answers: a small, independent structural check ----

type rcAnswer struct {
	Final *struct {
		Claims []struct {
			ID string `json:"id"`
		} `json:"claims"`
		Plan []struct {
			ID string `json:"id"`
		} `json:"implementation_plan"`
		Verification []struct {
			ID string `json:"id"`
		} `json:"verification_plan"`
		Uncertainties []struct {
			ID string `json:"id"`
		} `json:"uncertainties"`
		Exclusions []struct {
			ID string `json:"id"`
		} `json:"exclusions"`
		Citations []struct {
			EvidenceID string   `json:"evidence_id"`
			Path       string   `json:"path"`
			Start      int64    `json:"start_line"`
			End        int64    `json:"end_line"`
			Supports   []string `json:"supports"`
		} `json:"citations"`
	} `json:"final"`
	Reconciliation *struct {
		Obligations []struct {
			FinalIDs []string `json:"final_ids"`
		} `json:"obligations"`
		Dispositions []struct {
			EvidenceID string   `json:"evidence_id"`
			FinalIDs   []string `json:"final_ids"`
		} `json:"evidence_dispositions"`
	} `json:"reconciliation"`
}

// rcAnswerCheck is what the recomputation knows about one returned answer.
type rcAnswerCheck struct {
	finalValid, reconValid, citationsValid bool
	citations                              int
}

func (c *rcCampaign) checkAnswer(t *testing.T, task string, rec rcReceipt, reconciliation bool) rcAnswerCheck {
	if rec.Status != "response" || rec.Output == nil {
		return rcAnswerCheck{}
	}
	data, err := os.ReadFile(filepath.Join(c.dir, rec.Output.Path))
	if err != nil {
		t.Fatal(err)
	}
	var a rcAnswer
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&a); err != nil || a.Final == nil || dec.More() {
		return rcAnswerCheck{}
	}
	ids := map[string]bool{}
	for _, list := range [][]struct {
		ID string `json:"id"`
	}{a.Final.Claims, a.Final.Plan, a.Final.Verification, a.Final.Uncertainties, a.Final.Exclusions} {
		for _, r := range list {
			ids[r.ID] = true
		}
	}
	items := map[string]int{}
	for i, it := range c.packets[task].Items {
		items[it.ID] = i
	}
	out := rcAnswerCheck{finalValid: true, citationsValid: true, citations: len(a.Final.Citations)}
	for _, ci := range a.Final.Citations {
		i, ok := items[ci.EvidenceID]
		if !ok {
			out.citationsValid = false
			continue
		}
		it := c.packets[task].Items[i]
		if ci.Path != it.Path || ci.Start < it.StartLine || ci.End > it.EndLine || ci.Start > ci.End {
			out.citationsValid = false
		}
		for _, s := range ci.Supports {
			out.finalValid = out.finalValid && ids[s]
		}
	}
	if !reconciliation {
		out.reconValid = a.Reconciliation == nil
		return out
	}
	if a.Reconciliation == nil {
		return out
	}
	out.reconValid = true
	seen := map[string]bool{}
	for _, d := range a.Reconciliation.Dispositions {
		_, known := items[d.EvidenceID]
		out.reconValid = out.reconValid && known && !seen[d.EvidenceID] && rcAllIn(d.FinalIDs, ids)
		seen[d.EvidenceID] = true
	}
	for _, o := range a.Reconciliation.Obligations {
		out.reconValid = out.reconValid && rcAllIn(o.FinalIDs, ids)
	}
	out.reconValid = out.reconValid && len(seen) == len(items)
	return out
}

func rcAllIn(xs []string, set map[string]bool) bool {
	for _, x := range xs {
		if !set[x] {
			return false
		}
	}
	return len(xs) > 0
}
