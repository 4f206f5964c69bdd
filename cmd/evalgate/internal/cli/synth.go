package cli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/fixtures"
)

func newSynthCmd(stdout io.Writer) *cobra.Command {
	var kind, out string
	var sessions, maxTasks int64
	var faults float64
	var seed uint64
	cmd := &cobra.Command{
		Use:   "synth --kind " + strings.Join(fixtures.SynthKinds, "|") + " --sessions N [--max-tasks T] [--faults F] [--seed S] --out DIR",
		Short: "Write a synthetic campaign of any size, for tests and benchmarks",
		Long: `synth writes a valid synthetic campaign of at least N sessions into DIR
(which must not exist or be empty), from the generator of the embedded
example of that kind, streaming file by file so memory stays bounded at
any size. A fraction F (0 to 0.5) of the sessions carries a model fault
of that kind — a refusal, a timeout, a malformed answer, a blank
investigation draft, a citation the raters judge unsupported, a finding
at the wrong lines — spread evenly over the campaign: each is scored as a
failure and none rejects the campaign, so validate accepts it whatever F
is. A paired-review campaign has up to 1,000 tasks (or T with
--max-tasks), then more repetitions. A system comparison is capped at 90 model sessions by its kind: a
larger one is rejected for that ceiling alone. The same flags give a
byte-identical directory. Everything it writes is labelled synthetic.

Exit 0 written, 2 usage, 3 I/O.`,
		Args: maxArgs(0),
		RunE: func(*cobra.Command, []string) error {
			if !slices.Contains(fixtures.SynthKinds, kind) {
				return usagef("--kind must be one of %s", strings.Join(fixtures.SynthKinds, ", "))
			}
			if sessions < 1 {
				return usagef("--sessions must be at least 1")
			}
			if maxTasks < 0 || maxTasks > 0 && kind != "paired-review" {
				return usagef("--max-tasks must be a positive number of tasks, and applies to paired-review only")
			}
			if math.IsNaN(faults) || faults < 0 || faults > 0.5 {
				return usagef("--faults must be within 0 and 0.5")
			}
			if out == "" {
				return usagef("give --out DIR")
			}
			if err := newCampaignDir(out, "synth"); err != nil {
				return err
			}
			sum, err := fixtures.Synth(kind, out, fixtures.SynthOptions{
				Sessions: sessions, FaultPPM: int64(math.Round(faults * 1e6)), Seed: seed, MaxTasks: maxTasks,
			})
			if err != nil {
				return err
			}
			total, kinds := int64(0), make([]string, len(sum.Faults))
			for i, f := range sum.Faults {
				total += f.Count
				kinds[i] = fmt.Sprintf("%d %s", f.Count, f.Kind)
			}
			_, err = fmt.Fprintf(stdout, "wrote %s campaign %s: %d sessions (%s), %d model faults (%s)\n",
				kind, text(out), sum.Sessions, sum.Shape, total, strings.Join(kinds, ", "))
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&kind, "kind", "", "campaign kind: "+strings.Join(fixtures.SynthKinds, ", "))
	fl.Int64Var(&sessions, "sessions", 0, "at least this many sessions (rounded up to whole task slots)")
	fl.Int64Var(&maxTasks, "max-tasks", 0, "paired-review: at most this many tasks, more repetitions instead (default 1,000)")
	fl.Float64Var(&faults, "faults", 0, "fraction of sessions with a model fault, 0 to 0.5")
	fl.Uint64Var(&seed, "seed", 741, "seed of every random choice")
	fl.StringVar(&out, "out", "", "campaign directory to write (must not exist or be empty)")
	return cmd
}
