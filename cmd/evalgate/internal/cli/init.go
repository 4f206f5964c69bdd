package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

func newInitCmd(stdout io.Writer) *cobra.Command {
	var kind, designFile, campaignID string
	var reps int64
	var arms, tasks, prompts, from []string
	var hidden string
	cmd := &cobra.Command{
		Use:   "init --kind paired-review|system-comparison|reviewer-benchmark DIR [--design FILE | --arm ID... --task ID:REPOSITORY:FAMILY:CATEGORY... --prompt ID... --repetitions N]",
		Short: "Lay out a campaign skeleton that validate refuses until it is filled",
		Long: `init writes a new campaign directory: manifest.json with every identity,
rate card and ceiling empty, the design (arms, tasks, prompts, repetitions and
a balanced schedule) from a design file (format evalgate.design/v1,
docs/import.md) or from flags, an empty prompts/<id>.md per prompt, an empty
tasks/<id>/task.md per task, and empty receipts.jsonl and adjudications.jsonl.
validate refuses the skeleton and names what is missing; fill it, then
import the sessions with 'evalgate import'. A reviewer-benchmark skeleton has
two arms (baseline, then candidate profile), no tasks, and an empty
cases.json and inventory.json to fill. DIR must not exist or be empty.

With --from SOURCE:FILE (inspect, codex or harbor; repeat) init reads the
records as an import would and writes into the manifest what they state of
the model identities: the one requested model, and the returned model (for
a reviewer benchmark every further returned model is a model stratum,
benchmark.models). An identity the records state ambiguously stays empty
and init says why. When the records request another model than the one
the kind's preset pins, the preset cannot hold for these sessions: init
declares a custom policy skeleton (gate_policy.custom
<campaign-id>-records-v1, the preset's gates and thresholds) and says why.
Nothing else is taken from the records. The records are checked as the
import checks them, so an Inspect log whose inclusive meter hides tokens
is refused (meter_hidden_tokens) unless --hidden-tokens output declares
them, as it does for 'evalgate import inspect'.

Exit 0 written, 2 usage, 3 I/O.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("give exactly one campaign directory")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			hiddenOutput, err := hiddenTokens(hidden)
			if err != nil {
				return err
			}
			if hiddenOutput && !slices.ContainsFunc(from, func(f string) bool { return strings.HasPrefix(f, tables.SourceInspect+":") }) {
				return usagef("--hidden-tokens declares the hidden tokens of Inspect logs: give them with --from inspect:LOG")
			}
			d, err := initDesign(kind, designFile, campaignID, args[0], reps, arms, tasks, prompts)
			if err != nil {
				return err
			}
			files, err := stages.Skeleton(kind, d, time.Now())
			if err != nil {
				return usagef("%v", err)
			}
			files, notes, err := prefill(files, from, hiddenOutput)
			if err != nil {
				return err
			}
			for _, n := range notes {
				fmt.Fprintf(stdout, "from the records: %s\n", text(n))
			}
			if err := writeSkeleton(args[0], files); err != nil {
				return err
			}
			_, err = fmt.Fprintf(stdout, "initialised %s campaign %s; run 'evalgate validate %s' to see what to fill in\n", kind, text(args[0]), text(args[0]))
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&kind, "kind", "", "campaign kind: paired-review, system-comparison or reviewer-benchmark")
	f.StringVar(&designFile, "design", "", "design file (format evalgate.design/v1)")
	f.StringVar(&campaignID, "campaign-id", "", "campaign ID (default: the directory name)")
	f.Int64Var(&reps, "repetitions", 1, "repetitions per task")
	f.StringArrayVar(&arms, "arm", nil, "an arm ID (repeat; the first is the baseline; ID:reconciliation for a reconciliation arm)")
	f.StringArrayVar(&tasks, "task", nil, "a task as ID:REPOSITORY:FAMILY:CATEGORY (repeat; split evaluation)")
	f.StringArrayVar(&prompts, "prompt", nil, "a prompt ID (repeat); every arm and the draft render them all, in order")
	f.StringArrayVar(&from, "from", nil, "SOURCE:FILE, records (inspect, codex or harbor) whose model identities pre-fill the manifest (repeat)")
	f.StringVar(&hidden, "hidden-tokens", "", hiddenTokensUsage+", for the --from inspect logs")
	return cmd
}

// prefill writes into the skeleton's manifest the model identities the
// --from records state (stages.PrefillSkeleton); a record file that its
// importer refuses is a usage error naming the refusal. hiddenOutput is
// the --hidden-tokens output declaration, for the Inspect logs.
func prefill(files []stages.SkeletonFile, from []string, hiddenOutput bool) ([]stages.SkeletonFile, []string, error) {
	if len(from) == 0 {
		return files, nil, nil
	}
	var logs []stages.LogSource
	for _, spec := range from {
		source, path, ok := strings.Cut(spec, ":")
		if !ok || !slices.Contains([]string{tables.SourceInspect, tables.SourceCodex, tables.SourceHarbor}, source) {
			return nil, nil, usagef("--from %q: give SOURCE:FILE with SOURCE inspect, codex or harbor", spec)
		}
		sources, refused, err := readImportSources(source, &tables.ImportMap{}, []string{path})
		if err != nil {
			return nil, nil, err
		}
		if len(refused) > 0 {
			return nil, nil, usagef("--from: %s", refused[0].Error())
		}
		for _, s := range sources {
			s.HiddenOutput = hiddenOutput && source == tables.SourceInspect
			logs = append(logs, stages.LogSource{Source: source, File: s})
		}
	}
	requested, returned, fs := stages.LogModels(logs)
	if fs.Rejected() {
		return nil, nil, usagef("--from: %s", fs[slices.IndexFunc(fs, func(f rules.Finding) bool { return f.Severity == rules.Reject })].Error())
	}
	return stages.PrefillSkeleton(files, requested, returned)
}

// initDesign reads the design file, or builds the design from flags.
func initDesign(kind, file, id, dir string, reps int64, arms, tasks, prompts []string) (*tables.DesignFile, error) {
	if file != "" {
		if len(arms)+len(tasks)+len(prompts) > 0 {
			return nil, usagef("give --design or --arm/--task/--prompt flags, not both")
		}
		data, err := confined.ReadFile(file, 1<<20)
		if err != nil {
			return nil, usagef("design: %v", err)
		}
		var d tables.DesignFile
		if err := json.Unmarshal(data, &d, json.RejectUnknownMembers(true)); err != nil {
			return nil, usagef("design %s: %v", file, err)
		}
		if id != "" {
			d.CampaignID = id
		}
		if d.CampaignID == "" {
			d.CampaignID = filepath.Base(filepath.Clean(dir))
		}
		return &d, nil
	}
	d := &tables.DesignFile{Format: tables.FormatDesign, CampaignID: id, Repetitions: reps, Prompts: prompts, DraftPrompts: prompts}
	if kind == rules.KindReviewerBenchmark {
		d.DraftPrompts = nil // a reviewer benchmark has no draft
	}
	if d.CampaignID == "" {
		d.CampaignID = filepath.Base(filepath.Clean(dir))
	}
	for _, a := range arms {
		name, rec := strings.CutSuffix(a, ":reconciliation")
		d.Arms = append(d.Arms, tables.Arm{ID: name, Label: name, Prompts: prompts, Reconciliation: rec})
	}
	for _, t := range tasks {
		parts := strings.Split(t, ":")
		if len(parts) != 4 {
			return nil, usagef("--task %q: give ID:REPOSITORY:FAMILY:CATEGORY", t)
		}
		d.Tasks = append(d.Tasks, tables.DesignTask{ID: parts[0], Repository: parts[1], Family: parts[2], Split: "evaluation", Category: parts[3]})
	}
	return d, nil
}

// writeSkeleton creates dir (which must not exist or be empty) and its
// files, every one through the directory's os.Root: a prompt or task ID
// (from a flag or a design file) that would place a file outside dir, such
// as "../../x", is refused before anything is created.
func writeSkeleton(dir string, files []stages.SkeletonFile) error {
	for _, f := range files {
		if !filepath.IsLocal(filepath.FromSlash(f.Path)) || path.Clean(f.Path) != f.Path {
			return usagef("the campaign file %s would lie outside %s: a prompt or task ID is not a plain name", confined.EscapeName(f.Path), confined.EscapeName(dir))
		}
	}
	if err := newCampaignDir(dir, "init"); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range files {
		if err := confined.WriteFileIn(root, filepath.FromSlash(f.Path), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// newCampaignDir creates dir for a command that writes only a new
// campaign, or accepts it when it exists and is empty; a directory with
// anything in it is refused, never written into.
func newCampaignDir(dir, command string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil && len(entries) > 0:
		return usagef("%s is not empty; %s writes only a new campaign", dir, command)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return usagef("campaign directory: %v", err)
	}
	return os.MkdirAll(dir, 0o755)
}
