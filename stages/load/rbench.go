package load

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Reviewer-benchmark inputs (rules I8, G6): the private case labels, the
// frozen task files of every case and the finding adjudications. The
// manifest's benchmark member freezes cases.json and inventory.json by
// sha256; task files are content-addressed under sources/ like the
// paired review's source files.

// Size caps of the reviewer-benchmark documents (docs/format.md).
const (
	maxCases     = 8 * mib
	maxInventory = 8 * mib
)

const findingAdjudicationsFile = "finding_adjudications.jsonl"

// checkBenchmarkDesign checks the design of every kind against the
// benchmark member: a reviewer benchmark has a benchmark plan, exactly two
// profiles and no tasks or slots of its own (its schedule is every case ×
// profile × run); every other kind has no plan and at least one task.
func checkBenchmarkDesign(m *tables.Manifest, at position, sched scheduleAt) rules.Findings {
	var out rules.Findings
	bad := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, at.finding(code, ptr, fmt.Sprintf(format, args...)))
	}
	if m.Kind != rules.KindReviewerBenchmark {
		if m.Benchmark != nil {
			bad(rules.CodeRbenchPlanUnexpected, "/benchmark", "kind %q has no benchmark member; only reviewer-benchmark campaigns do", m.Kind)
		}
		if len(m.Design.Tasks) == 0 {
			bad(rules.CodeRbenchDesignInvalid, "/design/tasks", "a %s design lists at least one task", m.Kind)
		}
		return out
	}
	if m.Benchmark == nil {
		bad(rules.CodeRbenchPlanMissing, "", "a reviewer-benchmark manifest must freeze its cases and inventory in a benchmark member")
	}
	d := &m.Design
	if len(d.Arms) != 2 {
		bad(rules.CodeRbenchDesignInvalid, "/design/arms", "a reviewer benchmark compares exactly two profiles, the baseline first; the design lists %d", len(d.Arms))
	}
	if len(d.Tasks) > 0 {
		bad(rules.CodeRbenchDesignInvalid, "/design/tasks", "a reviewer benchmark's cases are in its cases file; design.tasks must be empty")
	}
	if len(d.Schedule) > 0 {
		sat, ptr := sched.whole()
		out = append(out, sat.finding(rules.CodeRbenchDesignInvalid, ptr, "a reviewer benchmark schedules every case × profile × run; its design's schedule must be empty"))
	}
	return out
}

// loadBenchmark reads the cases, the inventory and every task file, and
// the finding adjudications, of a reviewer benchmark.
func (l *loader) loadBenchmark() {
	plan := l.c.Manifest.Benchmark
	if l.c.Manifest.Kind != rules.KindReviewerBenchmark || plan == nil {
		return
	}
	b := &tables.Benchmark{Files: map[string][]tables.InventoryFile{}, Checksums: map[string]string{}}
	if data := l.readHashed(plan.CasesPath, maxCases, plan.CasesSHA256, "the benchmark cases"); data != nil {
		var cs tables.Cases
		at := position{file: plan.CasesPath}
		ok, findings := decodeDoc(data, "cases", at, &cs)
		l.add(findings...)
		if ok {
			b.Cases = cs.Cases
			if cs.Excluded != nil {
				b.Excluded = *cs.Excluded
			}
			l.add(checkCases(cs.Cases, at)...)
			l.add(checkAudit(&cs, at)...)
		}
	}
	if data := l.readHashed(plan.InventoryPath, maxInventory, plan.InventorySHA256, "the benchmark inventory"); data != nil {
		var inv tables.Inventory
		at := position{file: plan.InventoryPath}
		ok, findings := decodeDoc(data, "inventory", at, &inv)
		l.add(findings...)
		if ok {
			l.checkInventory(b, &inv, at)
		}
	}
	l.checkDefectLocations(b, position{file: plan.CasesPath})
	l.checkVariantDiffs(b, position{file: plan.CasesPath})
	b.Adjudications = readJSONL(l, findingAdjudicationsFile, "finding-adjudication",
		func(a *tables.FindingAdjudication) string { return a.SessionID })
	l.c.Benchmark = b
}

