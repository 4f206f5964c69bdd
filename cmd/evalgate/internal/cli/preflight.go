package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
	"github.com/spf13/cobra"
)

type preflightOptions struct {
	example string
	json    bool
}

func newPreflightCmd(stdout io.Writer) *cobra.Command {
	var opts preflightOptions
	cmd := &cobra.Command{
		Use:   "preflight [CAMPAIGN_DIR | MANIFEST_FILE] [--json]",
		Short: "The checklist a runner must satisfy before a campaign's first dispatch",
		Long: `preflight lists, item by item, what the first dispatch of a campaign
needs, each ok or missing: the manifest; every execution identity
(requested and returned model, CLI version and executable hash, runtimes,
host, OS, permission policy, tokenizer, reasoning effort, service tier);
every prompt file hashed, and the prompt parts each role receives under
rendering rule ` + tables.RenderRule + `; the response schema; a rate card
for the requested model; every ceiling; the reservation each dispatch
makes; every task's text, packet and truth file. An item is missing when
it is empty, a placeholder such as TBD, zero (a ceiling), or refused by a
finding at its position; the findings are printed under it. Receipts are
not needed. Exit 0 when every item is ok, 1 when any is missing, 2 usage.`,
		Args: maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return preflight(stdout, args, opts) },
	}
	cmd.Flags().StringVar(&opts.example, "example", "", "embedded example campaign when no directory is given")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the checklist as JSON")
	return cmd
}

// preflightReport is the --json output of preflight.
type preflightReport struct {
	Campaign string                 `json:"campaign"`
	Ready    bool                   `json:"ready"`
	Missing  int                    `json:"missing"`
	Items    []tables.PreflightItem `json:"items"`
}

func preflight(stdout io.Writer, args []string, opts preflightOptions) error {
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return err
	}
	res := stages.Preflight(fsys, name)
	rep := preflightReport{Campaign: name, Ready: res.Ready, Items: res.Items}
	for i := range rep.Items {
		it := &rep.Items[i]
		if it.File == manifestName {
			it.File = manifestLabel(fsys)
		}
		it.Findings = relabelManifest(fsys, it.Findings)
		if it.Status == tables.PreflightMissing {
			rep.Missing++
		}
	}
	if opts.json {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		printPreflight(stdout, &rep)
	}
	if !rep.Ready {
		return errRejected
	}
	return nil
}

func printPreflight(w io.Writer, rep *preflightReport) {
	for _, it := range rep.Items {
		fmt.Fprintf(w, "%-7s  %s", it.Status, text(it.Item))
		if it.Detail != "" {
			fmt.Fprintf(w, ": %s", text(it.Detail))
		}
		fmt.Fprintln(w)
		for _, g := range rules.Collapse(it.Findings) {
			fmt.Fprintf(w, "         %s\n", text(g.Error()))
		}
	}
	if rep.Ready {
		fmt.Fprintf(w, "%s: ready for the first dispatch (%d items ok)\n", text(rep.Campaign), len(rep.Items))
	} else {
		fmt.Fprintf(w, "%s: not ready: %d of %d items missing\n", text(rep.Campaign), rep.Missing, len(rep.Items))
	}
}
