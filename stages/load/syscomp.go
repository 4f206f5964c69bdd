package load

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// System-comparison checks (rule G5 and "Conditional system
// comparison: frozen investigation and packet procedure"). The design's
// arms are systems with comparator roles; every schedule slot runs one
// investigation and one review per system, in an order balanced over the
// permutations of the systems. Each investigation returns a raw-observation
// packet that its review receives; loadObservations reads and checks them.

// checkSystemDesign checks the comparator roles of the arms and, for a
// system comparison, the balance of the schedule's orders.
func checkSystemDesign(m *tables.Manifest, at position, sched scheduleAt) rules.Findings {
	var out rules.Findings
	if m.Kind != rules.KindSystemComparison {
		for i, a := range m.Design.Arms {
			if a.ComparatorRole != "" {
				out = append(out, at.finding(rules.CodeComparatorRoleUnexpected, indexPointer("/design/arms", i)+"/comparator_role",
					fmt.Sprintf("arm %q has comparator_role %q but kind %q has no comparator roles", a.ID, a.ComparatorRole, m.Kind)))
			}
		}
		return out
	}
	out = append(out, checkRoles(m.Design.Arms, at)...)
	return append(out, checkBalance(&m.Design, sched)...)
}

// checkRoles requires a role on every arm, exactly one baseline (the first
// arm), exactly one candidate and at most one comparator.
func checkRoles(arms []tables.Arm, at position) rules.Findings {
	var out rules.Findings
	bad := func(ptr, format string, args ...any) {
		out = append(out, at.finding(rules.CodeComparatorRoles, ptr, fmt.Sprintf(format, args...)))
	}
	count := map[string]int{}
	for i, a := range arms {
		if a.ComparatorRole == "" {
			bad(indexPointer("/design/arms", i), "system %q has no comparator_role", a.ID)
		}
		count[a.ComparatorRole]++
	}
	switch {
	case len(arms) == 0:
		bad("/design/arms", "a system comparison needs at least a baseline and a candidate system")
		return out
	case arms[0].ComparatorRole != tables.ComparatorBaseline:
		bad("/design/arms/0/comparator_role", "the first system %q must be the baseline", arms[0].ID)
	}
	if n := count[tables.ComparatorBaseline]; n > 1 {
		bad("/design/arms", "%d systems are baseline; exactly one is allowed", n)
	}
	if n := count[tables.ComparatorCandidate]; n != 1 {
		bad("/design/arms", "%d systems are candidate; exactly one is required", n)
	}
	if n := count[tables.ComparatorComparator]; n > 1 {
		bad("/design/arms", "%d systems are comparator; at most one is allowed", n)
	}
	return out
}

// checkBalance requires the slot orders to be balanced over the k!
// permutations of the k systems: no permutation is used more than once
// more often than any other (a permutation never used counts 0). Orders
// that are not permutations are reported by checkSchedule.
func checkBalance(d *tables.Design, sched scheduleAt) rules.Findings {
	k := len(d.Arms)
	perms := factorial(k)
	count := map[string]int{}
	var keys []string
	for _, s := range d.Schedule {
		if len(s.Order) != k {
			continue
		}
		key := strings.Join(s.Order, " ")
		if count[key] == 0 {
			keys = append(keys, key)
		}
		count[key]++
	}
	if len(keys) == 0 {
		return nil
	}
	lo, hi := len(d.Schedule), 0
	for _, key := range keys {
		lo, hi = min(lo, count[key]), max(hi, count[key])
	}
	if perms < 0 || len(keys) < perms {
		lo = 0
	}
	if hi-lo <= 1 {
		return nil
	}
	slices.Sort(keys)
	var parts []string
	for _, key := range keys {
		parts = append(parts, fmt.Sprintf("[%s]×%d", key, count[key]))
	}
	at, ptr := sched.whole()
	return rules.Findings{at.finding(rules.CodeOrderUnbalanced, ptr,
		fmt.Sprintf("system orders are not balanced over the %d permutations: %s", perms, strings.Join(parts, ", ")))}
}

