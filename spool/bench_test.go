package spool_test

import (
	"testing"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// benchRuns are rows shaped like the score stage's runs: strings shared
// across rows, nullable numbers, a list.
func benchRuns(n int) []tables.Run {
	rows := make([]tables.Run, n)
	for i := range rows {
		r, m := float64(i%7)/7, tables.Money(i*1000)
		w := int64(i % 3)
		sem := i%2 == 0
		rows[i] = tables.Run{TaskID: "T" + string(rune('0'+i%10)), Repository: "repo", Family: "fam", Repetition: int64(i % 4),
			Arm: []string{"A", "B"}[i%2], Position: 1, DraftSessionID: "D", ReviewSessionID: "R", Scored: true,
			R: &r, RNum: 3, RDen: 7, WrongClaims: &w, CriticalWrongClaims: &w, UnsupportedClaims: &w, FalseCompletenessClaims: &w,
			SemanticPass: &sem, WorkflowCost: &m, ReviewCost: &m, WorkflowNS: int64(i) * 1e9, LimitsExceeded: []string{}}
	}
	return rows
}

func BenchmarkSpoolRuns(b *testing.B) {
	rows := benchRuns(20000)
	b.ReportAllocs()
	for b.Loop() {
		s := spool.New[tables.Run](nil)
		s.Add(rows...)
		s.Compact()
		n := 0
		for range s.All() {
			n++
		}
		if n != len(rows) {
			b.Fatal(n)
		}
	}
}

func BenchmarkSpoolRunsDecode(b *testing.B) {
	rows := benchRuns(20000)
	s := spool.New[tables.Run](nil)
	s.Add(rows...)
	s.Compact()
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for range s.All() {
			n++
		}
		if n != len(rows) {
			b.Fatal(n)
		}
	}
}
