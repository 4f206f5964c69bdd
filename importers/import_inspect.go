package importers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// Size caps of an Inspect log: hostile input never makes the reader hold
// more than maxInspectTotalBytes of decompressed text.
const (
	maxInspectJSONBytes   = 256 << 20 // a whole .json log
	maxInspectMemberBytes = 64 << 20  // one member of a .eval archive
	maxInspectTotalBytes  = 512 << 20 // every member read from one .eval
	maxInspectMembers     = 100_000   // entries of a .eval archive
	maxInspectSamples     = 100_000   // samples of a .json log, as many as a .eval archive may hold
)

// Layouts of an Inspect log.
const (
	InspectLayoutJSON    = "json"         // one JSON document
	InspectLayoutEval    = "eval"         // zip with header.json and samples/*.json
	InspectLayoutJournal = "eval-journal" // zip of a killed or running eval: _journal/start.json, no header.json
)

// InspectLog is what evalgate reads from one Inspect AI evaluation log
// (notes/receipts.md §2.6): the header's identity and, per sample, the
// ModelUsage objects kept verbatim with the meter shape their inspect_ai
// version and provider imply.
type InspectLog struct {
	Name           string
	Layout         string
	InspectVersion string // eval.packages.inspect_ai
	Model          string // eval.model
	RunID          string // eval.run_id; "" when the header has none
	Status         string // success, error, cancelled, started; "" without header.json
	// Totals is stats.model_usage, the log's own per-model totals (nil
	// when the log has none, e.g. a journal-only .eval).
	Totals map[string]jsontext.Value
	// TotalsFile is where the totals were read: the log, or log/member of
	// a .eval (its header.json), for findings.
	TotalsFile string
	Samples    []InspectSample
	// Settings are the generation settings the log's generate config
	// states (eval.model_generate_config, overridden member by member by
	// plan.config): an empty object when it states none, nil when the log
	// records no generate config or one evalgate cannot read as settings.
	Settings *tables.GenerationSettings
}

// InspectSample is one (id, epoch) of the log, sorted by id (integers
// first, numerically, then strings) and epoch.
type InspectSample struct {
	ID          jsontext.Value // a JSON string or integer, as written
	Epoch       int64
	Usage       []InspectModelUsage // sorted by model; empty when the sample reports none
	StartedAt   *string             // RFC 3339, absent in old logs
	CompletedAt *string
	TotalTime   jsontext.Value // a JSON number (seconds) or nil
	WorkingTime jsontext.Value
	Error       jsontext.Value // nil unless the sample failed
	UUID        string         // the sample's uuid; "" in logs before it was recorded
	Limit       string         // the type of the limit the sample hit (token, time, ...); "" none
	// FirstEvent and LastEvent are the timestamps of the sample's first
	// and last transcript event, nil when it records none.
	FirstEvent, LastEvent *string
	// OutputModel and OutputText are the model and text of the sample's
	// final output (output.model, output.choices[0].message.content); nil
	// text when the sample has no completion.
	OutputModel string
	OutputText  *string
	// Input is the sample's input as the log records it (its input
	// member, compact JSON: a string or the list of messages sent); nil
	// when absent.
	Input   jsontext.Value
	File    string // where the sample was read: the log, or log/member of a .eval
	Pointer string // RFC 6901 pointer of the sample within File
}

// InspectModelUsage is one model's ModelUsage in a sample.
type InspectModelUsage struct {
	Model string
	Shape tables.UsageShape // decided by InspectShape (and DeclareHiddenOutput); "" when not decidable (warned)
	Usage jsontext.Value    // the object as written
}

// inspectHeaderDoc is the part of a log header (or _journal/start.json)
// evalgate reads; other members are ignored.
type inspectHeaderDoc struct {
	Status *string `json:"status"`
	Eval   *struct {
		Model    *string                   `json:"model"`
		RunID    *string                   `json:"run_id"`
		Packages map[string]jsontext.Value `json:"packages"`
		// ModelGenerateConfig is the generate config of the model
		// instance; the plan's config overrides it member by member.
		ModelGenerateConfig map[string]jsontext.Value `json:"model_generate_config"`
	} `json:"eval"`
	Plan *struct {
		Config map[string]jsontext.Value `json:"config"`
	} `json:"plan"`
	Stats *struct {
		ModelUsage map[string]jsontext.Value `json:"model_usage"`
	} `json:"stats"`
}

