package load

import (
	"fmt"
	"io"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// maxTrial caps one Harbor trial result.json.
const maxTrial = 1 * mib

// ReviewFiles returns the reader of a reviewer benchmark's session files:
// recorded inputs, reviewer outputs and bound probe trials.
func ReviewFiles(c *tables.Campaign) tables.ReviewFiles { return reviewFiles{answerFiles{fsys: c.FS}} }

type reviewFiles struct{ answerFiles }

// DecodeReview strictly decodes one reviewer output against the published
// review schema, reporting repeated finding IDs and criteria.
func (reviewFiles) DecodeReview(file string, data []byte) (*tables.Review, rules.Findings) {
	at := position{file: file}
	if len(data) > MaxAnswerBytes {
		return nil, rules.Findings{at.finding(rules.CodeTooLarge, "", fmt.Sprintf("review has more than %d bytes, its cap", MaxAnswerBytes))}
	}
	var r tables.Review
	ok, findings := decodeDoc(data, "review", at, &r)
	if !ok || findings.Rejected() {
		return nil, findings
	}
	return &r, findings
}

// Trial reads the trial result at path when its sha256 is sha: bounded
// to 1 MiB,
// regular files only, syntax checked (duplicate keys, UTF-8, depth) and
// decoded leniently, since Harbor writes members evalgate does not read.
func (f reviewFiles) Trial(path, sha string) (*tables.TrialResult, bool) {
	if f.fsys == nil || pathProblem(path) != "" {
		return nil, false
	}
	file, err := f.fsys.Open(path)
	if err != nil {
		return nil, false
	}
	defer file.Close()
	if st, err := file.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(file, maxTrial+1))
	if err != nil || int64(len(data)) > maxTrial || sha256Hex(data) != sha {
		return nil, false // unreadable, over the cap or another file: not bound
	}
	root, findings := parseTree(data, position{file: path})
	if root == nil || findings.Rejected() {
		return nil, true
	}
	w := &walker{s: schemaFor("trial-result"), at: position{file: path}}
	w.walk(w.s.root, root, "")
	if w.out.Findings().Rejected() {
		return nil, true
	}
	var tr tables.TrialResult
	if err := json.Unmarshal(data, &tr); err != nil {
		return nil, true
	}
	return &tr, true
}
