package importers

import (
	"archive/zip"
	"cmp"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
)

// Members of a .eval archive that evalgate reads.
const (
	evalHeaderMember  = "header.json"
	evalJournalStart  = "_journal/start.json"
	evalSamplesPrefix = "samples/"
)

// readEval reads a .eval zip: header.json (or, for a log whose run was
// killed, _journal/start.json) and every samples/*.json member, in name
// order. Other members are never decompressed.
func (ir *inspectReader) readEval(r io.ReaderAt, size int64) {
	name := ir.log.Name
	ir.log.Layout = InspectLayoutEval
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		ir.reject(name, "", rules.CodeInspectLogMalformed, "the log starts like a .eval zip but is not a readable zip archive")
		return
	}
	if len(zr.File) > maxInspectMembers {
		ir.reject(name, "", rules.CodeTooLarge, fmt.Sprintf("the archive has %d members; the cap is %d", len(zr.File), maxInspectMembers))
		return
	}
	members := map[string]*zip.File{}
	var samples []string
	for _, f := range zr.File {
		if members[f.Name] != nil {
			ir.reject(name, "", rules.CodeInspectLogMalformed, fmt.Sprintf("the archive has two members named %q", load.Clip(f.Name)))
			return
		}
		members[f.Name] = f
		if dir, file := path.Split(f.Name); dir == evalSamplesPrefix && strings.HasSuffix(file, ".json") {
			samples = append(samples, f.Name)
		}
	}
	budget := int64(maxInspectTotalBytes)
	if !ir.evalHeader(members, &budget) {
		return
	}
	slices.Sort(samples)
	for _, m := range samples {
		data, ok := ir.member(members[m], &budget)
		if !ok {
			return
		}
		var doc inspectSampleDoc
		file := name + "/" + m
		if ir.unmarshal(file, data, &doc) {
			ir.sample(file, "", &doc)
		}
	}
}

// evalHeader reads header.json, or _journal/start.json when the archive
// has no header (a journal-only log: warned, its status is unknown).
func (ir *inspectReader) evalHeader(members map[string]*zip.File, budget *int64) bool {
	member := evalHeaderMember
	if members[member] == nil {
		member = evalJournalStart
		if members[member] == nil {
			ir.reject(ir.log.Name, "", rules.CodeInspectLogMalformed,
				"the archive has neither header.json nor _journal/start.json, so it is not an Inspect log")
			return false
		}
		ir.log.Layout = InspectLayoutJournal
		ir.warn(ir.log.Name, "", rules.CodeInspectLogIncomplete,
			"the archive has no header.json (a killed or running eval); its identity comes from _journal/start.json and its status is unknown")
	}
	data, ok := ir.member(members[member], budget)
	if !ok {
		return false
	}
	var h inspectHeaderDoc
	file := ir.log.Name + "/" + member
	if !ir.unmarshal(file, data, &h) {
		return false
	}
	if member == evalJournalStart {
		h.Status = nil // a journal's start record predates the run's outcome
	}
	return ir.header(file, &h)
}

// member decompresses one archive member within its cap and what is left
// of the archive's total budget: a zip bomb stops at the cap.
func (ir *inspectReader) member(f *zip.File, budget *int64) ([]byte, bool) {
	file := ir.log.Name + "/" + f.Name
	limit := min(int64(maxInspectMemberBytes), *budget)
	if f.UncompressedSize64 > uint64(limit) {
		ir.reject(file, "", rules.CodeTooLarge, fmt.Sprintf("the member declares %d bytes; at most %d may be read", f.UncompressedSize64, limit))
		return nil, false
	}
	rc, err := f.Open()
	if err != nil {
		ir.reject(file, "", rules.CodeInspectLogMalformed, "the archive member cannot be opened: "+err.Error())
		return nil, false
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	switch {
	case int64(len(data)) > limit:
		ir.reject(file, "", rules.CodeTooLarge, fmt.Sprintf("the member decompresses to more than %d bytes", limit))
		return nil, false
	case err != nil:
		ir.reject(file, "", rules.CodeInspectLogMalformed, "the archive member cannot be decompressed: "+err.Error())
		return nil, false
	}
	*budget -= int64(len(data))
	return data, true
}

// finish sorts the samples, refuses a repeated (id, epoch), decides each
// usage's meter shape and warns about what cannot be metered.
func (ir *inspectReader) finish() {
	l := ir.log
	slices.SortStableFunc(l.Samples, func(a, b InspectSample) int {
		return cmp.Or(compareSampleIDs(a.ID, b.ID), cmp.Compare(a.Epoch, b.Epoch))
	})
	if len(l.Samples) == 0 {
		ir.warn(l.Name, "", rules.CodeInspectNoSamples, "the log has no samples, so it yields no meters")
	}
	warned := map[string]bool{}
	for i := range l.Samples {
		s := &l.Samples[i]
		if i > 0 && compareSampleIDs(l.Samples[i-1].ID, s.ID) == 0 && l.Samples[i-1].Epoch == s.Epoch {
			ir.reject(s.File, s.Pointer+"/id", rules.CodeInspectSampleDuplicate,
				fmt.Sprintf("sample %s epoch %d appears more than once", load.Clip(string(s.ID)), s.Epoch))
		}
		if len(s.Usage) == 0 {
			ir.warn(s.File, s.Pointer+"/model_usage", rules.CodeInspectSampleNoUsage,
				fmt.Sprintf("sample %s epoch %d reports no model usage, so it yields no meter", load.Clip(string(s.ID)), s.Epoch))
		}
		for j := range s.Usage {
			u := &s.Usage[j]
			shape, ok := InspectShape(l.InspectVersion, u.Model)
			u.Shape = shape
			if !ok && !warned[u.Model] {
				warned[u.Model] = true
				ir.warn(s.File, s.Pointer+"/model_usage/"+rules.PointerToken(u.Model), rules.CodeInspectProviderUnknown,
					fmt.Sprintf("inspect_ai %s predates 0.3.184 and the token semantics of model %q are unknown, so its usage yields no meter",
						load.Clip(l.InspectVersion), load.Clip(u.Model)))
			}
		}
	}
}

// compareSampleIDs orders integer ids numerically before string ids,
// which are ordered by their text.
func compareSampleIDs(a, b []byte) int {
	x, aInt := integerID(a)
	y, bInt := integerID(b)
	switch {
	case aInt && bInt:
		return cmp.Compare(x, y)
	case aInt != bInt:
		if aInt {
			return -1
		}
		return 1
	}
	var s, t string
	_ = json.Unmarshal(a, &s)
	_ = json.Unmarshal(b, &t)
	return strings.Compare(s, t)
}
