package rules

import "fmt"

// Caps on the findings one run lists, so that a hostile input (a million
// `{}` receipt lines, an object of a million unknown keys) costs memory in
// proportion to what is reported, not to what is wrong. Nothing is hidden:
// past a cap, findings of a code are counted and one findings_capped finding
// per code says how many more there are, with the most severe severity
// among them, so a capped list rejects exactly when the full list would.
const (
	MaxFindingsPerCode = 100
	MaxFindings        = 2000
)

// FindingCap collects findings under the caps: the first MaxFindingsPerCode
// of each code, MaxFindings in all, in the order added; the rest are only
// counted. The zero value is ready to use.
//
// A findings_capped finding added (one an earlier cap wrote) is kept as it
// is and counts toward no cap, so capping a capped list again, as every
// printer does, changes nothing.
type FindingCap struct {
	kept    Findings
	n       int // kept findings that count toward MaxFindings
	perCode map[Code]int
	over    map[Code]*overflow
	order   []Code // codes in the order they first overflowed
}

type overflow struct {
	n        int64
	severity Severity
	first    Finding // where the first counted finding was
	oneFile  bool    // every counted finding is in first.File
}

// Add collects findings.
func (c *FindingCap) Add(fs ...Finding) {
	for _, f := range fs {
		if f.Code == CodeFindingsCapped {
			c.kept = append(c.kept, f)
			continue
		}
		if c.Room(f.Code) {
			if c.perCode == nil {
				c.perCode = make(map[Code]int, 4)
			}
			c.perCode[f.Code]++
			c.n++
			c.kept = append(c.kept, f)
			continue
		}
		c.count(f)
	}
}

// count records a finding past the caps.
func (c *FindingCap) count(f Finding) {
	o := c.over[f.Code]
	if o == nil {
		if c.over == nil {
			c.over = map[Code]*overflow{}
		}
		o = &overflow{severity: Warn, first: f, oneFile: true}
		c.over[f.Code] = o
		c.order = append(c.order, f.Code)
	}
	o.n++
	o.oneFile = o.oneFile && f.File == o.first.File
	if f.Severity == Reject {
		o.severity = Reject
	}
}

// Room reports whether a finding of code would be kept rather than only
// counted, so that a caller can skip formatting one that would not be.
func (c *FindingCap) Room(code Code) bool {
	return c.perCode[code] < MaxFindingsPerCode && c.n < MaxFindings
}

// Findings returns the kept findings followed by one findings_capped
// finding per code that overflowed, in the order the codes overflowed.
func (c *FindingCap) Findings() Findings {
	out := c.kept[:len(c.kept):len(c.kept)]
	for _, code := range c.order {
		o := c.over[code]
		where := "in this file"
		if !o.oneFile {
			where = "in this and other files"
		}
		out = append(out, Finding{
			Code: CodeFindingsCapped, Severity: o.severity,
			File: o.first.File, Line: o.first.Line, Pointer: o.first.Pointer, Session: o.first.Session,
			Message: fmt.Sprintf("%d more %s findings %s, the first of them here, are not listed (at most %d per code and %d in all are).",
				o.n, code, where, MaxFindingsPerCode, MaxFindings),
		})
	}
	return out
}

// CapFindings applies the caps to a complete, sorted list of findings and
// returns the capped list, sorted (a list already capped is returned as
// it is). stages.Run applies it once, where it
// assembles every stage's findings.
func CapFindings(fs Findings) Findings {
	var c FindingCap
	c.Add(fs...)
	out := c.Findings()
	out.Sort()
	return out
}

// CapInOrder applies the caps to a list of findings and returns the capped
// list in the order given, the findings_capped counts last: the printers'
// cap, for lists whose producer may not have capped them.
func CapInOrder(fs Findings) Findings {
	if len(fs) <= MaxFindingsPerCode {
		return fs
	}
	var c FindingCap
	c.Add(fs...)
	return c.Findings()
}
