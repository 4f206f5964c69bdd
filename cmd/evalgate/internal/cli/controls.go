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
	var asJSON, all, run bool
	cmd := &cobra.Command{
		Use:   "controls [--all] [--run] [--json]",
		Short: "Print the mutation → owning control table of the evaluator control suite",
		Long: `controls prints rule C2's mutation table: each mutation of the accepted
example campaign, the control that owns it and the code or result the
control must show. With --all it also prints the expected-result table of
every control (structural and semantic outcomes apart).

With --run it runs the suite from the binary alone: the accepted example
campaign and every control (built from the embedded example) through
evalgate validate and evalgate run in a temporary directory, and prints
expected against observed for every control and mutation. It exits 1 when
any control or mutation does not match its expected result.`,
		Args: maxArgs(0),
		RunE: func(*cobra.Command, []string) error {
			if run {
				return runControls(stdout, asJSON)
			}
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
	cmd.Flags().BoolVar(&run, "run", false, "run every control and mutation and compare with the expected results")
	return cmd
}

// runControls runs the suite through this CLI's own entry point.
func runControls(stdout io.Writer, asJSON bool) error {
	res, err := controls.RunSuite("", Main)
	if err != nil {
		return err
	}
	if asJSON {
		err = writeJSON(stdout, res)
	} else {
		_, err = io.WriteString(stdout, res.Text())
	}
	if err != nil {
		return err
	}
	if !res.Pass {
		return errRejected
	}
	return nil
}
