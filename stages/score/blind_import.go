package score

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// BlindImport is what `evalgate blind import` checks: the campaign, the
// sealed key of its export, the graders' ratings and, optionally, the
// exported items.
type BlindImport struct {
	Campaign    *tables.Campaign // the campaign the export was made from
	KeyFile     string           // for findings
	Key         *tables.BlindKey // decoded with DecodeBlindKey
	RatingsFile string           // for findings
	Ratings     []tables.Line[tables.BlindRating]
	// UnblindedAt is the unblinding time given on the command line; the
	// earlier of it and the campaign's unblinding.json is enforced.
	UnblindedAt *time.Time
	// Items, when not nil, is the export's items directory; ItemsDir names
	// it in findings. Every item must exist with the key's sha256.
	Items    fs.FS
	ItemsDir string
}

var (
	blindLabelSyntax = regexp.MustCompile(`^L[0-9a-f]{16}$`)
	sha256Syntax     = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// DecodeBlindKey strictly decodes key.sealed.json: no unknown or repeated
// member, the format of this version, well-formed labels and hashes, and
// no label or session twice. It returns nil when the key cannot be used.
func DecodeBlindKey(file string, data []byte) (*tables.BlindKey, rules.Findings) {
	var k tables.BlindKey
	bad := func(ptr, format string, args ...any) rules.Findings {
		return rules.Findings{{Code: rules.CodeBlindKeyInvalid, Severity: rules.Reject, File: file,
			Pointer: ptr, Message: fmt.Sprintf(format, args...)}}
	}
	if err := json.Unmarshal(data, &k, json.RejectUnknownMembers(true)); err != nil {
		return nil, bad("", "the sealed key does not decode: %v", err)
	}
	if k.Format != tables.FormatBlindKey {
		return nil, bad("/format", "format is %q, not %q", clipText(k.Format), tables.FormatBlindKey)
	}
	if !sha256Syntax.MatchString(k.ManifestSHA256) {
		return nil, bad("/manifest_sha256", "manifest_sha256 is not 64 lowercase hex digits")
	}
	var out rules.Findings
	labels, sessions := map[string]bool{}, map[string]bool{}
	for i, e := range k.Entries {
		ptr := fmt.Sprintf("/entries/%d", i)
		switch {
		case !blindLabelSyntax.MatchString(e.Label) || labels[e.Label]:
			out = append(out, bad(ptr+"/label", "label %q is malformed or repeated", clipText(e.Label))...)
		case e.SessionID == "" || sessions[e.SessionID]:
			out = append(out, bad(ptr+"/session_id", "session %q is empty or repeated", clipText(e.SessionID))...)
		case !sha256Syntax.MatchString(e.ItemSHA256):
			out = append(out, bad(ptr+"/item_sha256", "item_sha256 is not 64 lowercase hex digits")...)
		}
		labels[e.Label], sessions[e.SessionID] = true, true
	}
	if len(out) > 0 {
		return nil, out
	}
	return &k, nil
}

// ImportBlind maps the ratings back to adjudications of their sessions, in
// the ratings file's order, and reports every reason to refuse them. The
// adjudications may be used only when no finding rejects.
func ImportBlind(in BlindImport) ([]tables.Adjudication, rules.Findings) {
	var out rules.Findings
	bySession := in.checkKey(&out)
	keyOK := len(out) == 0 // a refused key is reported once, not per rating
	if in.Items != nil && in.Key != nil {
		out = append(out, in.checkItems()...)
	}
	unblinded := in.unblindingTime()
	if unblinded == nil {
		out = append(out, rules.Finding{Code: rules.CodeBlindUnblindingAbsent, Severity: rules.Warn,
			Message: "no unblinding time is known (no --unblinded-at, no unblinding.json), so frozen_at is not checked against it"})
	}
	adjs := make([]tables.Adjudication, 0, len(in.Ratings))
	for _, r := range in.Ratings {
		sid, ok := bySession[r.Record.Label]
		f := in.ratingFinding(r.Line, sid)
		switch {
		case !ok:
			if keyOK {
				out = append(out, f(rules.CodeBlindLabelUnknown, "/label", "label %q is not in the sealed key", clipText(r.Record.Label)))
			}
			continue
		case !r.Record.Blinded:
			out = append(out, f(rules.CodeRatingNotBlinded, "/blinded", "rater %q was not blinded, so the rating cannot count", r.Record.Rater))
		case unblinded != nil && !r.Record.FrozenAt.Before(*unblinded):
			out = append(out, f(rules.CodeRatingAfterUnblinding, "/frozen_at", "the rating was frozen at %s, not before the unblinding at %s",
				r.Record.FrozenAt.UTC().Format(time.RFC3339Nano), unblinded.UTC().Format(time.RFC3339Nano)))
		}
		adjs = append(adjs, r.Record.Adjudication(sid))
	}
	out.Sort()
	return adjs, out
}

// checkKey checks that the key belongs to the campaign and that every
// label is the one the campaign and seed derive for its session. It
// returns the label → session map of the key's valid entries.
func (in *BlindImport) checkKey(out *rules.Findings) map[string]string {
	m := map[string]string{}
	if in.Key == nil {
		return m
	}
	c := in.Campaign
	if c != nil && in.Key.ManifestSHA256 != c.ManifestSHA256 {
		*out = append(*out, rules.Finding{Code: rules.CodeBlindKeyCampaign, Severity: rules.Reject, File: in.KeyFile,
			Pointer: "/manifest_sha256", Message: fmt.Sprintf("the key was exported from manifest %s, not this campaign's %s", in.Key.ManifestSHA256, c.ManifestSHA256)})
		return m
	}
	var labeler *BlindLabeler
	if c != nil {
		l := NewBlindLabeler(c.ManifestSHA256, c.Manifest.Seed, in.Key.Seed)
		labeler = &l
	}
	for i, e := range in.Key.Entries {
		if labeler != nil && labeler.Label(e.SessionID) != e.Label {
			*out = append(*out, rules.Finding{Code: rules.CodeBlindKeyInvalid, Severity: rules.Reject, File: in.KeyFile,
				Pointer: fmt.Sprintf("/entries/%d/label", i), Session: e.SessionID,
				Message: fmt.Sprintf("label %s is not the label this campaign and seed give session %s; the key was altered", e.Label, e.SessionID)})
			continue
		}
		m[e.Label] = e.SessionID
	}
	return m
}

// checkItems checks that the items directory holds exactly the key's
// items, each with its recorded sha256.
func (in *BlindImport) checkItems() rules.Findings {
	var out rules.Findings
	tampered := func(name, format string, args ...any) {
		out = append(out, rules.Finding{Code: rules.CodeBlindItemTampered, Severity: rules.Reject,
			File: path.Join(in.ItemsDir, name), Message: fmt.Sprintf(format, args...)})
	}
	want := map[string]bool{}
	for _, e := range in.Key.Entries {
		name := e.Label + ".json"
		want[name] = true
		got, err := fileSHA256(in.Items, name)
		switch {
		case err != nil:
			tampered(name, "the exported item cannot be read: %v", err)
		case got != e.ItemSHA256:
			tampered(name, "the item's sha256 is %s but the sealed key recorded %s", got, e.ItemSHA256)
		}
	}
	entries, err := fs.ReadDir(in.Items, ".")
	if err != nil {
		tampered("", "the items directory cannot be listed: %v", err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			tampered(e.Name(), "the items directory holds a file the sealed key does not list")
		}
	}
	return out
}

func fileSHA256(fsys fs.FS, name string) (string, error) {
	f, err := confined.OpenCampaignFile(fsys, name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// unblindingTime is the earlier of the command line's and the campaign's
// unblinding time, or nil when neither is known.
func (in *BlindImport) unblindingTime() *time.Time {
	t := in.UnblindedAt
	if c := in.Campaign; c != nil && c.Unblinding != nil && (t == nil || c.Unblinding.UnblindedAt.Before(*t)) {
		t = &c.Unblinding.UnblindedAt
	}
	return t
}

func (in *BlindImport) ratingFinding(line int64, session string) func(rules.Code, string, string, ...any) rules.Finding {
	return func(code rules.Code, ptr, format string, args ...any) rules.Finding {
		return rules.Finding{Code: code, Severity: rules.Reject, File: in.RatingsFile, Line: line,
			Pointer: ptr, Session: session, Message: fmt.Sprintf(format, args...)}
	}
}

// clipText shortens hostile text for a message.
func clipText(s string) string {
	if r := []rune(s); len(r) > 64 {
		return string(r[:64]) + "…"
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// WriteAdjudications writes adjudications as adjudications.jsonl lines:
// compact JSON in the member order of [tables.Adjudication], one per line.
func WriteAdjudications(w io.Writer, adjs []tables.Adjudication) error {
	for i := range adjs {
		b, err := json.Marshal(&adjs[i], json.Deterministic(true))
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}
