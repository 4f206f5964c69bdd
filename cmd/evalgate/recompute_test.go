package main

// An independent recomputation of a paired-review campaign from its raw
// files. It reads manifest.json, the packets and truth files, receipts.jsonl,
// the answers and adjudications.jsonl with encoding/json into small local
// structs and recomputes, from rules A6, A8, G2 and G7 alone, every
// run's R and U, task medians, macro-averages, gains, reference costs, the
// cost and time ratios, every gate and the decision. It calls nothing in
// stages/ and reads none of the pipeline's intermediate tables: the point
// is that two implementations written apart agree.
//
// Scope: the rules the example campaign exercises. Answer validity is
// checked by a deliberately small subset of V3–V6 (JSON syntax, a final
// object, no trailing data, citation coordinates inside the packet item,
// links resolving in the final answer, the disposition set equal to the
// packet set: recompute_answer_test.go); meters are read in the
// openai.responses shape only. Gates and the decision are in
// recompute_gates_test.go, the CLI run and the comparison in
// recompute_compare_test.go.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// ---- raw input shapes (only the fields the recomputation needs) ----

type rcManifest struct {
	RateCards []struct {
		ID     string `json:"id"`
		Prices struct {
			UncachedInput string  `json:"uncached_input"`
			CachedInput   *string `json:"cached_input"`
			Output        string  `json:"output"`
		} `json:"prices"`
	} `json:"rate_cards"`
	Ceilings struct {
		Session struct {
			WallMS       int64 `json:"wall_ms"`
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
		} `json:"session"`
	} `json:"ceilings"`
	Design struct {
		Arms []struct {
			ID             string `json:"id"`
			Reconciliation bool   `json:"reconciliation"`
		} `json:"arms"`
		Tasks []struct {
			ID         string `json:"id"`
			Split      string `json:"split"`
			PacketPath string `json:"packet_path"`
			TruthPath  string `json:"truth_path"`
		} `json:"tasks"`
		Schedule []struct {
			Task       string `json:"task"`
			Repetition int64  `json:"repetition"`
		} `json:"schedule"`
	} `json:"design"`
	GatePolicy struct {
		Custom     string                         `json:"custom"`
		Thresholds []struct{ Name, Value string } `json:"thresholds"`
	} `json:"gate_policy"`
}

type rcPacket struct {
	Items []struct {
		ID        string `json:"id"`
		Path      string `json:"path"`
		StartLine int64  `json:"start_line"`
		EndLine   int64  `json:"end_line"`
	} `json:"items"`
}

type rcTruth struct {
	Obligations []struct {
		ID         string `json:"id"`
		Critical   bool   `json:"critical"`
		Answerable bool   `json:"answerable"`
	} `json:"obligations"`
}

type rcReceipt struct {
	SessionID  string     `json:"session_id"`
	TaskID     string     `json:"task_id"`
	Repetition int64      `json:"repetition"`
	Role       string     `json:"role"`
	Arm        *string    `json:"arm"`
	Status     string     `json:"status"`
	StartedAt  time.Time  `json:"started_at"`
	EndedAt    *time.Time `json:"ended_at"`
	MonoStart  *int64     `json:"monotonic_start_ns"`
	MonoEnd    *int64     `json:"monotonic_end_ns"`
	Output     *struct {
		Path string `json:"path"`
	} `json:"output"`
	Meter *struct {
		Shape    string `json:"shape"`
		RateCard string `json:"rate_card"`
		Usage    struct {
			InputTokens  int64 `json:"input_tokens"`
			InputDetails struct {
				Cached int64 `json:"cached_tokens"`
			} `json:"input_tokens_details"`
			OutputTokens int64 `json:"output_tokens"`
		} `json:"usage"`
	} `json:"meter"`
	ToolCalls []struct {
		Charge *string `json:"charge"`
	} `json:"tool_calls"`
	ValidationMS int64 `json:"validation_ms"`
}

type rcRating struct {
	SessionID   string `json:"session_id"`
	RaterRole   string `json:"rater_role"`
	Obligations []struct {
		ID      string `json:"obligation_id"`
		Outcome string `json:"outcome"`
	} `json:"obligations"`
	Citations []struct {
		Index    int64 `json:"index"`
		Supports bool  `json:"supports"`
	} `json:"citations"`
	CriticalWrong     int64 `json:"critical_wrong_claims"`
	Wrong             int64 `json:"wrong_claims"`
	Unsupported       int64 `json:"unsupported_claims"`
	FalseCompleteness int64 `json:"false_completeness_claims"`
	WrongExclusions   int64 `json:"wrong_exclusions"`
}

