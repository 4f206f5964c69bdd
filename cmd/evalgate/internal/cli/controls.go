package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/spf13/cobra"
)

// controlsReport is the --json output of `evalgate controls`.
type controlsReport struct {
	Mutations []controls.Mutation `json:"mutations"`
	Controls  []controls.Row      `json:"controls,omitempty"`
}

func newControlsCmd(stdout io.Writer) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "controls [--all] [--json]",
		Short: "Print the mutation → owning control table of the evaluator control suite",
		Long: `controls prints SPEC C2's mutation table: each mutation of the accepted
example campaign, the control that owns it and the code or result the
control must show. With --all it also prints the expected-result table of
every control (structural and semantic outcomes apart). The suite itself
runs in the tests (docs/controls.md); this command only prints the registry.`,
		Args: maxArgs(0),
		RunE: func(*cobra.Command, []string) error {
			rep := controlsReport{Mutations: controls.Mutations()}
			if all {
				rep.Controls = controls.Rows()
			}
			if asJSON {
				return writeJSON(stdout, rep)
			}
			if _, err := io.WriteString(stdout, controls.MutationTable()); err != nil {
				return err
			}
			if all {
				_, err := fmt.Fprintf(stdout, "\n%s", controls.ControlTable())
				return err
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the tables as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "also print the expected result of every control")
	return cmd
}
