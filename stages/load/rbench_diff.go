package load

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// checkVariantDiffs checks that every variant differs from its family's
// clean case by its one planted defect and nothing else (rules I8, G6:
// "each introducing exactly one defect"; "Mutation fixtures prove the
// intended one-defect change"): the two inventories list the same files,
// except that the defect's file may exist in the variant only; every
// file but the defect's has the clean case's bytes; the defect's file
// differs, and only within the planted lines (the lines of the variant
// outside the common prefix and suffix of the two files lie inside the
// planted range; a pure deletion lies at its edge).
func (l *loader) checkVariantDiffs(b *tables.Benchmark, at position) {
	clean := map[string]string{} // family → clean case ID
	for _, c := range b.Cases {
		if c.Kind == tables.CaseClean {
			clean[c.Family] = c.ID
		}
	}
	for i, c := range b.Cases {
		if c.Kind != tables.CaseVariant || c.Defect == nil {
			continue
		}
		base, ok := clean[c.Family]
		vf, vok := b.Files[c.ID]
		cf, cok := b.Files[base]
		if !ok || !vok || !cok {
			continue // reported by the case and inventory checks
		}
		ptr := indexPointer("/cases", i)
		if msg := l.variantDiff(cf, vf, c.Defect.Location); msg != "" {
			l.add(at.finding(rules.CodeRbenchVariantNotOneDefect, ptr+"/defect/location",
				fmt.Sprintf("variant %s does not differ from clean case %s by its one planted defect at %s:%d-%d: %s",
					c.ID, base, c.Defect.Location.Path, c.Defect.Location.StartLine, c.Defect.Location.EndLine, msg)))
		}
	}
}

// variantDiff says how a variant's files differ from the clean case's
// other than by the planted defect at loc, or "".
func (l *loader) variantDiff(clean, variant []tables.InventoryFile, loc tables.Location) string {
	find := func(fs []tables.InventoryFile, path string) *tables.InventoryFile {
		if k := slices.IndexFunc(fs, func(f tables.InventoryFile) bool { return f.Path == path }); k >= 0 {
			return &fs[k]
		}
		return nil
	}
	var other []string
	for _, f := range clean {
		if find(variant, f.Path) == nil {
			other = append(other, f.Path+" is missing")
		}
	}
	for _, f := range variant {
		c := find(clean, f.Path)
		switch {
		case f.Path == loc.Path:
		case c == nil:
			other = append(other, f.Path+" is added")
		case c.SHA256 != f.SHA256:
			other = append(other, f.Path+" differs")
		}
	}
	if len(other) > 0 {
		return "outside the defect's file, " + strings.Join(other, ", ")
	}
	vf, cf := find(variant, loc.Path), find(clean, loc.Path)
	if vf == nil || cf == nil {
		return "" // a file only in the variant is the defect's; a missing one is reported by the location check
	}
	if vf.SHA256 == cf.SHA256 {
		return loc.Path + " has the clean case's bytes: nothing is planted"
	}
	vsrc, vok := l.c.Sources[vf.SHA256]
	csrc, cok := l.c.Sources[cf.SHA256]
	if !vok || !cok || vsrc == nil || csrc == nil {
		return "" // reported by the inventory check
	}
	v, c := sourceLines(vsrc), sourceLines(csrc)
	p := 0
	for p < len(v) && p < len(c) && bytes.Equal(v[p], c[p]) {
		p++
	}
	s := 0
	for s < len(v)-p && s < len(c)-p && bytes.Equal(v[len(v)-1-s], c[len(c)-1-s]) {
		s++
	}
	first, last := int64(p+1), int64(len(v)-s) // the variant's changed lines, 1-based; last < first for a deletion
	if last < first {
		if first < loc.StartLine || first > loc.EndLine+1 {
			return fmt.Sprintf("lines of the clean file are removed before variant line %d, outside the planted lines", first)
		}
		return ""
	}
	if first < loc.StartLine || last > loc.EndLine {
		return fmt.Sprintf("its lines %d-%d differ from the clean file, beyond the planted lines", first, last)
	}
	return ""
}

// sourceLines splits a file into its lines, each with its newline; a final
// newline makes no extra line.
func sourceLines(src []byte) [][]byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}
