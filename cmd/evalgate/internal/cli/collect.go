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

    DATASET/<table>/campaign_id=<campaign id>/run=<run id>/part-0.parquet

Each part is the run's table file byte for byte (one schema per table, the
schema version in its key-value metadata); the campaign and run IDs come
from the path. The run ID is a digest of the output's scorecard and tables:
a campaign's successive runs (more receipts, another evalgate) each get
their own partition, so the dataset keeps their history, and the same
output collected again is left unchanged. Every file must carry this
evalgate's schema version, its table's schema and the scorecard's manifest
digest, so a dataset never mixes versions; nothing is written unless every
input passes.

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
			campaigns := map[string]bool{}
			for _, c := range cs {
				id := c.CampaignID + " run=" + c.RunID
				if c.Unchanged {
					id += " (unchanged)"
				}
				ids = append(ids, id)
				rows += c.Rows
				campaigns[c.CampaignID] = true
			}
			_, err = fmt.Fprintf(stdout, "collected %d run(s) of %d campaign(s) into %s: %d rows in %d tables (%s)\n",
				len(cs), len(campaigns), text(into), rows, len(tables.Registry()), text(strings.Join(ids, ", ")))
			return err
		},
	}
	cmd.Flags().StringVar(&into, "into", "", "dataset directory (created when absent)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {dataset, schema_version, campaigns: [{campaign_id, run_id, dir, rows, unchanged}]}")
	return cmd
}

func writeCollectJSON(w io.Writer, dataset string, cs []stages.CollectedCampaign) error {
	type campaign struct {
		CampaignID string `json:"campaign_id"`
		RunID      string `json:"run_id"`
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
		out.Campaigns = append(out.Campaigns, campaign{c.CampaignID, c.RunID, c.Dir, c.Rows, c.Unchanged})
	}
	b, err := json.Marshal(out, jsontext.WithIndent("  "))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
