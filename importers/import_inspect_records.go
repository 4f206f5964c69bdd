package importers

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// InspectRecords turns a read Inspect log into one source record per
// (sample, model usage), plus one per sample that reports no usage at all
// (its receipt has no meter). fileSHA256 is the log file's sha256. It
// refuses a log whose own totals (stats.model_usage) hold usage its samples
// do not: those tokens could be charged to no session.
func InspectRecords(log *InspectLog, fileSHA256 string) ([]SourceRecord, rules.Findings) {
	var out []SourceRecord
	var fs rules.Findings
	for _, s := range log.Samples {
		base := SourceRecord{
			Source: tables.SourceInspect, File: log.Name, Pointer: s.Pointer, FileSHA256: fileSHA256,
			StartedAt: sourceTime(firstNonNil(s.StartedAt, s.FirstEvent)),
			EndedAt:   sourceTime(firstNonNil(s.CompletedAt, s.LastEvent)),
			RequestID: inspectRequestID(log, &s), ReturnedModel: s.OutputModel,
			Match:    tables.ImportMatch{Record: log.RunID, Sample: sampleIDText(s.ID), Epoch: s.Epoch},
			Settings: log.Settings,
		}
		switch {
		case s.Error != nil:
			base.Error = "error"
		case s.Limit != "":
			base.Error = "limit:" + s.Limit
		}
		if len(s.Input) > 0 {
			base.Input = s.Input
		}
		if base.Error == "" && s.OutputText != nil {
			base.Output = []byte(*s.OutputText)
		}
		if len(s.Usage) == 0 {
			r := base
			r.Match.Model = log.Model // the eval's model: the sample reports no usage of its own
			out = append(out, r)
			continue
		}
		for _, u := range s.Usage {
			r := base
			r.Match.Model = u.Model
			// Usage is kept even when its shape is unknown (then no meter):
			// the log's totals are checked against every usage it holds.
			r.MeterShape, r.Usage = u.Shape, withoutFloats(compact(u.Usage))
			out = append(out, r)
		}
	}
	fs = append(fs, inspectUnattributed(log, out)...)
	return out, fs
}

func firstNonNil(a, b *string) *string {
	if a != nil {
		return a
	}
	return b
}

// sampleIDText is a sample id as the mapping names it: a string id's
// text, an integer id's decimal digits.
func sampleIDText(id []byte) string {
	if n, ok := integerID(id); ok {
		return strconv.FormatInt(n, 10)
	}
	var s string
	_ = json.Unmarshal(id, &s)
	return s
}

// inspectRequestID is the sample's own uuid, or, in logs that predate it,
// the run, sample id and epoch joined by dots.
func inspectRequestID(log *InspectLog, s *InspectSample) string {
	if s.UUID != "" {
		return s.UUID
	}
	return log.RunID + "." + sampleIDText(s.ID) + "." + strconv.FormatInt(s.Epoch, 10)
}

// withoutFloats drops the float members of an Inspect ModelUsage
// (total_cost): evalgate's documents hold integers only, and cost is
// recomputed exactly from the buckets.
func withoutFloats(usage []byte) []byte {
	var m map[string]jsontext.Value
	if json.Unmarshal(usage, &m) != nil || m["total_cost"] == nil {
		return usage
	}
	delete(m, "total_cost")
	b, err := json.Marshal(m, json.Deterministic(true))
	if err != nil {
		return usage
	}
	return b
}

// inspectUnattributed compares the log's own per-model totals with the
// sum of its samples' usage, member by member: a total above the samples'
// sum is usage that belongs to no sample. One finding per model names
// every such member and what to do.
func inspectUnattributed(log *InspectLog, recs []SourceRecord) rules.Findings {
	var fs rules.Findings
	for _, model := range slices.Sorted(maps.Keys(log.Totals)) {
		total := intMembers(log.Totals[model])
		sum := map[string]int64{}
		for _, r := range recs {
			if r.Match.Model != model || r.Usage == nil {
				continue
			}
			for k, v := range intMembers(r.Usage) {
				sum[k] += v
			}
		}
		var over []string
		for _, k := range slices.Sorted(maps.Keys(total)) {
			if v := total[k]; v > sum[k] {
				over = append(over, fmt.Sprintf("%s %d of which its samples account for %d", k, v, sum[k]))
			}
		}
		if len(over) > 0 {
			fs = append(fs, rules.Finding{Code: rules.CodeImportUsageUnattributed, Severity: rules.Reject,
				File: log.TotalsFile, Pointer: "/stats/model_usage/" + rules.PointerToken(model),
				Message: fmt.Sprintf("the log's totals for %s hold usage that belongs to no sample (%s), so no session could be charged for it; "+
					"leave this log out, or import a log of the same run whose samples record their usage", load.Clip(model), strings.Join(over, "; "))})
		}
	}
	return fs
}

// intMembers returns the integer members of a JSON object (others are
// skipped); nil when v is not an object.
func intMembers(v []byte) map[string]int64 {
	var m map[string]jsontext.Value
	if json.Unmarshal(v, &m) != nil {
		return nil
	}
	out := map[string]int64{}
	for k, raw := range m {
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			out[k] = n
		}
	}
	return out
}
