package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/spf13/cobra"
)

// examplesReport is the --json output of examples.
type examplesReport struct {
	Examples []string `json:"examples"` // names for run/validate --example, sorted
}

func newExamplesCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "examples",
		Short: "List the embedded example campaigns",
		Args:  maxArgs(0),
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				return writeJSON(stdout, examplesReport{Examples: append([]string{}, fixtures.Examples()...)})
			}
			for _, name := range fixtures.Examples() {
				fmt.Fprintln(stdout, name)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}