// checkCases checks case IDs are unique, each case's kind agrees with its
// variant name and defect, every family has exactly one clean case, and
// no lineage group or family spans more than one split.
func checkCases(cases []tables.Case, at position) rules.Findings {
	var out rules.Findings
	bad := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, at.finding(code, ptr, fmt.Sprintf(format, args...)))
	}
	u := uniqueIDs{at: at}
	clean := map[string]int{}
	var families []string
	for i, c := range cases {
		ptr := indexPointer("/cases", i)
		u.check("case", c.ID, "/cases", i)
		if !slices.Contains(families, c.Family) {
			families = append(families, c.Family)
		}
		switch {
		case c.Kind == tables.CaseClean && (c.Variant != nil || c.Defect != nil):
			bad(rules.CodeRbenchCaseInvalid, ptr, "clean case %q must have variant and defect null", c.ID)
		case c.Kind == tables.CaseVariant && (c.Variant == nil || c.Defect == nil):
			bad(rules.CodeRbenchCaseInvalid, ptr, "variant %q must name its variant and its one planted defect", c.ID)
		}
		if c.Kind == tables.CaseClean {
			clean[c.Family]++
		}
	}
	out = append(out, u.out...)
	for _, f := range families {
		if clean[f] != 1 {
			bad(rules.CodeRbenchCaseInvalid, "/cases", "family %q has %d clean cases; exactly one is required", f, clean[f])
		}
	}
	out = append(out, splitCrossings(cases, "lineage group", func(c *tables.Case) string { return c.LineageGroup }, at)...)
	return append(out, splitCrossings(cases, "family", func(c *tables.Case) string { return c.Family }, at)...)
}

// checkAudit checks what the label audit records (rule I8: "A second
// reviewer checks each proposed clean case and each mutation rationale";
// "Retain exclusions and reasons; they affect achieved corpus size"):
// the format is v2, which records them; every audited case names its
// second reviewer; every variant, and no clean case, states its mutation
// rationale; the register of excluded cases is present and names no case
// twice and no scored case.
func checkAudit(cs *tables.Cases, at position) rules.Findings {
	var out rules.Findings
	bad := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, at.finding(code, ptr, fmt.Sprintf(format, args...)))
	}
	if cs.Format == tables.FormatCasesV1 {
		bad(rules.CodeRbenchCasesFormatOld, "/format", "cases.json is %s, which records no second reviewer per audited case, no mutation rationale per variant and no register of excluded cases; rewrite it as %s with them (docs/format.md)",
			tables.FormatCasesV1, tables.FormatCases)
		return out
	}
	for i, c := range cs.Cases {
		ptr := indexPointer("/cases", i)
		if c.Label == tables.LabelAudited && (c.SecondReviewer == nil || strings.TrimSpace(*c.SecondReviewer) == "") {
			what := "proposed clean case"
			if c.Kind == tables.CaseVariant {
				what = "variant's mutation rationale"
			}
			bad(rules.CodeRbenchSecondReviewMissing, ptr+"/second_reviewer", "case %q is audited but names no second reviewer: a second reviewer checks each %s, and a case nobody checked stays provisional", c.ID, what)
		}
		switch {
		case c.Kind == tables.CaseVariant && (c.MutationRationale == nil || strings.TrimSpace(*c.MutationRationale) == ""):
			bad(rules.CodeRbenchRationaleMissing, ptr+"/mutation_rationale", "variant %q states no mutation rationale: why its planted defect is a defect and what it tests", c.ID)
		case c.Kind == tables.CaseClean && c.MutationRationale != nil:
			bad(rules.CodeRbenchRationaleMissing, ptr+"/mutation_rationale", "clean case %q states a mutation rationale; only a variant has one", c.ID)
		}
	}
	if cs.Excluded == nil {
		bad(rules.CodeRbenchExcludedScored, "", "cases.json has no register of excluded cases (excluded: [] when none was excluded): exclusions and their reasons are retained")
		return out
	}
	seen := map[string]bool{}
	for i, e := range *cs.Excluded {
		ptr := indexPointer("/excluded", i) + "/id"
		switch {
		case seen[e.ID]:
			bad(rules.CodeRbenchExcludedScored, ptr, "excluded case %q is registered twice", e.ID)
		case slices.ContainsFunc(cs.Cases, func(c tables.Case) bool { return c.ID == e.ID }):
			bad(rules.CodeRbenchExcludedScored, ptr, "case %q is registered as excluded (%s) and is also a scored case", e.ID, e.Reason)
		}
		seen[e.ID] = true
	}
	return out
}

