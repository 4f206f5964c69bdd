package load

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// loadManifest reads and checks manifest.json. It reports whether the
// manifest decoded, so that the files it names can be read.
func (l *loader) loadManifest() bool {
	data := l.readCapped(manifestFile, maxManifest)
	if data == nil {
		return false
	}
	l.c.ManifestSHA256 = sha256Hex(data)
	at := position{file: manifestFile}
	ok, findings := decodeDoc(data, manifestSchema(data), at, &l.c.Manifest)
	l.add(findings...)
	if !ok {
		return false
	}
	sched, whole := l.loadSchedule(&l.c.Manifest.Design, at)
	l.add(checkManifest(&l.c.Manifest, at, sched, whole)...)
	return true
}

// checkManifest runs the cross-checks that need only the manifest and its
// schedule (sched says where each slot was written; whole, that every slot
// was read, so that a missing one is a finding).
func checkManifest(m *tables.Manifest, at position, sched scheduleAt, whole bool) rules.Findings {
	out := checkKindSupported(m, at)
	out = append(out, checkPinnedConfiguration(m, at)...)
	if name, want := responseSchema(m.Kind); m.ResponseSchemaSHA256 != want {
		out = append(out, at.finding(rules.CodeResponseSchemaMismatch, "/response_schema_sha256",
			fmt.Sprintf("response_schema_sha256 is %s but the published %s schema's digest is %s", Clip(m.ResponseSchemaSHA256), name, want)))
	}
	u := uniqueIDs{at: at}
	for i, p := range m.Prompts {
		u.check("prompt", p.ID, "/prompts", i)
	}
	for i, r := range m.RateCards {
		u.check("rate card", r.ID, "/rate_cards", i)
	}
	for i, a := range m.Design.Arms {
		u.check("arm", a.ID, "/design/arms", i)
	}
	for i, t := range m.Design.Tasks {
		u.check("task", t.ID, "/design/tasks", i)
	}
	out = append(out, u.out...)
	out = append(out, checkPromptRefs(m, at)...)
	out = append(out, checkTreatment(m, at)...)
	out = append(out, checkSystemDesign(m, at, sched)...)
	out = append(out, checkBenchmarkDesign(m, at, sched)...)
	d := &m.Design
	if d.PacketItemMin > d.PacketItemMax {
		out = append(out, at.finding(rules.CodeDesignInvalid, "/design/packet_item_min",
			fmt.Sprintf("packet_item_min %d exceeds packet_item_max %d", d.PacketItemMin, d.PacketItemMax)))
	}
	return append(out, checkSchedule(d, sched, whole)...)
}

// checkPinnedConfiguration requires a campaign that is not synthetic to
// pin the model configuration its sessions ran with (rule I1): the
// reasoning effort and the processing tier, which the format leaves
// optional so synthetic campaigns need not invent them. This finds them
// absent; a present but empty or placeholder value is refused by the
// schema walk.
func checkPinnedConfiguration(m *tables.Manifest, at position) rules.Findings {
	if m.Synthetic {
		return nil
	}
	var out rules.Findings
	for _, f := range []struct {
		name  string
		value *string
	}{
		{"reasoning_effort", m.Identities.ReasoningEffort}, {"service_tier", m.Identities.ServiceTier},
	} {
		if f.value == nil {
			out = append(out, at.finding(rules.CodeIdentityMissing, "/identities/"+f.name,
				fmt.Sprintf("identity %s is missing: a campaign that is not synthetic pins it", f.name)))
		}
	}
	return out
}

// responseSchema names the published schema a kind's sessions answer in
// and its digest: the reviewer output of a reviewer benchmark, the
// response contract otherwise.
func responseSchema(kind string) (string, string) {
	name := "answer"
	if kind == rules.KindReviewerBenchmark {
		name = "review"
	}
	return name, tables.SchemaSHA256(name)
}

func checkPromptRefs(m *tables.Manifest, at position) rules.Findings {
	var out rules.Findings
	known := func(id string) bool {
		return slices.ContainsFunc(m.Prompts, func(p tables.PromptFile) bool { return p.ID == id })
	}
	for i, id := range m.Design.DraftPrompts {
		if !known(id) {
			out = append(out, at.finding(rules.CodeUnknownPrompt, indexPointer("/design/draft_prompts", i),
				fmt.Sprintf("draft prompt %q is not listed in prompts", id)))
		}
	}
	for i, a := range m.Design.Arms {
		for j, id := range a.Prompts {
			if !known(id) {
				out = append(out, at.finding(rules.CodeUnknownPrompt, indexPointer(indexPointer("/design/arms", i)+"/prompts", j),
					fmt.Sprintf("arm %q prompt %q is not listed in prompts", a.ID, id)))
			}
		}
	}
	return out
}

type slotKey struct {
	task string
	rep  int64
}

