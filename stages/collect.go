package stages

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/tables"
)

// A collected dataset lays many run outputs' tables out as one
// Hive-partitioned Parquet dataset, one directory per table, one partition
// per campaign and within it one per run of `evalgate run`, so that a
// campaign's successive runs (more receipts, another evaluator) are all
// kept:
//
//	DATASET/<table>/campaign_id=<campaign id>/run=<run id>/part-0.parquet
//
// The run ID is the first 16 hex digits of the sha256 of the run's
// scorecard.json and of every table file's sha256, in registry order: the
// same output collected again is the same run (left unchanged), any other
// output of the campaign a new one. Each part is the run's table file,
// byte for byte: the table's one schema (the registry's), its key-value
// metadata (schema version, manifest sha256, tool version) and its rows;
// the campaign and run IDs are the partition columns DuckDB, Spark and
// Trino add from the path (read_parquet('DATASET/runs/*/*/*.parquet',
// hive_partitioning = true)). Every input file must carry this evalgate's
// schema version (tables.SchemaVersion), the registry's schema for its
// table and the scorecard's manifest sha256, so a dataset never mixes
// schema versions or a table of another campaign into a run; nothing is
// written unless every input passes.

// CollectedCampaign is one run output laid into a dataset.
type CollectedCampaign struct {
	Dir, CampaignID string
	RunID           string // the run's partition (see the dataset layout)
	Rows            int64  // over all its tables
	Unchanged       bool   // its partition already held these bytes
}

// collectIDPattern is the campaign-level identifier rule; it keeps a
// partition name one safe path segment.
var collectIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// scorecardCap bounds the scorecard.json read for the campaign ID.
const scorecardCap = 64 << 20

type collectPart struct {
	src, dst string
	sha      [32]byte
	same     bool
}

// Collect lays the tables of every output directory of `evalgate run` in
// outs into dataset (created when absent), one partition per run. A run
// already collected (the same bytes) is left as it is; the same run given
// twice in outs is laid once.
//
// It holds the dataset's lock (confined.LockName, waiting for a collect
// under way) while it reads and writes the dataset, and writes every new
// partition as one commit (confined.Commit): a collect killed at any
// instant leaves no part of a run behind once the next collect has
// recovered (finished or undone its commit), and the next collect also
// removes the temporary part files and empty partition directories a
// killed collect of an earlier evalgate left.
//
// The dataset and every directory of its partitions must be directories,
// not symbolic links: a link would put the partitions wherever it points
// (outside the dataset, or into another table's directory), so a collect
// finding one refuses before it writes anything.
func Collect(outs []string, dataset string) (_ []CollectedCampaign, err error) {
	st, statErr := os.Lstat(dataset)
	created := errors.Is(statErr, fs.ErrNotExist)
	if statErr == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("collect: %s is a symbolic link; give the dataset directory itself (nothing was written)", confined.EscapeName(dataset))
	}
	if err := os.MkdirAll(dataset, 0o755); err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	root, err := os.OpenRoot(dataset)
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	defer root.Close()
	lock, err := confined.LockRoot(root, confined.LockName, nil)
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	defer lock.Unlock()
	defer func() {
		if err != nil && created { // leave no empty dataset behind a refused collect
			root.Remove(confined.LockName)
			os.Remove(dataset)
		}
	}()
	if err := recoverCollect(root); err != nil {
		return nil, fmt.Errorf("collect: %s: recovering an interrupted collect: %w", dataset, err)
	}
	var parts []collectPart
	var campaigns []CollectedCampaign
	seen := map[string]bool{}
	for _, out := range outs {
		c, ps, err := collectOne(out, dataset)
		if err != nil {
			return nil, err
		}
		campaigns = append(campaigns, c)
		if key := c.CampaignID + "/" + c.RunID; !seen[key] {
			seen[key] = true
			parts = append(parts, ps...)
		}
	}
	rels := make([]string, len(parts))
	for i, p := range parts {
		rel, err := filepath.Rel(dataset, p.dst)
		if err != nil {
			return nil, err
		}
		rels[i] = filepath.ToSlash(rel)
		if err := refuseLinks(root, path.Dir(rels[i])); err != nil {
			return nil, fmt.Errorf("collect: %s: %w (nothing was written)", confined.EscapeName(dataset), err)
		}
	}
	var files []confined.CommitFile
	for i, p := range parts {
		if p.same {
			continue
		}
		rel := rels[i]
		if err := root.MkdirAll(path.Dir(rel), 0o755); err != nil {
			return nil, err
		}
		files = append(files, confined.CommitFile{Name: rel, Fill: copyChecked(p.src, p.sha)})
	}
	if len(files) > 0 {
		if err := confined.Commit(root, files); err != nil {
			return nil, fmt.Errorf("collect: %s: %w", dataset, err)
		}
	}
	return campaigns, nil
}

