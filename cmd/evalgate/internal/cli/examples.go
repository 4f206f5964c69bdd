package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/spf13/cobra"
)

func newExamplesCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "examples",
		Short: "List the embedded example campaigns",
		Args:  maxArgs(0),
		RunE: func(*cobra.Command, []string) error {
			for _, name := range fixtures.Examples() {
				fmt.Fprintln(stdout, name)
			}
			return nil
		},
	}
}
