package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

type admitOptions struct {
	example string
	request string
	json    bool
}

func newAdmitCmd(stdout, stderr io.Writer) *cobra.Command {
	var opts admitOptions
	cmd := &cobra.Command{
		Use:   "admit [CAMPAIGN_DIR] --request REQ.json [--example NAME] [--json]",
		Short: "Decide whether one more dispatch fits the campaign's remaining allowance",
		Long: `admit rebuilds the campaign's ledger from its receipts (accounted, held and
reserved charges), prices the request's worst-case token bound on its rate
card and admits it only when that bound fits every ceiling (inclusive). It
refuses a request without a reservation or meter identity, on an unknown
rate card or a card without a needed price. A request ID already charged
in the ledger is a replay: admitted again, never charged twice.

The request file is one strict JSON object of the published schema
"request" (print it with 'evalgate schema request'); every problem in it
is reported at once, positioned by JSON pointer.

Exit 0 admitted (or replayed), 1 refused (or the campaign or request file
was rejected), 2 usage. The ledger summary is printed either way.`,
		Args: maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if opts.request == "" {
				return usagef("--request REQ.json is required")
			}
			return runAdmit(stdout, stderr, args, opts)
		},
	}
	cmd.Flags().StringVar(&opts.request, "request", "", "the request to admit (JSON, schema: evalgate schema request)")
	cmd.Flags().StringVar(&opts.example, "example", "", "embedded example campaign to admit against when no directory is given")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the verdict and ledger as JSON")
	return cmd
}

func runAdmit(stdout, stderr io.Writer, args []string, opts admitOptions) error {
	data, err := readRequest(opts.request)
	if err != nil {
		return usagef("request: %v", err)
	}
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return err
	}
	req, problems := load.Request(opts.request, data)
	if req == nil || problems.Rejected() {
		if err := writeAdmitRejection(stdout, opts, name, problems); err != nil {
			return err
		}
		printFindings(stderr, problems)
		fmt.Fprintf(stderr, "evalgate: %s: request rejected by the loader; nothing admitted\n", text(opts.request))
		return errRejected
	}
	res := stages.Admit(fsys, name, req)
	if !res.Loaded {
		if err := writeAdmitRejection(stdout, opts, name, res.Tables.Rejections); err != nil {
			return err
		}
		printFindings(stderr, res.Tables.Rejections)
		fmt.Fprintf(stderr, "evalgate: %s: rejected by the loader; nothing admitted\n", text(name))
		return errRejected
	}
	v := res.Verdict
	out := newAdmitReport(name, res.Request, v, res.Campaign, res.Tables)
	if opts.json {
		err = writeJSON(stdout, out)
	} else {
		err = out.writeText(stdout)
	}
	if err != nil {
		return err
	}
	if !v.Admitted {
		return errRejected
	}
	return nil
}

// readRequest reads at most one byte past the request cap, so that
// load.Request reports an oversized file without admit reading all of it.
func readRequest(path string) ([]byte, error) {
	f, err := confined.OpenRegularFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, load.MaxRequest+1))
}

// admitReport is what admit prints: the verdict and the ledger after it.
type admitReport struct {
	Campaign  string             `json:"campaign"`
	RequestID string             `json:"request_id"`
	Admitted  bool               `json:"admitted"`
	Replay    bool               `json:"replay"`
	Code      string             `json:"code"`  // refusal reason; "" when admitted
	Bound     *string            `json:"bound"` // worst-case reference cost reserved; null when refused or replayed
	Message   string             `json:"message"`
	Ledger    ledgerReport       `json:"ledger"`
	Ceilings  []account.Headroom `json:"ceilings"`
}

// ledgerReport is account.Summary with exact money text (null = unknown).
type ledgerReport struct {
	Accounted allowanceReport `json:"accounted"`
	Held      allowanceReport `json:"held"`
	Reserved  allowanceReport `json:"reserved"`
	Used      allowanceReport `json:"used"`
}

type allowanceReport struct {
	Sessions      int64   `json:"sessions"`
	InputTokens   int64   `json:"input_tokens"`
	OutputTokens  int64   `json:"output_tokens"`
	ReferenceCost *string `json:"reference_cost"`
	ActualCost    *string `json:"actual_cost"`
}

func newAdmitReport(name string, req account.Request, v account.Verdict, c *tables.Campaign, s *tables.Set) admitReport {
	sum := account.Summarize(s.Ledger)
	return admitReport{
		Campaign: name, RequestID: req.RequestID, Admitted: v.Admitted, Replay: v.Replay,
		Code: string(v.Code), Bound: moneyText(v.Bound), Message: v.Message,
		Ledger: ledgerReport{
			Accounted: allowanceOf(sum.Accounted), Held: allowanceOf(sum.Held),
			Reserved: allowanceOf(sum.Reserved), Used: allowanceOf(sum.Used),
		},
		Ceilings: account.Remaining(c, sum.Used),
	}
}

func allowanceOf(a account.Allowance) allowanceReport {
	return allowanceReport{Sessions: a.Sessions, InputTokens: a.InputTokens, OutputTokens: a.OutputTokens,
		ReferenceCost: moneyText(a.ReferenceCost), ActualCost: moneyText(a.ActualCost)}
}

func moneyText(m *tables.Money) *string {
	if m == nil {
		return nil
	}
	s := m.String()
	return &s
}

func orUnknown(s *string) string {
	if s == nil {
		return "unknown"
	}
	return *s
}

// writeText prints the verdict line, the ledger and the ceilings as
// aligned columns.
func (r admitReport) writeText(w io.Writer) error {
	switch {
	case r.Replay:
		fmt.Fprintf(w, "replayed: %s\n", text(r.Message))
	case r.Admitted:
		fmt.Fprintf(w, "admitted: %s\n", text(r.Message))
	default:
		fmt.Fprintf(w, "refused: %s: %s\n", r.Code, text(r.Message))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ledger\tsessions\tinput_tokens\toutput_tokens\treference_cost\tactual_cost")
	for _, row := range []struct {
		name string
		a    allowanceReport
	}{{"accounted", r.Ledger.Accounted}, {"held", r.Ledger.Held}, {"reserved", r.Ledger.Reserved}, {"used", r.Ledger.Used}} {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", row.name, row.a.Sessions, row.a.InputTokens, row.a.OutputTokens,
			orUnknown(row.a.ReferenceCost), orUnknown(row.a.ActualCost))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ceiling\tlimit\tused\tremaining")
	for _, h := range r.Ceilings {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", text(h.Ceiling), orUnknown(h.Limit), orUnknown(h.Used), orUnknown(h.Remaining))
	}
	return tw.Flush()
}

// admitRejection is admit --json's document when the loader rejects the
// request or the campaign: nothing admitted, every finding listed.
type admitRejection struct {
	Campaign string         `json:"campaign"`
	Admitted bool           `json:"admitted"` // always false
	Findings rules.Findings `json:"findings"`
}

// writeAdmitRejection prints the rejection document under --json.
func writeAdmitRejection(stdout io.Writer, opts admitOptions, name string, fs rules.Findings) error {
	if !opts.json {
		return nil
	}
	sorted := append(rules.Findings{}, fs...)
	sorted.Sort()
	return writeJSON(stdout, admitRejection{Campaign: name, Findings: sorted})
}
