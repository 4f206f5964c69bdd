package account

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// reservationIDs finds the reservation IDs that dispatched receipts of
// different requests name (reservation_reused, rule A7): admission
// reserves each request's worst case before its dispatch, so two requests
// charged against one reservation mean one of them was dispatched without
// its own (the mutations "omit one global reservation" and "duplicate an
// ID"). A replay of the same request repeats its reservation and is the
// ledger's to judge (chargeOnce).
//
// The pass over the receipts keeps 64-bit hashes, not the IDs (at a
// million receipts the IDs held about 115 MiB of live heap, the hashes
// about 20): note records the first line of each hash and the later lines
// that share it; reused then reads only those lines again and compares
// their IDs exactly, so a collision of hashes never makes a finding and
// the seed (random per process) never changes the result.
type reservationIDs struct {
	hash   func(string) uint64
	first  map[uint64]int64   // hash → first line naming it
	shared map[uint64][]int64 // hash → the later lines naming it, in order
}

func newReservationIDs(receipts int) *reservationIDs {
	seed := maphash.MakeSeed()
	return &reservationIDs{hash: func(id string) uint64 { return maphash.String(seed, id) }, first: make(map[uint64]int64, receipts), shared: map[uint64][]int64{}}
}

// note records the reservation of a dispatched receipt that has one.
func (s *reservationIDs) note(line tables.Line[tables.Receipt]) {
	h := s.hash(line.Record.Reservation.ID)
	if _, seen := s.first[h]; !seen {
		s.first[h] = line.Line
		return
	}
	s.shared[h] = append(s.shared[h], line.Line)
}

// reservedLine is what reused compares of one receipt.
type reservedLine struct {
	reservation, request, session string
}

// reused returns a reservation_reused finding for every receipt naming a
// reservation that an earlier receipt of another request names, at the
// later receipt, naming the earliest.
func (s *reservationIDs) reused(c *tables.Campaign) []rules.Finding {
	if len(s.shared) == 0 {
		return nil
	}
	lines := map[int64]reservedLine{}
	for h, later := range s.shared {
		lines[s.first[h]] = reservedLine{}
		for _, l := range later {
			lines[l] = reservedLine{}
		}
	}
	for l := range c.Receipts.All() {
		if _, ok := lines[l.Line]; ok {
			r := &l.Record
			lines[l.Line] = reservedLine{reservation: r.Reservation.ID, request: r.RequestID, session: r.SessionID}
		}
	}
	var out []rules.Finding
	for h := range s.shared {
		firstOf := map[string]int64{} // reservation ID → its earliest line among these
		for _, l := range append([]int64{s.first[h]}, s.shared[h]...) {
			cur := lines[l]
			at, seen := firstOf[cur.reservation]
			if !seen {
				firstOf[cur.reservation] = l
				continue
			}
			if first := lines[at]; first.request != cur.request {
				out = append(out, rules.Finding{Code: rules.CodeReservationReused, Severity: rules.ClassOf(rules.CodeReservationReused).Severity(),
					File: receiptsFile, Pointer: "/reservation/id", Line: l, Session: cur.session,
					Message: fmt.Sprintf("Reservation %s was already named on line %d by request %s; every dispatch is admitted under a reservation of its own.", cur.reservation, at, first.request)})
			}
		}
	}
	slices.SortFunc(out, func(x, y rules.Finding) int { return cmp.Compare(x.Line, y.Line) }) // each line is in one group once
	return out
}
