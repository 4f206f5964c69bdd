package cli

import (
	"fmt"
	"io"

	"github.com/evalgate/evalgate/tables"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"
)

// schemaEntry is one schema in `schema --json`'s list.
type schemaEntry struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"` // of the exact embedded bytes
}

// schemasReport is the --json output of schema without NAME.
type schemasReport struct {
	Schemas []schemaEntry `json:"schemas"`
}

func newSchemaCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "schema [NAME]",
		Short: "Print the JSON Schema of an input file, or list them with their sha256",
		Long: `schema NAME prints the published JSON Schema of one input file exactly as
embedded; "answer" is the response contract whose sha256 a manifest freezes
in response_schema_sha256. Without NAME it lists every schema and its sha256.

With --json the list is {"schemas": [{"name", "sha256"}, ...]}, and a
schema is its JSON document as embedded (already JSON, byte for byte).`,
		Args:              maxArgs(1),
		ValidArgsFunction: completeSchemaName,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				if asJSON {
					rep := schemasReport{Schemas: []schemaEntry{}}
					for _, name := range tables.SchemaNames() {
						rep.Schemas = append(rep.Schemas, schemaEntry{name, tables.SchemaSHA256(name)})
					}
					return writeJSON(stdout, rep)
				}
				for _, name := range tables.SchemaNames() {
					fmt.Fprintf(stdout, "%s\t%s\n", name, tables.SchemaSHA256(name))
				}
				return nil
			}
			b, ok := tables.Schema(args[0])
			if !ok {
				return usagef("no schema %q (see 'evalgate schema')", args[0])
			}
			if asJSON && !jsontext.Value(b).IsValid() {
				return fmt.Errorf("embedded schema %s is not valid JSON", args[0])
			}
			_, err := stdout.Write(b)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON (a schema is JSON already)")
	return cmd
}