// checkSchedule checks that every (task, repetition) for repetition
// 1..repetitions is scheduled exactly once with a permutation of the arms.
// Missing slots are reported only when every slot was read (whole).
func checkSchedule(d *tables.Design, sched scheduleAt, whole bool) rules.Findings {
	var out rules.Findings
	tasks := map[string]bool{}
	reps := map[string]int64{} // each task's repetitions: its split's (tables.Design.RepetitionsOf)
	for _, t := range d.Tasks {
		tasks[t.ID] = true
		reps[t.ID] = d.RepetitionsOf(t.Split)
	}
	seen := map[slotKey]int{}
	for i, s := range d.Schedule {
		at, ptr := sched.slot(i)
		switch first, dup := seen[slotKey{s.Task, s.Repetition}]; {
		case !tasks[s.Task]:
			out = append(out, at.finding(rules.CodeUnknownTask, ptr+"/task", fmt.Sprintf("slot names task %q, which design.tasks does not list", s.Task)))
		case s.Repetition > reps[s.Task]:
			out = append(out, at.finding(rules.CodeSlotOutOfRange, ptr+"/repetition", repetitionsExceeded(d, s, reps[s.Task])))
		case dup:
			out = append(out, at.finding(rules.CodeSlotDuplicate, ptr,
				fmt.Sprintf("task %q repetition %d is already scheduled at %s", s.Task, s.Repetition, sched.name(first))))
		default:
			seen[slotKey{s.Task, s.Repetition}] = i
		}
		out = append(out, checkOrder(d.Arms, s.Order, ptr+"/order", at)...)
	}
	if !whole {
		return out
	}
	at, ptr := sched.whole()
	present := map[string]int64{}
	for k := range seen {
		present[k.task]++
	}
	for _, t := range d.Tasks {
		if missing := missingReps(seen, t.ID, present[t.ID], reps[t.ID]); missing != "" {
			out = append(out, at.finding(rules.CodeSlotMissing, ptr,
				fmt.Sprintf("task %q is not scheduled for repetition %s", t.ID, missing)))
		}
	}
	return out
}

// repetitionsExceeded says why slot s is beyond its task's repetitions.
func repetitionsExceeded(d *tables.Design, s tables.Slot, reps int64) string {
	if d.Development != nil && reps == d.Development.Rounds && reps != d.Repetitions {
		return fmt.Sprintf("repetition %d of development task %q exceeds design.development.rounds %d", s.Repetition, s.Task, reps)
	}
	return fmt.Sprintf("repetition %d exceeds design.repetitions %d", s.Repetition, d.Repetitions)
}

// missingReps lists the repetitions of task that are not scheduled, the
// first ten of them, or "" (present of them are).
func missingReps(seen map[slotKey]int, task string, present, reps int64) string {
	if present == reps {
		return ""
	}
	var list []string
	for r := int64(1); r <= reps && len(list) < 10; r++ {
		if _, ok := seen[slotKey{task, r}]; !ok {
			list = append(list, fmt.Sprint(r))
		}
	}
	if missing := reps - present; missing > int64(len(list)) {
		list = append(list, fmt.Sprintf("and %d more", missing-int64(len(list))))
	}
	return strings.Join(list, ", ")
}

// checkOrder checks that order is a permutation of the arms' IDs.
func checkOrder(arms []tables.Arm, order []string, ptr string, at position) rules.Findings {
	var out rules.Findings
	armIDs := make([]string, len(arms))
	for i, a := range arms {
		armIDs[i] = a.ID
	}
	for j, id := range order {
		if !slices.Contains(armIDs, id) {
			out = append(out, at.finding(rules.CodeUnknownArm, indexPointer(ptr, j), fmt.Sprintf("order names arm %q, which design.arms does not list", id)))
		}
	}
	if out != nil {
		return out
	}
	sorted := slices.Sorted(slices.Values(order))
	want := slices.Sorted(slices.Values(armIDs))
	if !slices.Equal(sorted, want) {
		out = append(out, at.finding(rules.CodeOrderNotPermutation, ptr,
			fmt.Sprintf("order [%s] is not a permutation of the arms [%s]", strings.Join(order, " "), strings.Join(armIDs, " "))))
	}
	return out
}

// unsupportedKinds are the campaign kinds the manifest format names but
// this version cannot evaluate yet. Such a campaign is refused with its own
// code, never judged as another kind. Every kind is evaluated today
// (reviewer-benchmark since its pipeline is complete: stages/run.go
// judgeBenchmark).
var unsupportedKinds = []string{}

func checkKindSupported(m *tables.Manifest, at position) rules.Findings {
	if !slices.Contains(unsupportedKinds, m.Kind) {
		return nil
	}
	return rules.Findings{at.finding(rules.CodeKindUnsupported, "/kind",
		fmt.Sprintf("kind %q cannot be evaluated by this version of evalgate; the campaign is refused rather than judged as another kind", m.Kind))}
}

// checkTreatment requires a treatment arm after the baseline (the first
// arm): a design of the baseline alone can never be judged, so the
// aggregate stage would give no verdict with nothing in the record saying
// why. A reviewer benchmark states its own arm count (checkBenchmarkDesign).
func checkTreatment(m *tables.Manifest, at position) rules.Findings {
	if m.Kind == rules.KindReviewerBenchmark || len(m.Design.Arms) >= 2 {
		return nil
	}
	return rules.Findings{at.finding(rules.CodeDesignNoTreatment, "/design/arms",
		fmt.Sprintf("the design lists %d arm(s); a treatment arm must follow the baseline to be judged against it", len(m.Design.Arms)))}
}
