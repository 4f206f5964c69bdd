package validate

import (
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Record kinds of the final answer, named by their ID prefix letter.
const (
	kindClaim        = 'C'
	kindAction       = 'A'
	kindVerification = 'V'
	kindUncertainty  = 'U'
	kindExclusion    = 'X'
)

// Accepted link targets of each link field.
const (
	targetsUncertainty  = "U"
	targetsVerification = "V"
	targetsSupports     = "CAVX"
	targetsFinalIDs     = "CAVUX"
)

var kindNames = map[byte]string{
	kindClaim:        "claim",
	kindAction:       "action",
	kindVerification: "verification",
	kindUncertainty:  "uncertainty",
	kindExclusion:    "exclusion",
}

// record locates one record of the final answer.
type record struct {
	kind  byte
	index int
}

// finalIndex resolves final-answer IDs. The kind of a record is the array
// it sits in, not its prefix, so a mislabelled ID cannot change its type.
// Both indexes are slices (ids sorted by ID, cites when it is long), two
// allocations per answer where maps cost a growth and a slice per cited ID.
type finalIndex struct {
	// ids holds every record, sorted stably by ID: of a repeated ID, the
	// record met first (claims, actions, verifications, uncertainties,
	// exclusions, each in order) comes first and is the one an ID names.
	ids []indexedRecord
	// cites pairs a final ID with the evidence ID of each citation that
	// lists it in supports, sorted by final ID when there are more than
	// citesScanMax of them, in citation order otherwise.
	cites []citedPair
}

type indexedRecord struct {
	id string
	record
}

// compareIndexed orders records by ID, then of one ID as they are met
// (claims, actions, verifications, uncertainties, exclusions, each in
// order): a total order, the stable sort by ID of the records in that
// order.
func compareIndexed(a, b indexedRecord) int {
	if c := strings.Compare(a.id, b.id); c != 0 {
		return c
	}
	if a.kind != b.kind {
		return strings.IndexByte(metOrder, a.kind) - strings.IndexByte(metOrder, b.kind)
	}
	return a.index - b.index
}

// metOrder is the order the record arrays come in an answer.
const metOrder = "CAVUX"

type citedPair struct {
	id, evidence string
}

// indexFinal indexes f, reusing the arrays of reuse, an index no longer
// needed.
func indexFinal(f *tables.Final, reuse finalIndex) finalIndex {
	n := len(f.Claims) + len(f.ImplementationPlan) + len(f.VerificationPlan) + len(f.Uncertainties) + len(f.Exclusions)
	x := finalIndex{ids: slices.Grow(reuse.ids[:0], n)}
	put := func(kind byte, n int, id func(int) string) {
		for i := range n {
			x.ids = append(x.ids, indexedRecord{id(i), record{kind, i}})
		}
	}
	// in the order of their type letters, so that the IDs of an answer of
	// fewer than ten records of each type need no sort
	put(kindAction, len(f.ImplementationPlan), func(i int) string { return f.ImplementationPlan[i].ID })
	put(kindClaim, len(f.Claims), func(i int) string { return f.Claims[i].ID })
	put(kindUncertainty, len(f.Uncertainties), func(i int) string { return f.Uncertainties[i].ID })
	put(kindVerification, len(f.VerificationPlan), func(i int) string { return f.VerificationPlan[i].ID })
	put(kindExclusion, len(f.Exclusions), func(i int) string { return f.Exclusions[i].ID })
	if !slices.IsSortedFunc(x.ids, compareIndexed) {
		slices.SortFunc(x.ids, compareIndexed)
	}
	supports := 0
	for _, cit := range f.Citations {
		supports += len(cit.Supports)
	}
	x.cites = slices.Grow(reuse.cites[:0], supports)
	for _, cit := range f.Citations {
		for _, id := range cit.Supports {
			x.cites = append(x.cites, citedPair{id, cit.EvidenceID})
		}
	}
	if len(x.cites) > citesScanMax {
		slices.SortFunc(x.cites, func(a, b citedPair) int { return strings.Compare(a.id, b.id) })
	}
	return x
}

// citesScanMax is the most cited pairs citedBy scans in the order they are
// met instead of sorting them by final ID and searching: of so few, one scan
// per lookup costs less than the sort.
const citesScanMax = 32

// lookup returns the record id names: the first with that ID.
func (x finalIndex) lookup(id string) (record, bool) {
	i, found := slices.BinarySearchFunc(x.ids, id, func(r indexedRecord, id string) int { return strings.Compare(r.id, id) })
	if !found {
		return record{}, false
	}
	return x.ids[i].record, true
}

// resolve returns the record id names when it is of an accepted kind. On
// failure it returns the code saying why: dangling when id has the form of
// an accepted kind but names no record, wrong type otherwise.
func (x finalIndex) resolve(id, accepted string) (record, rules.Code, bool) {
	r, ok := x.lookup(id)
	switch {
	case ok && strings.IndexByte(accepted, r.kind) >= 0:
		return r, "", true
	case ok:
		return r, rules.CodeLinkWrongType, false
	case id != "" && strings.IndexByte(accepted, id[0]) >= 0:
		return record{}, rules.CodeLinkDangling, false
	default:
		return record{}, rules.CodeLinkWrongType, false
	}
}

// citedBy reports whether some citation supporting id cites one of
// evidence.
func (x finalIndex) citedBy(id string, evidence []string) bool {
	if len(x.cites) <= citesScanMax {
		for _, p := range x.cites {
			if p.id == id && slices.Contains(evidence, p.evidence) {
				return true
			}
		}
		return false
	}
	i, _ := slices.BinarySearchFunc(x.cites, id, func(p citedPair, id string) int { return strings.Compare(p.id, id) })
	for ; i < len(x.cites) && x.cites[i].id == id; i++ {
		if slices.Contains(evidence, x.cites[i].evidence) {
			return true
		}
	}
	return false
}

// link checks the link field of the record at p and returns the resolved
// record. The field's pointer is built only for a finding.
func (c *checker) link(p pointer, field, id, accepted string) (record, bool) {
	r, code, ok := c.idx.resolve(id, accepted)
	if !ok {
		c.linkFinding(p.field(field), code, id, accepted)
	}
	return r, ok
}

// linkFinding reports the link id at p that resolve refused with code.
func (c *checker) linkFinding(p pointer, code rules.Code, id, accepted string) {
	switch code {
	case rules.CodeLinkDangling:
		c.add(code, p, "%q names no %s of the final answer", id, kindNames[id[0]])
	case rules.CodeLinkWrongType:
		c.add(code, p, "%q is not a %s ID of the final answer", id, describeKinds(accepted))
	}
}

// links checks the link array field of the record at p and returns the
// resolved records, which are valid until the next call (they live in the
// checker's scratch). An element's pointer is built only for a finding.
func (c *checker) links(p pointer, field string, ids []string, accepted string) []record {
	out := c.scratch.linked[:0]
	for j, id := range ids {
		r, code, ok := c.idx.resolve(id, accepted)
		if !ok {
			c.linkFinding(p.field(field).index(j), code, id, accepted)
			continue
		}
		out = append(out, r)
	}
	c.scratch.linked = out
	return out
}

func describeKinds(accepted string) string {
	parts := make([]string, len(accepted))
	for i := range len(accepted) {
		parts[i] = accepted[i : i+1]
	}
	return strings.Join(parts, "/")
}

func hasKind(rs []record, kind byte) bool {
	return slices.ContainsFunc(rs, func(r record) bool { return r.kind == kind })
}
