package validate

import (
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Remote execution's bill (rules A7, G6: "Holds include ... remote
// execution awaiting billing reconciliation. They are not assumed free").
// A probe or remote_execution receipt is accounted at its actual_charge
// only with the bill it was reconciled against bound as its output (the
// account stage holds it otherwise). That bill must exist with the
// receipt's sha256 and byte count, and support the charge: state an
// amount equal to the actual_charge, and be no Harbor trial record —
// Harbor's TrialResult records no sandbox charge; its
// agent_result.cost_usd is the agent's model cost, so a charge read from
// it is not a reconciled bill.

// remoteBill checks the bill a remote execution's receipt binds.
func (b *bench) remoteBill(line tables.Line[tables.Receipt]) {
	r := &line.Record
	if !tables.RemoteRole(r.Role) || r.Output == nil {
		return
	}
	reject := func(code rules.Code, ptr, format string, args ...any) {
		b.add(code, rules.Reject, receiptsFile, line.Line, ptr, r.SessionID, format, args...)
	}
	data, matches, err := b.files.Read(r.Output)
	switch {
	case err != nil:
		reject(rules.CodeOutputMissing, "/output", "the remote execution's bill %s cannot be read: %v", r.Output.Path, err)
		return
	case !matches:
		reject(rules.CodeOutputMismatch, "/output", "the remote execution's bill %s does not have the receipt's sha256 and byte count", r.Output.Path)
		return
	}
	if r.Billing.Basis != tables.BillingActual || r.Billing.ActualCharge == nil {
		return
	}
	charge, err := tables.ParseMoney(*r.Billing.ActualCharge)
	if err != nil {
		return // the account stage reports an invalid actual_charge
	}
	if tr, _ := b.files.Trial(r.Output.Path, r.Output.SHA256); tr != nil && tr.TaskChecksum != "" {
		reject(rules.CodeRbenchRemoteBillUnsupport, "/output", "the remote execution's bill %s is a Harbor trial record, which records no sandbox charge (its agent_result.cost_usd is the agent's model cost): the actual_charge %s is not reconciled; bind the provider's bill, or record basis unavailable so it is held",
			r.Output.Path, *r.Billing.ActualCharge)
		return
	}
	if !statesAmount(data, charge) {
		reject(rules.CodeRbenchRemoteBillUnsupport, "/output", "the remote execution's bill %s states no amount equal to its actual_charge %s",
			r.Output.Path, *r.Billing.ActualCharge)
	}
}

// statesAmount reports whether text contains a decimal number (digits,
// optionally a point and more digits, not part of a longer run of
// letters, digits or points) equal to m.
func statesAmount(text []byte, m tables.Money) bool {
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	word := func(c byte) bool {
		return isDigit(c) || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= utf8.RuneSelf
	}
	for i := 0; i < len(text); {
		if !isDigit(text[i]) || i > 0 && word(text[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
			j++
			for j < len(text) && isDigit(text[j]) {
				j++
			}
		}
		if j == len(text) || !word(text[j]) || text[j] == '.' && (j+1 == len(text) || !word(text[j+1])) {
			if v, err := tables.ParseMoney(string(text[i:j])); err == nil && v == m {
				return true
			}
		}
		i = j
	}
	return false
}
