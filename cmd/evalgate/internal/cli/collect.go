package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

func newCollectCmd(stdout io.Writer) *cobra.Command {
	var into string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "collect OUT_DIR... --into DATASET [--json]",
		Short: "Lay many run outputs' tables out as one Hive-partitioned Parquet dataset",
		Long: `collect copies the tables of every output directory of 'evalgate run' into
DATASET as one Hive-partitioned Parquet dataset that DuckDB, Spark and Trino
read as one table per table name:

    DATASET/<table>/campaign_id=<campaign id>/part-0.parquet

Each part is the run's table file byte for byte (one schema per table, the
schema version in its key-value metadata); the campaign ID comes from the
path. Every file must carry this evalgate's schema version and its table's
schema, so a dataset never mixes versions; nothing is written unless every
input passes. A campaign collected again with the same tables is left
unchanged; with other tables, or twice in one call, it is refused.

Exit 0 collected, 2 usage, 3 a refused or unreadable input, or I/O.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("give at least one output directory of 'evalgate run'")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if into == "" {
				return usagef("give --into DATASET")
			}
			cs, err := stages.Collect(args, into)
			if err != nil {
				return err
			}
			if asJSON {
				return writeCollectJSON(stdout, into, cs)
			}
			var ids []string
			var rows int64
			for _, c := range cs {
				id := c.CampaignID
				if c.Unchanged {
					id += " (unchanged)"
				}
				ids = append(ids, id)
				rows += c.Rows
			}
			_, err = fmt.Fprintf(stdout, "collected %d campaign(s) into %s: %d rows in %d tables (%s)\n",
				len(cs), into, rows, len(tables.Registry()), strings.Join(ids, ", "))
			return err
		},
	}
	cmd.Flags().StringVar(&into, "into", "", "dataset directory (created when absent)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {dataset, schema_version, campaigns: [{campaign_id, dir, rows, unchanged}]}")
	return cmd
}

func writeCollectJSON(w io.Writer, dataset string, cs []stages.CollectedCampaign) error {
	type campaign struct {
		CampaignID string `json:"campaign_id"`
		Dir        string `json:"dir"`
		Rows       int64  `json:"rows"`
		Unchanged  bool   `json:"unchanged"`
	}
	out := struct {
		Dataset       string     `json:"dataset"`
		SchemaVersion string     `json:"schema_version"`
		Campaigns     []campaign `json:"campaigns"`
	}{Dataset: dataset, SchemaVersion: tables.SchemaVersion, Campaigns: []campaign{}}
	for _, c := range cs {
		out.Campaigns = append(out.Campaigns, campaign{c.CampaignID, c.Dir, c.Rows, c.Unchanged})
	}
	b, err := json.Marshal(out, jsontext.WithIndent("  "))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