// rcCampaign is a campaign decoded by the recomputation.
type rcCampaign struct {
	m        rcManifest
	packets  map[string]rcPacket
	truths   map[string]rcTruth
	receipts map[string]rcReceipt // "task/rep/role/arm" → latest line
	ratings  map[string][]rcRating
	dir      string
}

func rcReadJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func rcReadLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

func rcKey(task string, rep int64, role, arm string) string {
	return fmt.Sprintf("%s/%d/%s/%s", task, rep, role, arm)
}

// rcDecode reads the raw files of the campaign directory dir.
func rcDecode(t *testing.T, dir string) *rcCampaign {
	t.Helper()
	c := &rcCampaign{dir: dir, packets: map[string]rcPacket{}, truths: map[string]rcTruth{},
		receipts: map[string]rcReceipt{}, ratings: map[string][]rcRating{}}
	rcReadJSON(t, filepath.Join(dir, "manifest.json"), &c.m)
	for _, task := range c.m.Design.Tasks {
		var p rcPacket
		var tr rcTruth
		rcReadJSON(t, filepath.Join(dir, task.PacketPath), &p)
		rcReadJSON(t, filepath.Join(dir, task.TruthPath), &tr)
		c.packets[task.ID], c.truths[task.ID] = p, tr
	}
	for _, r := range rcReadLines[rcReceipt](t, filepath.Join(dir, "receipts.jsonl")) {
		arm := ""
		if r.Arm != nil {
			arm = *r.Arm
		}
		c.receipts[rcKey(r.TaskID, r.Repetition, r.Role, arm)] = r // one attempt each in these campaigns
	}
	for _, a := range rcReadLines[rcRating](t, filepath.Join(dir, "adjudications.jsonl")) {
		c.ratings[a.SessionID] = append(c.ratings[a.SessionID], a)
	}
	return c
}

// ---- per-run recomputation ----

// rcRun is one recomputed (task, repetition, arm) run.
type rcRun struct {
	task, arm                  string
	rep                        int64
	scored                     bool
	rNum, rDen, uNum, uDen     int64
	critical                   int64
	completionFailed           bool
	sourceGate, protocolGate   bool
	cost, reviewCost, ns       *big.Rat // currency units; nanoseconds
	draftSession, reviewSessID string
}

func (r rcRun) name() string { return fmt.Sprintf("%s/r%d", r.task, r.rep) }

// sessionCost is (p_u·uncached + p_c·cached + p_o·output)/10^6 plus tool
// charges, exactly; nil when the session has no meter.
func (c *rcCampaign) sessionCost(t *testing.T, r rcReceipt) *big.Rat {
	if r.Meter == nil {
		return new(big.Rat)
	}
	for _, card := range c.m.RateCards {
		if card.ID != r.Meter.RateCard {
			continue
		}
		if r.Meter.Shape != "openai.responses" || card.Prices.CachedInput == nil {
			t.Fatalf("recompute: session %s: meter shape %s not supported here", r.SessionID, r.Meter.Shape)
		}
		u := r.Meter.Usage
		sum := new(big.Rat)
		for _, term := range []struct {
			price  string
			tokens int64
		}{{card.Prices.UncachedInput, u.InputTokens - u.InputDetails.Cached}, {*card.Prices.CachedInput, u.InputDetails.Cached}, {card.Prices.Output, u.OutputTokens}} {
			sum.Add(sum, new(big.Rat).Mul(rcRat(t, term.price), big.NewRat(term.tokens, 1)))
		}
		sum.Quo(sum, big.NewRat(1_000_000, 1))
		for _, tc := range r.ToolCalls {
			sum.Add(sum, rcRat(t, *tc.Charge))
		}
		return sum
	}
	t.Fatalf("recompute: session %s: unknown rate card", r.SessionID)
	return nil
}

// rcSessionNS is the monotonic (else UTC) duration plus validation time.
func rcSessionNS(r rcReceipt) int64 {
	var d int64
	switch {
	case r.MonoStart != nil && r.MonoEnd != nil:
		d = *r.MonoEnd - *r.MonoStart
	case r.EndedAt != nil:
		d = r.EndedAt.Sub(r.StartedAt).Nanoseconds()
	}
	return d + r.ValidationMS*1_000_000
}

func rcRat(t *testing.T, s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("recompute: %q is not a decimal", s)
	}
	return r
}

