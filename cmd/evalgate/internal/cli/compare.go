package cli

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/stages/report/compare"
)

type compareOptions struct {
	tolerance string
	json      bool
}

// errChanged says compare found a change beyond the tolerance; it exits 1
// like a rejection, and the differences are already printed.
var errChanged = fmt.Errorf("outputs differ: %w", errRejected)

func newCompareCmd(stdout io.Writer) *cobra.Command {
	var opts compareOptions
	cmd := &cobra.Command{
		Use:   "compare OLD NEW [--tolerance T] [--json]",
		Short: "Compare the gates, decision and metrics of two run outputs",
		Long: `compare reads two output directories written by 'evalgate run' and prints
what differs: the decision, each gate's result, observed value, threshold and
failing list, each arm's macro-average task-median R and U, the cost and time
ratios, and each task's median R per arm.

Metrics are compared exactly; one moves when |NEW - OLD| > --tolerance
(absolute, a decimal or fraction, default 0). The decision and gates have no
tolerance. Exit 0 when nothing changed beyond the tolerance, 1 when a gate or
the decision changed or a metric moved beyond it, 2 when a directory is
missing or not an evalgate output or the scorecard versions differ, 3 on an
I/O error.`,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("compare needs exactly two output directories, OLD and NEW; got %d", len(args))
			}
			tol, err := parseTolerance(opts.tolerance)
			if err != nil {
				return err
			}
			return runCompare(stdout, args[0], args[1], tol, opts.json)
		},
	}
	cmd.Flags().StringVar(&opts.tolerance, "tolerance", "0", "largest absolute move of a metric that is not a change (decimal or p/q)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the comparison as JSON")
	return cmd
}

// parseTolerance reads a non-negative exact decimal or fraction.
func parseTolerance(s string) (*big.Rat, error) {
	t := strings.TrimSpace(s)
	r, ok := new(big.Rat).SetString(t)
	if t == "" || len(t) > 64 || strings.ContainsAny(t, "eEpPxX_") || !ok || r.Sign() < 0 {
		return nil, usagef("--tolerance %q: want a non-negative decimal or fraction such as 0.01", s)
	}
	return r, nil
}

func runCompare(stdout io.Writer, oldDir, newDir string, tol *big.Rat, asJSON bool) error {
	c, err := compare.Dirs(oldDir, newDir, compare.Options{Tolerance: tol})
	if errors.Is(err, compare.ErrNotOutput) || errors.Is(err, compare.ErrVersionMismatch) || errors.Is(err, compare.ErrKindMismatch) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	if asJSON {
		err = writeJSON(stdout, c)
	} else {
		err = printComparison(stdout, c)
	}
	if err != nil {
		return err
	}
	if c.Changed {
		return errChanged
	}
	return nil
}

func printComparison(w io.Writer, c *compare.Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "old: %s (campaign %q, manifest %s)\n", c.Old.Dir, c.Old.CampaignID, c.Old.ManifestSHA256)
	fmt.Fprintf(&b, "new: %s (campaign %q, manifest %s)\n", c.New.Dir, c.New.CampaignID, c.New.ManifestSHA256)
	fmt.Fprintf(&b, "decision: %s -> %s\n", c.Old.Decision, c.New.Decision)
	beyond := 0
	for _, d := range c.Differences {
		mark := "within"
		if d.Beyond {
			mark = "CHANGED"
			beyond++
		}
		fmt.Fprintf(&b, "%s %s %s %s: %s -> %s", mark, d.Kind, d.Key, d.Field, orNull(d.Old), orNull(d.New))
		if d.Delta != nil {
			fmt.Fprintf(&b, " (delta %s)", *d.Delta)
		}
		b.WriteByte('\n')
	}
	if c.Changed {
		fmt.Fprintf(&b, "result: changed (%d of %d differences beyond tolerance %s)\n", beyond, len(c.Differences), c.Tolerance)
	} else {
		fmt.Fprintf(&b, "result: unchanged (%d differences, none beyond tolerance %s)\n", len(c.Differences), c.Tolerance)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orNull(s *string) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *s)
}