// factorial is k!, or -1 when it exceeds any schedule length worth
// counting.
func factorial(k int) int {
	f := 1
	for i := 2; i <= k; i++ {
		f *= i
		if f > 1<<20 {
			return -1
		}
	}
	return f
}

// loadObservations reads the raw-observation packet of every investigation
// receipt of a system comparison, checks it against the receipt (sha256,
// bytes, task, repository), its numbering (E1..EN in completion order) and
// its items' bytes against the content-addressed sources, and refuses
// observations anywhere else.
// observed says whether some receipt has observations; when none has, the
// receipts are not read again.
func (l *loader) loadObservations(observed bool) {
	syscomp := l.c.Manifest.Kind == rules.KindSystemComparison
	for _, t := range l.c.Tasks {
		if t.Packet.RawObservations {
			l.add(position{file: t.Spec.PacketPath}.finding(rules.CodeObservationsNotRaw, "/raw_observations",
				fmt.Sprintf("task %s's packet is marked raw_observations; a task packet is an authenticated excerpt packet", t.Spec.ID)))
		}
	}
	l.c.Observations = map[string]*tables.Packet{}
	l.c.ObservationTokens = map[string]int64{}
	if !observed {
		return
	}
	for line := range l.c.Receipts.All() {
		r := &line.Record
		if r.Observations == nil {
			continue
		}
		at := position{file: receiptsFile, line: line.Line}
		if !syscomp || r.Role != tables.RoleInvestigation {
			l.add(at.finding(rules.CodeObservationsUnexpected, "/observations",
				fmt.Sprintf("a %s receipt of a %s campaign cannot carry observations", r.Role, l.c.Manifest.Kind)))
			continue
		}
		if _, dup := l.c.Observations[r.SessionID]; dup {
			continue // the duplicate receipt is reported by stages/validate
		}
		if p := l.observationPacket(r, at); p != nil {
			l.c.Observations[r.SessionID] = p
		}
	}
}

const receiptsFile = "receipts.jsonl"

// observationPacket reads one investigation's raw-observation log,
// checks it against the receipt (sha256, bytes, task, repository) and the
// packetizer rules (checkObservations), and returns the packet its review
// received, in the packet shape later stages check citations against.
func (l *loader) observationPacket(r *tables.Receipt, at position) *tables.Packet {
	ref := r.Observations
	if pathProblem(ref.Path) != "" || !isLowerHex(ref.SHA256, 64) {
		return nil // already reported by the schema walk
	}
	data := l.readCapped(ref.Path, maxPacket)
	if data == nil {
		return nil
	}
	if got := sha256Hex(data); got != ref.SHA256 || int64(len(data)) != ref.Bytes {
		l.add(at.finding(rules.CodeObservationsMismatch, "/observations",
			fmt.Sprintf("%s has sha256 %s and %d bytes but the receipt says %s and %d", ref.Path, got, len(data), Clip(ref.SHA256), ref.Bytes)))
		return nil
	}
	pat := position{file: ref.Path}
	var log tables.ObservationLog
	ok, findings := decodeDoc(data, "observations", pat, &log)
	l.add(findings...)
	if !ok {
		return nil
	}
	task := l.c.Task(r.TaskID)
	if log.TaskID != r.TaskID || (task != nil && log.Repository != task.Spec.Repository) {
		l.add(pat.finding(rules.CodeObservationsMismatch, "",
			fmt.Sprintf("the observations are for task %q of repository %q but the receipt is for task %q", log.TaskID, log.Repository, r.TaskID)))
	}
	l.checkObservations(&log, r, int64(len(data)), pat)
	l.c.ObservationTokens[r.SessionID] = log.PacketTokens
	return l.observedPacket(&log, pat)
}
