package score

// The blinded adjudication protocol (rule Q1): quality graders
// see anonymized final answers and the frozen truth, never arm, cost,
// timing, model or reconciliation fields, and their ratings are frozen
// before arm and cost are revealed.
//
// Invariants of an export:
//   - Exactly the review sessions that need ratings (a valid final answer
//     of a planned run's scored attempt) are exported, one item each.
//   - A label is HMAC-SHA256(session ID) under a key derived from the
//     manifest sha256, the manifest's frozen seed and the export seed: the
//     same campaign and seed give the same labels, and a label says nothing
//     about arm or order without the key. Items are sorted by label.
//   - Items and the key are deterministic bytes: the same inputs give
//     byte-identical files.

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// blindLabelDomain separates the label key from every other use of the seeds.
const blindLabelDomain = "evalgate.blind-label/v1"

// maxBlindAnswer caps one answer read for export (the campaign format's cap).
const maxBlindAnswer = 4 << 20

// BlindExport is one export: the items graders see and the sealed key.
type BlindExport struct {
	Items   []BlindFile     // sorted by label
	Key     tables.BlindKey // entries sorted by label
	KeyData []byte          // the bytes of key.sealed.json
}

// BlindFile is the name and exact bytes of one exported item.
type BlindFile struct {
	Label string
	Data  []byte // items/<Label>.json
}

// BlindLabeler derives the stable, keyed labels of one campaign and seed.
type BlindLabeler struct{ key []byte }

// NewBlindLabeler returns the labeler of the campaign whose manifest has
// the given sha256 and frozen seed, under the export seed.
func NewBlindLabeler(manifestSHA256 string, manifestSeed, seed uint64) BlindLabeler {
	h := sha256.New()
	for _, part := range []string{blindLabelDomain, manifestSHA256,
		strconv.FormatUint(manifestSeed, 10), strconv.FormatUint(seed, 10)} {
		io.WriteString(h, part)
		h.Write([]byte{0})
	}
	return BlindLabeler{key: h.Sum(nil)}
}

// Label returns the label of a session: "L" and 16 lowercase hex digits of
// HMAC-SHA256(session ID).
func (b BlindLabeler) Label(sessionID string) string {
	m := hmac.New(sha256.New, b.key)
	io.WriteString(m, sessionID)
	return "L" + hex.EncodeToString(m.Sum(nil)[:8])
}

// ExportBlind builds the anonymized items of every review session of c
// that needs ratings and the sealed key mapping labels back to sessions,
// all in memory (StreamBlind writes them one at a time instead).
// sessions is the validate stage's sessions table; answers are re-read
// through answers. seed is the export seed. An error means an answer could
// not be re-read or encoded; it is not a property of the campaign's rules.
func ExportBlind(c *tables.Campaign, sessions *spool.Spool[tables.Session], answers tables.Answers, seed uint64) (*BlindExport, error) {
	var items []BlindFile
	exp, err := StreamBlind(c, sessions, answers, seed, nil, func(label string, data []byte) error {
		items = append(items, BlindFile{Label: label, Data: data})
		return nil
	})
	if err != nil {
		return nil, err
	}
	exp.Items = items
	return exp, nil
}

