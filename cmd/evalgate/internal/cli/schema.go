package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/tables"
	"github.com/spf13/cobra"
)

func newSchemaCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "schema [NAME]",
		Short: "Print the JSON Schema of an input file, or list them with their sha256",
		Long: `schema NAME prints the published JSON Schema of one input file exactly as
embedded; "answer" is the response contract whose sha256 a manifest freezes
in response_schema_sha256. Without NAME it lists every schema and its sha256.`,
		Args:              maxArgs(1),
		ValidArgsFunction: completeSchemaName,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				for _, name := range tables.SchemaNames() {
					fmt.Fprintf(stdout, "%s\t%s\n", name, tables.SchemaSHA256(name))
				}
				return nil
			}
			b, ok := tables.Schema(args[0])
			if !ok {
				return usagef("no schema %q (see 'evalgate schema')", args[0])
			}
			_, err := stdout.Write(b)
			return err
		},
	}
}
