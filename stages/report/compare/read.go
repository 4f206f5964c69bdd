package compare

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/parquet-go/parquet-go"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// Errors of [Dirs]. ErrNotOutput, ErrVersionMismatch, ErrKindMismatch and
// ErrPolicyChange are usage problems (the directories given are not
// comparable); any other error is an I/O failure.
var (
	// ErrNotOutput reports a directory that is missing or was not written
	// by `evalgate run`.
	ErrNotOutput = errors.New("report: not an evalgate output directory")
	// ErrVersionMismatch reports two outputs with different scorecard
	// versions.
	ErrVersionMismatch = errors.New("report: different scorecard versions")
	// ErrKindMismatch reports two outputs of different campaign kinds: a
	// paired review and a system comparison are not comparable.
	ErrKindMismatch = errors.New("report: different campaign kinds")
)

// output is what Compare reads back from one output directory.
type output struct {
	dir       string
	scorecard scorecard.Scorecard
	gates     []tables.Gate
	decision  scorecard.DecisionResult
	tasks     []tables.Task
	rejecting []rules.Finding  // the rejecting findings of the rejections table
	ceilings  []tables.Ceiling // empty for an output written before the ceilings table
	// reviewMetrics are a reviewer benchmark's metric rows; empty for other
	// kinds and for an output written before the table.
	reviewMetrics []tables.ReviewMetric
	// policy is the scorecard's policy member as written; empty when the
	// scorecard has none.
	policy jsontext.Value
}

// readOutput reads scorecard.json and the gates, decision and tasks tables
// of dir.
func readOutput(dir string) (*output, error) {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil, fmt.Errorf("%w: %s: no such directory", ErrNotOutput, dir)
	}
	root, err := confined.OpenCampaignDir(dir)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer root.Close()
	data, err := confined.ReadCampaignFile(root, scorecard.File, maxScorecard)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s has no %s", ErrNotOutput, dir, scorecard.File)
	}
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", filepath.Join(dir, scorecard.File), err)
	}
	o := &output{dir: dir}
	if err := json.Unmarshal(data, &o.scorecard); err != nil {
		return nil, fmt.Errorf("%w: %s: %s is not a scorecard: %v", ErrNotOutput, dir, scorecard.File, err)
	}
	var raw map[string]jsontext.Value
	if err := json.Unmarshal(data, &raw); err == nil {
		o.policy = raw[policyMember]
	}
	if !strings.HasPrefix(o.scorecard.ScorecardVersion, "evalgate.scorecard/") {
		return nil, fmt.Errorf("%w: %s: %s has no evalgate scorecard_version", ErrNotOutput, dir, scorecard.File)
	}
	if o.gates, err = readTable[tables.Gate](root, "gates"); err != nil {
		return nil, err
	}
	decision, err := readTable[tables.Decision](root, "decision")
	if err != nil {
		return nil, err
	}
	o.decision = scorecard.BuildDecision(decision)
	if o.tasks, err = readTable[tables.Task](root, "tasks"); err != nil {
		return nil, err
	}
	findings, err := readTable[rules.Finding](root, tables.CampaignFindingsTable)
	if errors.Is(err, ErrNotOutput) { // an output written before tables/v3?
		if legacy, lerr := readTable[rules.Finding](root, legacyName(tables.CampaignFindingsTable)); lerr == nil {
			findings, err = legacy, nil
		}
	}
	if err != nil {
		return nil, err
	}
	for _, f := range findings {
		if f.Severity == rules.Reject {
			o.rejecting = append(o.rejecting, f)
		}
	}
	if o.ceilings, err = readTable[tables.Ceiling](root, "ceilings"); errors.Is(err, ErrNotOutput) {
		o.ceilings, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	if o.reviewMetrics, err = readTable[tables.ReviewMetric](root, "review_metrics"); errors.Is(err, ErrNotOutput) {
		o.reviewMetrics, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	return o, nil
}

// legacyName is the name a table had before tables/v3.
func legacyName(table string) string {
	for old, now := range tables.RenamedTables {
		if now == table {
			return old
		}
	}
	return table
}

// maxScorecard caps the scorecard.json compare reads.
const maxScorecard = 64 << 20

// readTable reads <name>.parquet of the output directory root, confined
// to it: a missing file means the directory is not an evalgate output; a
// link out of it, a FIFO or a device is refused unread (an I/O failure),
// as is an unreadable file.
func readTable[T any](root *confined.CampaignDir, name string) (rows []T, err error) {
	path := filepath.Join(root.Name(), name+".parquet")
	defer func() {
		if r := recover(); r != nil { // a corrupt file must not crash the tool
			rows, err = nil, fmt.Errorf("report: read %s: %v", path, r)
		}
	}()
	file, err := confined.OpenCampaignFile(root, name+".parquet")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s has no %s.parquet", ErrNotOutput, root.Name(), name)
	}
	if err != nil {
		return nil, fmt.Errorf("report: read %s: %w", path, err)
	}
	defer file.Close()
	f, ok := file.(*os.File)
	if !ok {
		return nil, fmt.Errorf("report: read %s: not a file of the output directory", path)
	}
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("report: read %s: %w", path, err)
	}
	rows, err = parquet.Read[T](f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("report: read %s: %w", path, err)
	}
	return rows, nil
}
