package validate

import (
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// packetRules checks every evidence ID of the answer against the packet and,
// for a reconciliation record, that the disposition set equals the packet
// set (C13).
func (c *checker) packetRules(pk *tables.Packet, items map[string]*tables.PacketItem, rec *tables.Reconciliation) {
	if items == nil {
		items = packetItems(pk)
	}
	known := func(id string) bool { return items[id] != nil }
	// check checks the evidence_ids of record i of the array at root; a
	// pointer is built only for a finding
	check := func(root string, i int, ids []string) {
		for j, e := range ids {
			if !known(e) {
				c.add(rules.CodeEvidenceUnknown, at(root).index(i).field("evidence_ids").index(j), "evidence %q is not an item of the packet", e)
			}
		}
	}
	f := &c.a.Final
	for i, x := range f.Claims {
		check("/final/claims", i, x.EvidenceIDs)
	}
	for i, x := range f.ImplementationPlan {
		check("/final/implementation_plan", i, x.EvidenceIDs)
	}
	for i, x := range f.VerificationPlan {
		check("/final/verification_plan", i, x.EvidenceIDs)
	}
	for i, x := range f.Exclusions {
		check("/final/exclusions", i, x.EvidenceIDs)
	}
	for i, x := range f.Citations {
		if !known(x.EvidenceID) {
			c.add(rules.CodeEvidenceUnknown, at("/final/citations").index(i).field("evidence_id"), "evidence %q is not an item of the packet", x.EvidenceID)
		}
	}
	if rec == nil {
		return
	}
	for i, o := range rec.Obligations {
		check("/reconciliation/obligations", i, o.EvidenceIDs)
	}
	c.dispositionSet(pk, rec, known)
}

// dispositionSet pairs invented disposition IDs with packet IDs that lack a
// disposition, in order: a pair is a substitution, the rest are invented or
// missing.
func (c *checker) dispositionSet(pk *tables.Packet, rec *tables.Reconciliation, known func(string) bool) {
	disposed := map[string]bool{}
	var invented []int
	for i, d := range rec.EvidenceDispositions {
		disposed[d.EvidenceID] = true
		if !known(d.EvidenceID) {
			invented = append(invented, i)
		}
	}
	var missing []string
	for _, it := range pk.Items {
		if !disposed[it.ID] {
			missing = append(missing, it.ID)
			disposed[it.ID] = true // a packet ID listed twice is reported once
		}
	}
	for k, i := range invented {
		p := at("/reconciliation/evidence_dispositions").index(i).field("evidence_id")
		e := rec.EvidenceDispositions[i].EvidenceID
		if k < len(missing) {
			c.add(rules.CodeDispositionSubstituted, p, "disposition names %q, which is not in the packet, in place of packet evidence %q", e, missing[k])
		} else {
			c.add(rules.CodeDispositionInvented, p, "disposition names %q, which is not in the packet", e)
		}
	}
	for k := len(invented); k < len(missing); k++ {
		c.add(rules.CodeDispositionMissing, at("/reconciliation/evidence_dispositions"), "packet evidence %q has no disposition", missing[k])
	}
}
