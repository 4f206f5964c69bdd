package cli

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/docs"
	"github.com/evalgate/evalgate/tables"
)

func newTablesCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "tables [NAME]",
		Short: "Print the data dictionary of the tables run writes (every column, its type and meaning)",
		Long: `tables prints the data dictionary of the Parquet tables 'evalgate run' writes
(the same text as docs/tables.md in the source): the conventions, every table
with what one row is, and every column with its Parquet and DuckDB type,
whether it is nullable and what it holds. With NAME, only that table.`,
		Args: maxArgs(1),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return tableNames(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				_, err := io.WriteString(stdout, docs.Tables)
				return err
			}
			section, ok := tableSection(args[0])
			if !ok {
				return usagef("no table %q: want one of %s", args[0], strings.Join(tableNames(), ", "))
			}
			_, err := io.WriteString(stdout, section)
			return err
		},
	}
}

// tableNames are the tables of the registry, in its order.
func tableNames() []string {
	var out []string
	for _, t := range tables.Registry() {
		out = append(out, t.Name)
	}
	return out
}

// tableSection is the dictionary's section of the named table: its "## "
// heading up to the next one.
func tableSection(name string) (string, bool) {
	head := "\n## " + name + "\n"
	i := strings.Index(docs.Tables, head)
	if i < 0 {
		return "", false
	}
	rest := docs.Tables[i+1:]
	if j := strings.Index(rest[len(head)-1:], "\n## "); j >= 0 {
		rest = rest[:len(head)-1+j+1]
	}
	return rest, true
}
