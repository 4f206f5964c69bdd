// Package stages runs evalgate's pipeline. Each stage is a package of its
// own and a function from typed inputs to one typed output (the Out of
// each stage, declared in tables: [tables.Validated], [tables.Accounted],
// [tables.Scored], [tables.Aggregated]); run.go is the one place the
// outputs are wired together and assembled into the [tables.Set]:
//
//  1. load: decode every input file strictly into a [tables.Campaign]
//     (rules L1–L3). A campaign whose manifest cannot be decoded stops here.
//  2. validate: identities, completeness, citations against the physical
//     source, link closure, reconciliation, run classification (V1–V8);
//     fills sessions, citations and dispositions.
//  3. account: meters, exact money, ledger and ceilings (A1–A8); fills
//     tokens and ledger.
//  4. score: settled blinded ratings become per-run R and U (Q1–Q3); fills
//     runs and obligations.
//  5. aggregate: task medians, repository summaries, conjunctive gates and
//     the decision (G1–G7).
//  6. intervals: exploratory family-clustered bootstrap intervals (B1).
//     Nothing before this stage reads its output, so an interval can never
//     change a gate or the decision.
//  7. report: Parquet tables, scorecard.json and report.md (T1–T2, R1).
//
// Invariants: a stage returns every problem it finds among its findings
// instead of stopping; answers are read only through the load stage's
// [tables.Answers] reader; no stage reads the wall clock or iterates a map
// into output; every planned run keeps its row, so nothing leaves a
// denominator. Stage packages never import each other; only this package
// wires them together.
package stages