// inspectJSONDoc is a .json log: the header plus its samples.
type inspectJSONDoc struct {
	inspectHeaderDoc
	// Samples are decoded one at a time, after their number is checked
	// against maxInspectSamples: a log of a million samples is refused
	// without a million decoded samples in memory.
	Samples []jsontext.Value `json:"samples"`
}

type inspectSampleDoc struct {
	ID          jsontext.Value            `json:"id"`
	Epoch       *int64                    `json:"epoch"`
	ModelUsage  map[string]jsontext.Value `json:"model_usage"`
	StartedAt   *string                   `json:"started_at"`
	CompletedAt *string                   `json:"completed_at"`
	TotalTime   jsontext.Value            `json:"total_time"`
	WorkingTime jsontext.Value            `json:"working_time"`
	Error       jsontext.Value            `json:"error"`
	UUID        *string                   `json:"uuid"`
	Limit       *struct {
		Type *string `json:"type"`
	} `json:"limit"`
	Output *struct {
		Model   *string `json:"model"`
		Choices []struct {
			Message *struct {
				Content jsontext.Value `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	} `json:"output"`
	Input      jsontext.Value    `json:"input"`
	Events     []inspectEventDoc `json:"events"`
	Transcript *struct {
		Events []inspectEventDoc `json:"events"`
	} `json:"transcript"` // inspect_ai before events moved to the sample
}

// inspectEventDoc is the one member of a transcript event evalgate reads.
type inspectEventDoc struct {
	Timestamp *string `json:"timestamp"`
}

// ReadInspectLog reads one Inspect AI log, a .json document or a .eval zip
// (recognised by its content, not its name). It returns nil when the log
// is rejected; the findings say every problem found. Warnings (no
// samples, a sample without usage, a provider whose old semantics are
// unknown, a journal-only log) leave the log usable.
func ReadInspectLog(name string, r io.ReaderAt, size int64) (*InspectLog, rules.Findings) {
	ir := &inspectReader{log: &InspectLog{Name: name}}
	switch {
	case size < 0 || r == nil:
		ir.reject(name, "", rules.CodeInspectLogMalformed, "the log cannot be read")
	case size >= 2 && hasZipMagic(r):
		ir.readEval(r, size)
	default:
		ir.readJSON(r, size)
	}
	if !ir.out.Findings().Rejected() {
		ir.finish()
	}
	if out := ir.out.Findings(); out.Rejected() {
		return nil, out
	}
	return ir.log, ir.out.Findings()
}

func hasZipMagic(r io.ReaderAt) bool {
	var b [2]byte
	_, err := r.ReadAt(b[:], 0)
	return err == nil && b == [2]byte{'P', 'K'}
}

// inspectReader accumulates one log and its findings.
type inspectReader struct {
	log *InspectLog
	out rules.FindingCap // a log of a million bad samples keeps a hundred findings per code
}

func (ir *inspectReader) reject(file, ptr string, code rules.Code, msg string) {
	ir.out.Add(rules.Finding{Code: code, Severity: rules.Reject, File: file, Pointer: ptr, Message: msg})
}

func (ir *inspectReader) warn(file, ptr string, code rules.Code, msg string) {
	ir.out.Add(rules.Finding{Code: code, Severity: rules.Warn, File: file, Pointer: ptr, Message: msg})
}

func (ir *inspectReader) readJSON(r io.ReaderAt, size int64) {
	name := ir.log.Name
	ir.log.Layout = InspectLayoutJSON
	if size > maxInspectJSONBytes {
		ir.reject(name, "", rules.CodeTooLarge, fmt.Sprintf("the log has %d bytes; the cap is %d", size, maxInspectJSONBytes))
		return
	}
	data := make([]byte, size) // read once, at its measured size
	if _, err := io.ReadFull(io.NewSectionReader(r, 0, size), data); err != nil {
		ir.reject(name, "", rules.CodeFileUnreadable, "the log cannot be read: "+err.Error())
		return
	}
	// The samples are counted by streaming over the document before any
	// is copied out of it: a log of a million samples is refused holding
	// only its bytes, not a million decoded members as well.
	if n, ok := countInspectSamples(data); ok && n > maxInspectSamples {
		ir.reject(name, "/samples", rules.CodeTooLarge, fmt.Sprintf("the log has %d samples; the cap is %d", n, maxInspectSamples))
		return
	}
	var doc inspectJSONDoc
	if !ir.unmarshal(name, data, &doc) {
		return
	}
	data = nil
	if n := len(doc.Samples); n > maxInspectSamples {
		ir.reject(name, "/samples", rules.CodeTooLarge, fmt.Sprintf("the log has %d samples; the cap is %d", n, maxInspectSamples))
		return
	}
	// Every sample must decode before the header is read, as when the
	// whole document was decoded at once; each is then decoded again, one
	// at a time, to be read.
	var d inspectSampleDoc
	for i, raw := range doc.Samples {
		if d = (inspectSampleDoc{}); !ir.unmarshalAt(name, "/samples/"+strconv.Itoa(i), raw, &d) {
			return
		}
	}
	if !ir.header(name, &doc.inspectHeaderDoc) {
		return
	}
	for i, raw := range doc.Samples {
		d = inspectSampleDoc{}
		ir.unmarshalAt(name, "", raw, &d)
		ir.sample(name, "/samples/"+strconv.Itoa(i), &d)
		doc.Samples[i] = nil
	}
}

// countInspectSamples counts the elements of a .json log's top-level
// "samples" array without decoding or copying any (the decoder reads data
// in place and skips each value). ok is false when the document is not a
// JSON object with such an array, or is malformed before its end: the
// decoding that follows reports why.
func countInspectSamples(data []byte) (n int, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return 0, false
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return 0, false
		}
		if name.String() != "samples" || dec.PeekKind() != '[' {
			if dec.SkipValue() != nil {
				return 0, false
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return 0, false
		}
		for dec.PeekKind() != ']' {
			if dec.SkipValue() != nil {
				return 0, false
			}
			n++
		}
		return n, true
	}
	return 0, false
}

// unmarshalAt decodes one member of a document already checked to be
// valid JSON; a value of the wrong type is one finding, positioned at
// prefix plus its pointer within the member.
func (ir *inspectReader) unmarshalAt(file, prefix string, data []byte, v any) bool {
	err := json.Unmarshal(data, v)
	if err == nil {
		return true
	}
	ptr := prefix
	if se := (*json.SemanticError)(nil); errors.As(err, &se) {
		ptr += string(se.JSONPointer)
	}
	ir.reject(file, ptr, rules.CodeInspectLogMalformed, fmt.Sprintf("the value at %q does not have the type an Inspect log uses there", ptr))
	return false
}

// unmarshal decodes data (strict JSON, unknown members ignored) and turns
// a decoding error into one positioned finding.
func (ir *inspectReader) unmarshal(file string, data []byte, v any) bool {
	if len(bytes.TrimSpace(data)) == 0 || jsontext.Value(bytes.TrimSpace(data)).Kind() != '{' {
		ir.reject(file, "", rules.CodeInspectLogMalformed, "the document is not a JSON object, so it is not an Inspect log")
		return false
	}
	err := json.Unmarshal(data, v)
	if err == nil {
		return true
	}
	var se *json.SemanticError
	var xe *jsontext.SyntacticError
	switch {
	case errors.As(err, &xe):
		ir.out.Add(load.JSONSyntaxFinding(file, xe))
	case errors.As(err, &se):
		ir.reject(file, string(se.JSONPointer), rules.CodeInspectLogMalformed,
			fmt.Sprintf("the value at %q does not have the type an Inspect log uses there", string(se.JSONPointer)))
	default:
		ir.reject(file, "", rules.CodeJSONSyntax, "the document is not valid JSON")
	}
	return false
}

// header records the log identity. It reports whether the version is known.
func (ir *inspectReader) header(file string, h *inspectHeaderDoc) bool {
	if h.Status != nil {
		ir.log.Status = *h.Status
	}
	if h.Eval == nil || h.Eval.Model == nil {
		ir.reject(file, "/eval/model", rules.CodeInspectLogMalformed, "the log header has no eval.model, so it is not an Inspect log")
		return false
	}
	ir.log.Model = *h.Eval.Model
	var plan map[string]jsontext.Value
	if h.Plan != nil {
		plan = h.Plan.Config
	}
	ir.log.Settings = inspectSettings(h.Eval.ModelGenerateConfig, plan)
	if h.Eval.RunID != nil {
		ir.log.RunID = *h.Eval.RunID
	}
	if h.Stats != nil && h.Stats.ModelUsage != nil {
		ir.log.Totals, ir.log.TotalsFile = h.Stats.ModelUsage, file
	}
	var version string
	raw := h.Eval.Packages["inspect_ai"]
	if raw.Kind() != '"' || json.Unmarshal(raw, &version) != nil {
		ir.reject(file, "/eval/packages/inspect_ai", rules.CodeInspectVersionUnknown,
			"the log header does not name its inspect_ai version, so its token semantics are unknown")
		return false
	}
	ir.log.InspectVersion = version
	if _, ok := parseInspectVersion(version); !ok {
		ir.reject(file, "/eval/packages/inspect_ai", rules.CodeInspectVersionUnknown,
			fmt.Sprintf("the inspect_ai version %q cannot be parsed, so its token semantics are unknown", load.Clip(version)))
		return false
	}
	return true
}

// sample checks and records one sample document at file#ptr.
func (ir *inspectReader) sample(file, ptr string, d *inspectSampleDoc) {
	s := InspectSample{File: file, Pointer: ptr, StartedAt: d.StartedAt, CompletedAt: d.CompletedAt,
		TotalTime: nonNull(d.TotalTime), WorkingTime: nonNull(d.WorkingTime), Error: nonNull(d.Error)}
	ok := true
	bad := func(member, msg string) {
		ir.reject(file, ptr+member, rules.CodeInspectLogMalformed, msg)
		ok = false
	}
	if _, isInt := integerID(d.ID); !isInt && d.ID.Kind() != '"' {
		bad("/id", "a sample id must be a JSON string or integer")
	}
	s.ID = d.ID
	ir.sampleExtras(&s, d, bad)
	if d.Epoch == nil || *d.Epoch < 1 {
		bad("/epoch", "a sample epoch must be a positive integer")
	} else {
		s.Epoch = *d.Epoch
	}
	for _, m := range []struct {
		member string
		at     *string
	}{{"/started_at", d.StartedAt}, {"/completed_at", d.CompletedAt}} {
		if m.at != nil {
			if _, err := time.Parse(time.RFC3339Nano, *m.at); err != nil {
				bad(m.member, fmt.Sprintf("%q is not an RFC 3339 timestamp", load.Clip(*m.at)))
			}
		}
	}
	for _, m := range []struct {
		member string
		v      jsontext.Value
	}{{"/total_time", s.TotalTime}, {"/working_time", s.WorkingTime}} {
		if m.v != nil && m.v.Kind() != '0' {
			bad(m.member, "a sample time must be a JSON number of seconds or null")
		}
	}
	for _, model := range slices.Sorted(maps.Keys(d.ModelUsage)) {
		u := d.ModelUsage[model]
		if u.Kind() != '{' {
			bad("/model_usage/"+rules.PointerToken(model), "a model_usage entry must be a JSON object")
			continue
		}
		s.Usage = append(s.Usage, InspectModelUsage{Model: model, Usage: u})
	}
	if ok {
		ir.log.Samples = append(ir.log.Samples, s)
	}
}

func nonNull(v jsontext.Value) jsontext.Value {
	if len(v) == 0 || v.Kind() == 'n' {
		return nil
	}
	return v
}

// integerID returns a sample id written as a JSON integer.
func integerID(id jsontext.Value) (int64, bool) {
	if id.Kind() != '0' {
		return 0, false
	}
	n, err := strconv.ParseInt(string(id), 10, 64)
	return n, err == nil
}

// sampleExtras records what an import needs beyond the meters: the
// sample's uuid, limit, event times and final output.
func (ir *inspectReader) sampleExtras(s *InspectSample, d *inspectSampleDoc, bad func(member, msg string)) {
	if d.UUID != nil {
		s.UUID = *d.UUID
	}
	if d.Limit != nil && d.Limit.Type != nil {
		s.Limit = *d.Limit.Type
	}
	if len(d.Input) > 0 && d.Input.Kind() != 'n' {
		s.Input = compact(d.Input)
	}
	events := d.Events
	if len(events) == 0 && d.Transcript != nil {
		events = d.Transcript.Events
	}
	for _, e := range events {
		if e.Timestamp == nil {
			continue
		}
		if _, err := time.Parse(time.RFC3339Nano, *e.Timestamp); err != nil {
			bad("/events", fmt.Sprintf("event timestamp %q is not an RFC 3339 timestamp", load.Clip(*e.Timestamp)))
			return
		}
		if s.FirstEvent == nil {
			s.FirstEvent = e.Timestamp
		}
		s.LastEvent = e.Timestamp
	}
	if o := d.Output; o != nil {
		if o.Model != nil {
			s.OutputModel = *o.Model
		}
		if len(o.Choices) > 0 && o.Choices[0].Message != nil {
			text, ok := inspectContentText(o.Choices[0].Message.Content)
			if !ok {
				bad("/output/choices/0/message/content", "a message content must be a string or an array of content parts")
				return
			}
			s.OutputText = text
		}
	}
}

// inspectContentText returns a message content's text: the string itself,
// or the concatenated text of an array's "text" parts. nil when there is
// no content.
func inspectContentText(v jsontext.Value) (*string, bool) {
	switch v.Kind() {
	case 0, 'n':
		return nil, true
	case '"':
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, false
		}
		return &s, true
	case '[':
		var parts []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if json.Unmarshal(v, &parts) != nil {
			return nil, false
		}
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "text" && p.Text != nil {
				b.WriteString(*p.Text)
			}
		}
		s := b.String()
		return &s, true
	}
	return nil, false
}

// inspectSettings reads the generation settings of an Inspect generate
// config: max_tokens, temperature, top_p, seed and reasoning_effort, the
// plan's member over the model's. It is nil when neither config is
// recorded or a member has a value that is no setting (a negative or
// non-numeric temperature, a fractional token count): nothing is
// guessed.
func inspectSettings(model, plan map[string]jsontext.Value) *tables.GenerationSettings {
	if model == nil && plan == nil {
		return nil
	}
	member := func(name string) jsontext.Value {
		if v := nonNull(plan[name]); v != nil {
			return v
		}
		return nonNull(model[name])
	}
	s := &tables.GenerationSettings{}
	ok := true
	decimal := func(name string) *string {
		v := member(name)
		if v == nil {
			return nil
		}
		f, err := strconv.ParseFloat(string(v), 64)
		text := strconv.FormatFloat(f, 'f', -1, 64)
		if v.Kind() != '0' || err != nil || f < 0 || math.IsInf(f, 0) {
			ok = false
			return nil
		}
		if _, err := tables.ParseMoney(text); err != nil {
			ok = false
			return nil
		}
		return &text
	}
	count := func(name string) *int64 {
		v := member(name)
		if v == nil {
			return nil
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if v.Kind() != '0' || err != nil || n < 0 {
			ok = false
			return nil
		}
		return &n
	}
	s.Temperature, s.TopP = decimal("temperature"), decimal("top_p")
	s.MaxOutputTokens, s.Seed = count("max_tokens"), count("seed")
	if v := member("reasoning_effort"); v != nil {
		var effort string
		if v.Kind() != '"' || json.Unmarshal(v, &effort) != nil || effort == "" || len(effort) > 64 {
			ok = false
		} else {
			s.ReasoningEffort = &effort
		}
	}
	if !ok {
		return nil
	}
	return s
}
