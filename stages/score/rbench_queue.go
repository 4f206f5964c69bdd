package score

import "github.com/evalgate/evalgate/tables"

// The label-adjudication queue (rules G6, I8). An audited label is still a
// label: "Genuine additional defects trigger label adjudication",
// "Unexpected findings need adjudication before this is interpreted as a
// false-positive rate", and "blocking it is not a proven false alarm". So
// a grounded blocking finding of a completed review on an audited case
// that is not the planted defect — any on a clean case, one off the
// planted category or location on a variant — is queued unless its
// adjudication rejected it: upheld (a genuine additional defect: the
// label is wrong until a new corpus revision says otherwise), disputed
// (a disagreement does not make it false) or unadjudicated. Entries of
// the selection and final splits hold the promotion; the development
// split decides nothing.

// queued returns the queue entries of one scored review.
func queued(row tables.ReviewRow, cs *tables.Case, fs []*tables.FindingRow) []tables.LabelQueueRow {
	if cs == nil || cs.Label != tables.LabelAudited || row.Status != tables.ReviewStatusCompleted {
		return nil
	}
	var out []tables.LabelQueueRow
	for _, f := range fs {
		if !f.Grounded || f.Severity != tables.FindingBlocking || f.MatchesDefect || f.Adjudication == tables.AdjudicationRejected {
			continue
		}
		out = append(out, tables.LabelQueueRow{CaseID: row.CaseID, Family: row.Family, Split: row.Split, CaseKind: row.CaseKind,
			SessionID: row.SessionID, Profile: row.Profile, Model: row.Model, Run: row.Run, FindingID: f.FindingID,
			Category: f.Category, Path: f.Path, StartLine: f.StartLine, EndLine: f.EndLine, Adjudication: f.Adjudication,
			Holds: row.Split == tables.SplitSelection || row.Split == tables.SplitFinal})
	}
	return out
}
