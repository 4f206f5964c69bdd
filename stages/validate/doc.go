// Package validate is the second stage: structure, provenance and links
// (rules V1–V8).
//
// It has two entry points. [AnswerRules] checks one decoded answer against
// the response contract's rules beyond its JSON shape: link closure (V4),
// the per-status rules (V5) and, for reconciliation answers, the obligation
// and disposition rules (V6); given the task's packet it also checks that
// every evidence ID exists and that the disposition set equals the packet
// set (C13). [Run] validates a whole loaded campaign: receipt identities
// against the manifest (V1), completeness of the planned design (V2),
// citations against the packet and the content-addressed source bytes (V3),
// and the classification of every session (V7). It fills the sessions,
// citations and dispositions tables.
//
// Invariants:
//   - Every problem is a [rules.Finding] with a code from
//     rules/codes_validate.go, the file, an RFC 6901 pointer and a sentence;
//     all problems are reported, none stops the stage, no input panics.
//   - Answer-rule findings are the model's fault: inside a campaign they are
//     Warn and make the session a scored failure; identity, completeness and
//     provenance findings are Reject and make the campaign inadmissible.
//   - Structural results never imply readiness (V8): a session is "valid"
//     only in the structural sense; semantics belong to stages/score.
//   - Answers are read one at a time through the [tables.Answers] reader
//     the load stage implements, never by opening campaign files; rows are
//     sorted by their keys and nothing iterates a map into output.
//
// Documented readings of the contract (rules V5, V6):
//   - A source-based record is "supported by a citation" when some citation
//     lists the record's ID in supports and cites one of the record's own
//     evidence IDs.
//   - An exclusion reason is generic when, ignoring case, punctuation and
//     filler words ("the", "this", "evidence", "task", ...), every word is in
//     a small vocabulary of empty verdicts ("not", "relevant", "irrelevant",
//     "out", "scope", "needed", "unused", ...). Any other word makes it
//     concrete; the rule is conservative and never judges truth.
//   - Against the packet, disposition IDs that are not packet IDs and packet
//     IDs without a disposition are paired in order: each pair is one
//     disposition_substituted finding; the unpaired rest are
//     disposition_invented or disposition_missing findings.
package validate