// StreamBlind is ExportBlind passing each item to write as soon as it is
// built, in label order, so that one item at a time is held however many
// sessions need ratings; the export it returns has the key, and no items.
// Every label is decided first and given to prepare (when not nil) before
// any item is built, so that the caller can refuse a directory holding
// files the export would not write before it writes any.
func StreamBlind(c *tables.Campaign, sessions *spool.Spool[tables.Session], answers tables.Answers, seed uint64,
	prepare func(labels []string) error, write func(label string, data []byte) error) (*BlindExport, error) {
	labeler := NewBlindLabeler(c.ManifestSHA256, c.Manifest.Seed, seed)
	in := newInputs(c, sessions, nil, nil)
	exp := &BlindExport{Key: tables.BlindKey{
		Format: tables.FormatBlindKey, CampaignID: c.Manifest.CampaignID,
		ManifestSHA256: c.ManifestSHA256, Seed: seed, Entries: []tables.BlindKeyEntry{},
	}}
	type labelled struct {
		label string
		run   *plannedRun
	}
	var todo []labelled
	seen := map[string]string{} // label → session
	for _, p := range in.plan {
		if !needsRatings(p) {
			continue
		}
		sid := p.review.SessionID
		label := labeler.Label(sid)
		if other, dup := seen[label]; dup {
			return nil, fmt.Errorf("sessions %s and %s share blind label %s; choose another --seed", other, sid, label)
		}
		seen[label] = sid
		todo = append(todo, labelled{label, p})
	}
	slices.SortFunc(todo, func(a, b labelled) int { return cmp.Compare(a.label, b.label) })
	if prepare != nil {
		labels := make([]string, len(todo))
		for i, l := range todo {
			labels[i] = l.label
		}
		if err := prepare(labels); err != nil {
			return nil, err
		}
	}
	outputs := answerRefs(c, in.plan)
	for _, l := range todo {
		sid := l.run.review.SessionID
		data, err := blindItem(c, answers, l.run, l.label, outputs[attemptKey{sid, l.run.review.Attempt}])
		if err != nil {
			return nil, fmt.Errorf("session %s: %w", sid, err)
		}
		sum := sha256.Sum256(data)
		exp.Key.Entries = append(exp.Key.Entries, tables.BlindKeyEntry{Label: l.label, SessionID: sid, ItemSHA256: hex.EncodeToString(sum[:])})
		if err := write(l.label, data); err != nil {
			return nil, err
		}
	}
	var err error
	exp.KeyData, err = encodeBlind(&exp.Key)
	return exp, err
}

// blindItem builds the bytes of one item: task, truth and the answer's
// final part, nothing else.
func blindItem(c *tables.Campaign, answers tables.Answers, p *plannedRun, label string, out *tables.OutputRef) ([]byte, error) {
	final, err := readFinal(answers, out)
	if err != nil {
		return nil, err
	}
	item := tables.BlindItem{Format: tables.FormatBlindItem, Label: label, TaskID: p.spec.ID, Truth: []tables.TruthObligation{}, Final: *final}
	if t := c.Task(p.spec.ID); t != nil {
		item.Task = string(t.Text)
		item.Truth = t.Truth.Obligations
	}
	return encodeBlind(&item)
}

// answerRefs is, for the review of each run of plan that needs ratings,
// the output its receipt records: that of the last receipt of the
// review's session ID and attempt, in one pass over the receipts.
func answerRefs(c *tables.Campaign, plan []*plannedRun) map[attemptKey]*tables.OutputRef {
	out := map[attemptKey]*tables.OutputRef{}
	for _, p := range plan {
		if needsRatings(p) {
			out[attemptKey{p.review.SessionID, p.review.Attempt}] = nil
		}
	}
	for l := range c.Receipts.All() {
		k := attemptKey{l.Record.SessionID, l.Record.Attempt}
		if _, want := out[k]; want {
			out[k] = l.Record.Output
		}
	}
	return out
}

// readFinal re-reads a session's answer through out, its receipt's output,
// and decodes its final member strictly. The validate stage already found
// it valid.
func readFinal(answers tables.Answers, out *tables.OutputRef) (*tables.Final, error) {
	if out == nil || answers == nil {
		return nil, fmt.Errorf("no answer recorded for the session")
	}
	data, matches, err := answers.Read(out)
	if err != nil {
		return nil, err
	}
	if !matches || len(data) > maxBlindAnswer {
		return nil, fmt.Errorf("answer %s no longer has the receipt's sha256", out.Path)
	}
	var top struct {
		Final jsontext.Value `json:"final"`
	}
	if err := json.Unmarshal(data, &top); err != nil || top.Final == nil {
		return nil, fmt.Errorf("answer %s: final cannot be decoded: %v", out.Path, err)
	}
	var final tables.Final
	if err := json.Unmarshal(top.Final, &final, json.RejectUnknownMembers(true)); err != nil {
		return nil, fmt.Errorf("answer %s: final cannot be decoded: %v", out.Path, err)
	}
	return &final, nil
}

// encodeBlind is the one encoding of blind files: deterministic, indented
// JSON with a final newline.
func encodeBlind(v any) ([]byte, error) {
	b, err := json.Marshal(v, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return nil, err
	}
	return append(bytes.TrimSpace(b), '\n'), nil
}