// splitCrossings reports every group (by key) whose cases lie in more than
// one split, at the first case that leaves the group's first split.
func splitCrossings(cases []tables.Case, what string, key func(*tables.Case) string, at position) rules.Findings {
	var out rules.Findings
	first := map[string]int{}
	reported := map[string]bool{}
	for i := range cases {
		k := key(&cases[i])
		j, seen := first[k]
		switch {
		case !seen:
			first[k] = i
		case cases[j].Split != cases[i].Split && !reported[k]:
			reported[k] = true
			out = append(out, at.finding(rules.CodeRbenchLineageSplits, indexPointer("/cases", i)+"/split",
				fmt.Sprintf("%s %q crosses splits: case %q is in %s but case %q is in %s", what, k, cases[i].ID, cases[i].Split, cases[j].ID, cases[j].Split)))
		}
	}
	return out
}

// checkInventory checks that the inventory lists exactly the cases, each
// case's paths are unique and sorted, and every file is in sources/ with
// its sha256 and byte count; it fills b.Files and b.Checksums.
func (l *loader) checkInventory(b *tables.Benchmark, inv *tables.Inventory, at position) {
	bad := func(ptr, format string, args ...any) {
		l.add(at.finding(rules.CodeRbenchInventoryMismatch, ptr, fmt.Sprintf(format, args...)))
	}
	for i, cf := range inv.Cases {
		ptr := indexPointer("/cases", i)
		if _, dup := b.Files[cf.CaseID]; dup {
			bad(ptr+"/case_id", "case %q is listed twice", cf.CaseID)
			continue
		}
		if b.Cases != nil && b.Case(cf.CaseID) == nil {
			bad(ptr+"/case_id", "case %q is not in the cases file", cf.CaseID)
		}
		for j, f := range cf.Files {
			fptr := indexPointer(ptr+"/files", j)
			if j > 0 && strings.Compare(cf.Files[j-1].Path, f.Path) >= 0 {
				bad(fptr+"/path", "path %q is not after %q: a case's files are sorted by path and unique", f.Path, cf.Files[j-1].Path)
			}
			if src, ok := l.source(f.SHA256); ok && int64(len(src)) != f.Bytes {
				bad(fptr+"/bytes", "sources/%s has %d bytes but the inventory says %d", f.SHA256, len(src), f.Bytes)
			}
		}
		b.Files[cf.CaseID] = cf.Files
		b.Checksums[cf.CaseID] = tables.TaskChecksum(cf.Files)
	}
	for _, c := range b.Cases {
		if _, ok := b.Files[c.ID]; !ok {
			bad("/cases", "case %q has no task files in the inventory", c.ID)
		}
	}
}

// checkDefectLocations checks every planted defect's location is a file
// of its case and within that file's lines.
func (l *loader) checkDefectLocations(b *tables.Benchmark, at position) {
	for i, c := range b.Cases {
		if c.Defect == nil {
			continue
		}
		loc := c.Defect.Location
		ptr := indexPointer("/cases", i) + "/defect/location"
		files, ok := b.Files[c.ID]
		if !ok {
			continue // reported by checkInventory
		}
		k := slices.IndexFunc(files, func(f tables.InventoryFile) bool { return f.Path == loc.Path })
		if k < 0 {
			l.add(at.finding(rules.CodeRbenchDefectLocation, ptr+"/path", fmt.Sprintf("%q is not a task file of case %q", loc.Path, c.ID)))
			continue
		}
		src, ok := l.c.Sources[files[k].SHA256]
		if !ok || src == nil {
			continue
		}
		if n := int64(len(tables.LineStarts(src)) - 1); loc.StartLine > loc.EndLine || loc.EndLine > n {
			l.add(at.finding(rules.CodeRbenchDefectLocation, ptr+"/end_line",
				fmt.Sprintf("lines %d-%d are not within the %d lines of %s", loc.StartLine, loc.EndLine, n, loc.Path)))
		}
	}
}