// rcSettled is the first primary when both primaries agree on
// everything, else the adjudicator's record; nil when unsettled.
func rcSettled(rs []rcRating) *rcRating {
	var prim []rcRating
	var adj *rcRating
	for i := range rs {
		if rs[i].RaterRole == "primary" && len(prim) < 2 {
			prim = append(prim, rs[i])
		} else if rs[i].RaterRole == "adjudicator" && adj == nil {
			adj = &rs[i]
		}
	}
	if len(prim) < 2 {
		return nil
	}
	if rcSameRating(prim[0], prim[1]) {
		return &prim[0]
	}
	return adj
}

// rcSameRating compares two ratings as sets of judgments, whatever their
// order in the file.
func rcSameRating(a, b rcRating) bool {
	counts := func(r rcRating) [5]int64 {
		return [5]int64{r.CriticalWrong, r.Wrong, r.Unsupported, r.FalseCompleteness, r.WrongExclusions}
	}
	judged := func(r rcRating) string {
		var parts []string
		for _, o := range r.Obligations {
			parts = append(parts, o.ID+"="+o.Outcome)
		}
		for _, c := range r.Citations {
			parts = append(parts, fmt.Sprintf("#%d=%t", c.Index, c.Supports))
		}
		slices.Sort(parts)
		return strings.Join(parts, ",")
	}
	return counts(a) == counts(b) && judged(a) == judged(b)
}

// recomputeRuns scores every planned run (schedule × arms).
func (c *rcCampaign) recomputeRuns(t *testing.T) []rcRun {
	var runs []rcRun
	for _, slot := range c.m.Design.Schedule {
		truth := c.truths[slot.Task]
		for _, arm := range c.m.Design.Arms {
			draft := c.receipts[rcKey(slot.Task, slot.Repetition, "draft", "")]
			review := c.receipts[rcKey(slot.Task, slot.Repetition, "review", arm.ID)]
			run := rcRun{task: slot.Task, rep: slot.Repetition, arm: arm.ID, draftSession: draft.SessionID, reviewSessID: review.SessionID}
			var critical int64
			for _, o := range truth.Obligations {
				if o.Answerable {
					run.rDen++
				} else {
					run.uDen++
				}
				if o.Critical {
					critical++
				}
			}
			draftOK := c.checkAnswer(t, slot.Task, draft, false).finalValid
			ans := c.checkAnswer(t, slot.Task, review, arm.Reconciliation)
			dc, dns := c.sessionCost(t, draft), rcSessionNS(draft)
			switch {
			case !draftOK: // C23: the workflow is the draft alone
				run.cost, run.reviewCost, run.ns = dc, new(big.Rat), big.NewRat(dns, 1)
			default:
				rc := c.sessionCost(t, review)
				run.cost, run.reviewCost = new(big.Rat).Add(dc, rc), rc
				run.ns = big.NewRat(dns+rcSessionNS(review), 1)
			}
			if !draftOK || !ans.finalValid { // R=0, U=0, every critical obligation failed
				run.scored, run.completionFailed, run.critical = true, true, critical
				runs = append(runs, run)
				continue
			}
			c.scoreFromRating(&run, truth, rcSettled(c.ratings[review.SessionID]), ans)
			runs = append(runs, run)
		}
	}
	sort.Slice(runs, func(i, j int) bool { return rcRunKey(runs[i]) < rcRunKey(runs[j]) })
	return runs
}

func rcRunKey(r rcRun) string { return fmt.Sprintf("%s/%04d/%s", r.task, r.rep, r.arm) }

func (c *rcCampaign) scoreFromRating(run *rcRun, truth rcTruth, a *rcRating, ans rcAnswerCheck) {
	if a == nil {
		return // unrated: unscored, never zero
	}
	got := map[string]string{}
	for _, o := range a.Obligations {
		got[o.ID] = o.Outcome
	}
	for _, o := range truth.Obligations {
		switch {
		case o.Answerable && got[o.ID] == "addressed":
			run.rNum++
		case !o.Answerable && got[o.ID] == "unknown_credited":
			run.uNum++
		case o.Critical:
			run.critical++
		}
	}
	run.critical += a.CriticalWrong
	supported := true
	for _, ci := range a.Citations {
		supported = supported && ci.Supports
	}
	run.scored = true
	run.sourceGate = ans.citationsValid && supported && a.CriticalWrong == 0 && a.Unsupported == 0 && a.FalseCompleteness == 0
	run.protocolGate = ans.finalValid && ans.reconValid
}
