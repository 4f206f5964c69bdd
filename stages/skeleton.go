package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// SkeletonFile is one file `evalgate init` writes, by campaign-relative
// path.
type SkeletonFile struct {
	Path string
	Data []byte
}

// skeletonPresets are the gate presets a skeleton names per kind.
var skeletonPresets = map[string]string{
	rules.KindPairedReview:      "paired-review-evaluation-v1",
	rules.KindSystemComparison:  "system-comparison-v1",
	rules.KindReviewerBenchmark: "reviewer-benchmark-v1",
}

// SkeletonKinds are the campaign kinds `evalgate init` lays out, sorted.
func SkeletonKinds() []string {
	return slices.Sorted(maps.Keys(skeletonPresets))
}

// Skeleton lays out a campaign of kind from design: a manifest whose
// identities, rate cards and ceilings are empty (so validate refuses it
// and names each one), every prompt as an empty prompts/<id>.md and every
// task as an empty tasks/<id>/task.md with its packet and truth still to
// write, an empty receipts.jsonl and adjudications.jsonl. The schedule
// runs slot i (tasks in design order, repetitions within) in the i-th
// permutation of the arms, cycling, so orders are balanced whenever the
// slot count is a multiple of the permutation count. A reviewer benchmark
// has no tasks and no schedule: its manifest freezes an empty cases.json
// and inventory.json (and an empty finding_adjudications.jsonl) for the
// user to fill. frozenAt is written as the manifest's frozen_at.
func Skeleton(kind string, d *tables.DesignFile, frozenAt time.Time) ([]SkeletonFile, error) {
	preset, ok := skeletonPresets[kind]
	bench := kind == rules.KindReviewerBenchmark
	switch {
	case !ok:
		return nil, fmt.Errorf("%q is not a campaign kind: paired-review, system-comparison or reviewer-benchmark", kind)
	case d.Format != tables.FormatDesign:
		return nil, fmt.Errorf("the design file's format is %q, not %q", d.Format, tables.FormatDesign)
	case bench && (len(d.Arms) != 2 || len(d.Tasks) > 0 || len(d.DraftPrompts) > 0):
		return nil, fmt.Errorf("a reviewer benchmark's design has two arms (the baseline profile, then the candidate), no tasks and no draft prompts: its cases go in cases.json")
	case len(d.Arms) == 0 || (!bench && len(d.Tasks) == 0) || d.Repetitions < 1:
		return nil, fmt.Errorf("a design needs at least one arm, one task and one repetition")
	}
	emptyHash := hexSHA256(nil)
	m := tables.Manifest{
		Format: tables.FormatManifest, CampaignID: d.CampaignID, Kind: kind, FrozenAt: frozenAt.UTC().Truncate(time.Second),
		Identities:           tables.Identities{Runtimes: []tables.Runtime{}, ReasoningEffort: new(string), ServiceTier: new(string)},
		Prompts:              []tables.PromptFile{},
		ResponseSchemaSHA256: tables.SchemaSHA256("answer"),
		RateCards:            []tables.RateCard{},
		GatePolicy:           tables.GatePolicy{Preset: preset, Thresholds: []tables.Threshold{}},
		Intervals:            tables.IntervalPlan{Cluster: "family", Resamples: 10000},
	}
	files := []SkeletonFile{{Path: "receipts.jsonl", Data: []byte{}}, {Path: "adjudications.jsonl", Data: []byte{}}}
	if bench {
		// Empty cases and inventory, frozen by hash: the user lists the
		// families' clean cases and variants and their task files.
		cases := []byte(`{"format":"` + tables.FormatCases + `","cases":[],"excluded":[]}` + "\n")
		inventory := []byte(`{"format":"` + tables.FormatInventory + `","cases":[]}` + "\n")
		m.Benchmark = &tables.BenchmarkPlan{CasesPath: "cases.json", CasesSHA256: hexSHA256(cases),
			InventoryPath: "inventory.json", InventorySHA256: hexSHA256(inventory)}
		files = append(files, SkeletonFile{Path: "cases.json", Data: cases}, SkeletonFile{Path: "inventory.json", Data: inventory},
			SkeletonFile{Path: "finding_adjudications.jsonl", Data: []byte{}})
	}
	for _, id := range d.Prompts {
		p := "prompts/" + id + ".md"
		m.Prompts = append(m.Prompts, tables.PromptFile{ID: id, Path: p, SHA256: emptyHash})
		files = append(files, SkeletonFile{Path: p, Data: []byte{}})
	}
	m.Design = tables.Design{Repetitions: d.Repetitions, DraftPrompts: orEmpty(d.DraftPrompts), Arms: d.Arms,
		Tasks: []tables.TaskSpec{}, Schedule: []tables.Slot{}, PacketItemMin: 6, PacketItemMax: 12}
	if bench {
		m.Design.PacketItemMin, m.Design.PacketItemMax = 1, 1  // no packets: reviewers read the task files
		m.ResponseSchemaSHA256 = tables.SchemaSHA256("review") // a reviewer returns a review, not an answer
	}
	for i := range m.Design.Arms {
		m.Design.Arms[i].Prompts = orEmpty(m.Design.Arms[i].Prompts)
	}
	for _, t := range d.Tasks {
		dir := "tasks/" + t.ID + "/"
		m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: t.ID, Repository: t.Repository, Family: t.Family,
			Split: t.Split, Category: t.Category, TaskPath: dir + "task.md", TaskSHA256: emptyHash,
			PacketPath: dir + "packet.json", PacketSHA256: emptyHash, TruthPath: dir + "truth.json", TruthSHA256: emptyHash})
		files = append(files, SkeletonFile{Path: dir + "task.md", Data: []byte{}})
	}
	perms := permutations(armIDs(d.Arms))
	for _, t := range d.Tasks { // none for a reviewer benchmark: its schedule is every case × profile × run
		for rep := int64(1); rep <= d.Repetitions; rep++ {
			m.Design.Schedule = append(m.Design.Schedule, tables.Slot{Task: t.ID, Repetition: rep,
				Order: slices.Clone(perms[len(m.Design.Schedule)%len(perms)])})
		}
	}
	b, err := json.Marshal(&m, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return nil, err
	}
	return append([]SkeletonFile{{Path: "manifest.json", Data: append(b, '\n')}}, files...), nil
}

func hexSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func armIDs(arms []tables.Arm) []string {
	var ids []string
	for _, a := range arms {
		ids = append(ids, a.ID)
	}
	return ids
}

// permutations returns every ordering of ids in lexicographic order of
// positions (ids itself first).
func permutations(ids []string) [][]string {
	if len(ids) <= 1 {
		return [][]string{slices.Clone(ids)}
	}
	var out [][]string
	for i := range ids {
		rest := slices.Concat(ids[:i:i], ids[i+1:])
		for _, p := range permutations(rest) {
			out = append(out, append([]string{ids[i]}, p...))
		}
	}
	return out
}
