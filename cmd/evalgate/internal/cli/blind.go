package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/score"
	"github.com/evalgate/evalgate/tables"
)

// Files of a blind export directory.
const (
	blindItemsDir = "items"
	blindKeyFile  = "key.sealed.json"
	maxBlindKey   = 64 << 20
)

func newBlindCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "blind",
		Short: "Export anonymized finals for blinded graders and import their ratings",
		Long: `blind runs the blinded adjudication protocol (rule Q1). "blind export" writes
one anonymized item per scoreable review session (task, frozen truth and the
final answer only: no session, arm, cost, timing, model or reconciliation)
plus key.sealed.json, the label → session mapping that must be withheld from
graders. "blind import" maps the graders' ratings back to sessions and
refuses unknown labels, unblinded ratings, ratings frozen at or after the
unblinding time and tampered items.`,
	}
	cmd.AddCommand(newBlindExportCmd(stdout, stderr), newBlindImportCmd(stdout, stderr))
	return cmd
}

type blindExportOptions struct {
	out     string
	example string
	seed    uint64
	json    bool
}

func newBlindExportCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts blindExportOptions
	cmd := &cobra.Command{
		Use:   "export [CAMPAIGN_DIR] --out DIR [--seed N]",
		Short: "Write DIR/items/<label>.json for graders and DIR/key.sealed.json",
		Args:  maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if opts.out == "" {
				return usagef("--out DIR is required")
			}
			return runBlindExport(stdout, stderr, args, opts)
		},
	}
	cmd.Flags().StringVar(&opts.out, "out", "", "export directory (created if missing)")
	cmd.Flags().StringVar(&opts.example, "example", "", "embedded example campaign to export when no directory is given")
	cmd.Flags().Uint64Var(&opts.seed, "seed", 0, "secret export seed: labels are keyed by it and the manifest")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the summary as JSON")
	return cmd
}

type blindExportSummary struct {
	Campaign string `json:"campaign"`
	Items    int    `json:"items"`
	ItemsDir string `json:"items_dir"`
	Key      string `json:"sealed_key"`
}

func runBlindExport(stdout, stderr io.Writer, args []string, opts blindExportOptions) error {
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return err
	}
	res := stages.RunForBlind(fsys, name) // load and validate: no later stage's table is read
	if res.Err != nil {
		return runFailed(name, res.Err)
	}
	if !res.Loaded {
		printFindings(stderr, res.Tables.Rejections)
		fmt.Fprintf(stderr, "evalgate: %s: rejected by the loader; nothing exported\n", text(name))
		return errRejected
	}
	// Each item is written as it is built, so memory does not grow with
	// the number of items; the directory is checked against every label
	// before the first is written. The items are made durable together
	// (one flush, not one per item) before the key, which is what makes
	// the export count: written last, synced, it names each item's sha256.
	itemsDir := filepath.Join(opts.out, blindItemsDir)
	items := 0
	var batch confined.Batch
	exp, err := stages.StreamBlind(res, opts.seed, func(labels []string) error {
		return prepareItemsDir(itemsDir, labels)
	}, func(label string, data []byte) error {
		items++
		return batch.WriteFile(filepath.Join(itemsDir, label+".json"), data, 0o644)
	})
	if err == nil {
		err = batch.Sync()
	}
	if err != nil {
		return err
	}
	keyPath := filepath.Join(opts.out, blindKeyFile)
	if err := confined.WriteFileAtomic(keyPath, exp.KeyData, 0o600); err != nil {
		return err
	}
	sum := blindExportSummary{Campaign: name, Items: items, ItemsDir: itemsDir, Key: keyPath}
	if opts.json {
		return writeJSON(stdout, sum)
	}
	fmt.Fprintf(stdout, "exported %d items to %s\n", sum.Items, text(itemsDir))
	fmt.Fprintf(stdout, "sealed key %s: withhold it from graders\n", text(keyPath))
	return nil
}

// prepareItemsDir creates the items directory and refuses one holding a
// file this export would not write, so graders never see a stale item.
func prepareItemsDir(dir string, labels []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, l := range labels {
		want[l+".json"] = true
	}
	for _, e := range entries {
		if !want[e.Name()] {
			return usagef("%s holds %s, which this export does not write; use an empty --out directory", dir, e.Name())
		}
	}
	return nil
}

type blindImportOptions struct {
	example     string
	key         string
	ratings     string
	items       string
	unblindedAt string
	out         string
}

func newBlindImportCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts blindImportOptions
	cmd := &cobra.Command{
		Use:   "import [CAMPAIGN_DIR] --key KEY --ratings FILE [--items DIR] [--unblinded-at TIME] [--out FILE]",
		Short: "Map blind ratings back to sessions as adjudications.jsonl lines",
		Args:  maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if opts.key == "" || opts.ratings == "" {
				return usagef("--key KEY and --ratings FILE are required")
			}
			return runBlindImport(stdout, stderr, args, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.example, "example", "", "embedded example campaign when no directory is given")
	f.StringVar(&opts.key, "key", "", "the export's key.sealed.json")
	f.StringVar(&opts.ratings, "ratings", "", "the graders' ratings (JSONL of evalgate.blind-rating/v1)")
	f.StringVar(&opts.items, "items", "", "the export's items directory, to check no item was altered")
	f.StringVar(&opts.unblindedAt, "unblinded-at", "", "when arm and cost were revealed (RFC 3339, UTC with Z)")
	f.StringVar(&opts.out, "out", "", "write adjudications.jsonl lines to FILE instead of stdout")
	return cmd
}

func runBlindImport(stdout, stderr io.Writer, args []string, opts blindImportOptions) error {
	in, err := blindImportInputs(stderr, args, opts)
	if err != nil {
		return err
	}
	findings := in.findings
	var adjs []tables.Adjudication
	if in.imp.Key != nil {
		var more rules.Findings
		adjs, more = score.ImportBlind(in.imp)
		findings = append(findings, more...)
	}
	findings.Sort()
	printFindings(stderr, findings)
	if findings.Rejected() {
		fmt.Fprintf(stderr, "evalgate: %s: ratings refused; nothing written\n", text(opts.ratings))
		return errRejected
	}
	var buf bytes.Buffer
	if err := score.WriteAdjudications(&buf, adjs); err != nil {
		return err
	}
	if opts.out == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	return confined.WriteFileAtomic(opts.out, buf.Bytes(), 0o644)
}

// blindImportState is what runBlindImport reads before checking.
type blindImportState struct {
	imp      score.BlindImport
	findings rules.Findings
}

func blindImportInputs(stderr io.Writer, args []string, opts blindImportOptions) (*blindImportState, error) {
	st := &blindImportState{imp: score.BlindImport{KeyFile: opts.key, RatingsFile: opts.ratings}}
	if opts.unblindedAt != "" {
		t, err := time.Parse(time.RFC3339Nano, opts.unblindedAt)
		if err != nil || !strings.HasSuffix(opts.unblindedAt, "Z") {
			return nil, usagef("--unblinded-at %q is not an RFC 3339 UTC time ending in Z", opts.unblindedAt)
		}
		st.imp.UnblindedAt = &t
	}
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return nil, err
	}
	c, findings := load.Campaign(fsys, name)
	if findings.Rejected() {
		printFindings(stderr, findings)
		fmt.Fprintf(stderr, "evalgate: %s: rejected by the loader; nothing imported\n", text(name))
		return nil, errRejected
	}
	st.imp.Campaign = c
	st.findings = append(st.findings, findings...)
	keyData, err := readCappedFile(opts.key, maxBlindKey)
	if err != nil {
		return nil, err
	}
	key, kf := score.DecodeBlindKey(opts.key, keyData)
	st.imp.Key, st.findings = key, append(st.findings, kf...)
	rf, err := confined.OpenRegularFile(opts.ratings)
	if err != nil {
		return nil, usagef("--ratings: %v", err)
	}
	defer rf.Close()
	recs, rfs := load.BlindRatings(opts.ratings, rf)
	st.imp.Ratings, st.findings = recs, append(st.findings, rfs...)
	if opts.items != "" {
		if info, err := os.Stat(opts.items); err != nil || !info.IsDir() {
			return nil, usagef("--items %s is not a directory", opts.items)
		}
		items, err := confined.OpenCampaignDir(opts.items)
		if err != nil {
			return nil, usagef("--items: %v", err)
		}
		st.imp.Items, st.imp.ItemsDir = items, opts.items
	}
	return st, nil
}

func readCappedFile(path string, limit int64) ([]byte, error) {
	f, err := confined.OpenRegularFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, usagef("%s has more than %d bytes", path, limit)
	}
	return data, nil
}