// refuseLinks refuses a directory of dir (slash-separated, inside root),
// or dir itself, that is a symbolic link; a missing one is made later.
func refuseLinks(root *os.Root, dir string) error {
	for d := dir; d != "." && d != "/"; d = path.Dir(d) {
		st, err := root.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link, not a directory of the dataset", confined.EscapeName(d))
		case !st.IsDir():
			return fmt.Errorf("%s is not a directory", confined.EscapeName(d))
		}
	}
	return nil
}

// recoverCollect finishes or undoes the commit of a killed collect, and
// removes what a killed collect of an earlier evalgate left: the
// temporary files of its parts (".part-0.parquet.tmp-123") and partition
// directories left empty. The caller holds the dataset's lock.
func recoverCollect(root *os.Root) error {
	var runs []string
	tableDirs, err := readRootDir(root, ".")
	if err != nil {
		return err
	}
	for _, t := range tableDirs {
		if !t.IsDir() {
			continue
		}
		camps, err := readRootDir(root, t.Name())
		if err != nil {
			return err
		}
		for _, c := range camps {
			if !c.IsDir() || !strings.HasPrefix(c.Name(), "campaign_id=") {
				continue
			}
			dir := t.Name() + "/" + c.Name()
			rs, err := readRootDir(root, dir)
			if err != nil {
				return err
			}
			for _, r := range rs {
				if r.IsDir() && strings.HasPrefix(r.Name(), "run=") {
					runs = append(runs, dir+"/"+r.Name())
				}
			}
		}
	}
	if _, err := confined.RecoverCommit(root, runs...); err != nil {
		return err
	}
	for _, r := range runs {
		if _, err := confined.RemoveLeftoverFiles(root, r, func(name string) bool {
			of, ok := confined.AtomicTempOf(name)
			return ok && of == "part-0.parquet"
		}); err != nil {
			return err
		}
		// Remove fails on a directory that is not empty: only empty ones go.
		if root.Remove(r) == nil {
			root.Remove(path.Dir(r))
		}
	}
	return nil
}

