package validate

import (
	"slices"
)

// Label isolation (rule G6, "Anti-contamination"): no benchmark label —
// any case's ID, variant name, defect description (or one of its
// sentences) or expected location written path:start-end — may occur in
// the bytes any reviewer received, compared in normal form
// (rbench_normalize.go).
// Every label of the whole benchmark is searched in every recorded input,
// not only the reviewed case's family: a reviewer shown another family's
// planted defect has seen part of the answer key. A label counts as a
// whole token (see found). The labels are compiled once into an
// Aho–Corasick automaton, so each input is scanned once, each byte costing
// at most its labels not yet found, whatever the number of cases.

// label is one benchmark label a reviewer must never see.
type label struct{ caseID, what, text string }

// labelMatcher finds which labels occur in a text.
type labelMatcher struct {
	labels []label
	edges  map[uint64]int32 // node<<8 | byte → child node
	kids   [][]int32        // children of each node, in insertion order
	last   []byte           // the byte on the edge into each node
	fail   []int32          // longest proper suffix that is a node
	dict   []int32          // nearest node on the fail chain that ends a label; -1 if none
	ends   [][]int32        // labels ending exactly at each node

	// The state of one call of found, kept between calls so that a call
	// costs its input, not the automaton's size: an entry stamped with an
	// older epoch reads as its initial value (not found, not done, the
	// dictionary link). found is therefore not safe for concurrent use.
	epoch  uint32
	seenAt []uint32 // per label: the epoch it was found in
	doneAt []uint32 // per node: the epoch its labels were all found in
	nextAt []uint32 // per node: the epoch next was compressed in
	next   []int32
}

func newLabelMatcher(labels []label) *labelMatcher {
	m := &labelMatcher{labels: labels, edges: map[uint64]int32{}, kids: [][]int32{nil}, last: []byte{0}, fail: []int32{0}, dict: []int32{-1}, ends: [][]int32{nil}}
	for i, l := range labels {
		n := int32(0)
		for j := 0; j < len(l.text); j++ {
			c := l.text[j]
			nx, ok := m.step(n, c)
			if !ok {
				nx = int32(len(m.kids))
				m.kids, m.last, m.fail, m.dict, m.ends = append(m.kids, nil), append(m.last, c), append(m.fail, 0), append(m.dict, -1), append(m.ends, nil)
				m.edges[uint64(n)<<8|uint64(c)] = nx
				m.kids[n] = append(m.kids[n], nx)
			}
			n = nx
		}
		if n != 0 { // an empty label matches nothing
			m.ends[n] = append(m.ends[n], int32(i))
		}
	}
	queue := append([]int32(nil), m.kids[0]...) // depth 1: fail = root
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, child := range m.kids[n] {
			c := m.last[child]
			f := m.fail[n]
			for f != 0 {
				if _, ok := m.step(f, c); ok {
					break
				}
				f = m.fail[f]
			}
			if nx, ok := m.step(f, c); ok {
				m.fail[child] = nx
			}
			if fc := m.fail[child]; len(m.ends[fc]) > 0 {
				m.dict[child] = fc
			} else {
				m.dict[child] = m.dict[fc]
			}
			queue = append(queue, child)
		}
	}
	m.seenAt = make([]uint32, len(labels))
	m.doneAt, m.nextAt, m.next = make([]uint32, len(m.kids)), make([]uint32, len(m.kids)), make([]int32, len(m.kids))
	return m
}

func (m *labelMatcher) step(n int32, c byte) (int32, bool) {
	nx, ok := m.edges[uint64(n)<<8|uint64(c)]
	return nx, ok
}

// found returns the labels occurring in data as whole tokens, in label
// order, each once. An occurrence counts unless a letter or digit runs on
// into it on a side where the label itself begins or ends with one: case
// ID c1 is not leaked by a sha256 ending …c1f, nor F01-v1 by F01-v10. The
// dictionary chain skips, with path compression, nodes whose labels are
// all found, so a position costs only its not-yet-found labels.
func (m *labelMatcher) found(data []byte) []label {
	m.epoch++
	if m.epoch == 0 { // wrapped: every stamp is stale again
		clear(m.seenAt)
		clear(m.doneAt)
		clear(m.nextAt)
		m.epoch = 1
	}
	e := m.epoch
	done := func(x int32) bool { return len(m.ends[x]) == 0 || m.doneAt[x] == e } // every label ending at x is found (or none ends there)
	next := func(x int32) int32 {
		if m.nextAt[x] == e {
			return m.next[x]
		}
		return m.dict[x]
	}
	live := func(x int32) int32 { // the first node from x on the chain that is not done
		r := x
		for r > 0 && done(r) {
			r = next(r)
		}
		for x > 0 && done(x) {
			x, m.next[x], m.nextAt[x] = next(x), r, e
		}
		return r
	}
	var hits []int32
	n := int32(0)
	for p, c := range data {
		for {
			if nx, ok := m.step(n, c); ok {
				n = nx
				break
			}
			if n == 0 {
				break
			}
			n = m.fail[n]
		}
		for x := live(n); x > 0; x = live(next(x)) {
			all := true
			for _, i := range m.ends[x] {
				if m.seenAt[i] != e {
					if wholeToken(data, p+1-len(m.labels[i].text), p, m.labels[i].text) {
						m.seenAt[i] = e
						hits = append(hits, i)
					} else {
						all = false
					}
				}
			}
			if all {
				m.doneAt[x] = e
			}
		}
	}
	slices.Sort(hits)
	out := make([]label, 0, len(hits))
	for _, i := range hits {
		out = append(out, m.labels[i])
	}
	return out
}

// wholeToken reports whether text at data[start..end] is not glued to a
// letter or digit on a side where text itself begins or ends with one.
func wholeToken(data []byte, start, end int, text string) bool {
	if start > 0 && alnum(text[0]) && alnum(data[start-1]) {
		return false
	}
	return end+1 >= len(data) || !alnum(text[len(text)-1]) || !alnum(data[end+1])
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