func readRootDir(root *os.Root, dir string) ([]fs.DirEntry, error) {
	d, err := root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// collectOne checks one output directory and plans its parts.
func collectOne(out, dataset string) (CollectedCampaign, []collectPart, error) {
	c := CollectedCampaign{Dir: out}
	root, err := confined.OpenCampaignDir(out)
	if err != nil {
		return c, nil, fmt.Errorf("collect: output directory: %w", err)
	}
	defer root.Close()
	card, err := confined.ReadCampaignFile(root, "scorecard.json", scorecardCap)
	if err != nil {
		return c, nil, fmt.Errorf("collect: %s: %w (not an output of evalgate run?)", out, err)
	}
	var head struct {
		CampaignID     string `json:"campaign_id"`
		ManifestSHA256 string `json:"manifest_sha256"`
	}
	if err := json.Unmarshal(card, &head, json.RejectUnknownMembers(false)); err != nil {
		return c, nil, fmt.Errorf("collect: %s/scorecard.json: %w", out, err)
	}
	if !collectIDPattern.MatchString(head.CampaignID) {
		return c, nil, fmt.Errorf("collect: %s/scorecard.json: campaign_id %q is not an identifier", out, head.CampaignID)
	}
	c.CampaignID = head.CampaignID
	var parts []collectPart
	run := sha256.New()
	cardSHA := sha256.Sum256(card)
	run.Write(cardSHA[:])
	for _, t := range tables.Registry() {
		name := t.Name + ".parquet"
		meta, sha, err := checkTableFile(root, name, t)
		if err == nil && meta.ManifestSHA256 != head.ManifestSHA256 {
			err = fmt.Errorf("its metadata names manifest %s, the scorecard %s: a table of another campaign or run", meta.ManifestSHA256, head.ManifestSHA256)
		}
		if err != nil {
			return c, nil, fmt.Errorf("collect: %s: %w", filepath.Join(out, name), err)
		}
		c.Rows += meta.Rows
		run.Write(sha[:])
		parts = append(parts, collectPart{src: filepath.Join(out, name), sha: sha})
	}
	c.RunID = fmt.Sprintf("%x", run.Sum(nil))[:16]
	for i := range parts {
		p := &parts[i]
		t := strings.TrimSuffix(filepath.Base(p.src), ".parquet")
		p.dst = filepath.Join(dataset, t, "campaign_id="+c.CampaignID, "run="+c.RunID, "part-0.parquet")
		if have, err := partitionSHA256(dataset, p.dst); err == nil {
			if have != p.sha {
				return c, nil, fmt.Errorf("collect: %s holds run %s of campaign %s with other %s rows than %s: the dataset was edited; remove that partition", dataset, c.RunID, c.CampaignID, t, out)
			}
			p.same = true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return c, nil, err
		}
	}
	c.Unchanged = true
	for _, p := range parts {
		c.Unchanged = c.Unchanged && p.same
	}
	return c, parts, nil
}

// checkTableFile checks one table file's footer: its table name, this
// evalgate's schema version, the registry's schema. It returns the
// footer's facts and the file's sha256.
func checkTableFile(root *confined.CampaignDir, name string, t tables.Table) (tables.FileMeta, [32]byte, error) {
	var sum [32]byte
	file, err := confined.OpenCampaignFile(root, name)
	if err != nil {
		return tables.FileMeta{}, sum, err
	}
	defer file.Close()
	f, ok := file.(*os.File)
	if !ok {
		return tables.FileMeta{}, sum, errors.New("not a file of the output directory")
	}
	st, err := f.Stat()
	if err != nil {
		return tables.FileMeta{}, sum, err
	}
	meta, err := tables.ReadFileMeta(f, st.Size(), t)
	if err != nil {
		return meta, sum, err
	}
	switch {
	case meta.Table != t.Name:
		return meta, sum, fmt.Errorf("its metadata names table %q, not %q", meta.Table, t.Name)
	case meta.SchemaVersion != tables.SchemaVersion:
		return meta, sum, fmt.Errorf("schema version %q; this evalgate collects %s only, so a dataset never mixes versions", meta.SchemaVersion, tables.SchemaVersion)
	case !meta.SchemaMatches:
		return meta, sum, fmt.Errorf("its Parquet schema is not the %s table's of %s", t.Name, tables.SchemaVersion)
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size())); err != nil {
		return meta, sum, err
	}
	copy(sum[:], h.Sum(nil))
	return meta, sum, nil
}

// partitionSHA256 is the sha256 of a partition file already in the
// dataset, read confined to the dataset directory (a FIFO or a link out
// of it is refused, never opened blocking or followed); fs.ErrNotExist
// when the dataset or the partition does not exist.
func partitionSHA256(dataset, dst string) ([32]byte, error) {
	var sum [32]byte
	rel, err := filepath.Rel(dataset, dst)
	if err != nil {
		return sum, err
	}
	d, err := confined.OpenCampaignDir(dataset)
	if err != nil {
		return sum, err
	}
	defer d.Close()
	f, err := confined.OpenCampaignFile(d, filepath.ToSlash(rel))
	if err != nil {
		return sum, fmt.Errorf("collect: %s: %w", dst, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// copyChecked copies src into a part and refuses a source that changed
// since it was checked.
func copyChecked(src string, want [32]byte) func(io.Writer) error {
	return func(w io.Writer) error {
		in, err := confined.OpenRegularFile(src)
		if err != nil {
			return err
		}
		defer in.Close()
		h := sha256.New()
		if _, err := io.Copy(io.MultiWriter(w, h), in); err != nil {
			return err
		}
		if !bytes.Equal(h.Sum(nil), want[:]) {
			return fmt.Errorf("collect: %s changed while it was collected", src)
		}
		return nil
	}
}
