package cli

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Version is evalgate's version. It is written into every output file, so
// it is a constant, not build information: outputs must be byte-identical
// across builds of the same source.
const Version = "0.1.0"

// Main runs evalgate with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	code := exitCode(err)
	if err != nil && code != ExitRejected {
		msg := err.Error()
		if code == ExitUsage && !hasHint(msg) {
			msg += " (see 'evalgate --help')"
		}
		io.WriteString(stderr, "evalgate: "+msg+"\n")
	}
	return code
}

// hasHint reports whether a usage message already says where to look, so
// that Main does not add a second hint.
func hasHint(msg string) bool {
	return strings.Contains(msg, "--help") || strings.Contains(msg, "(see '")
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "evalgate",
		Short: "Offline evaluator for controlled experiments on LLM coding agents",
		Long: `evalgate reads a campaign directory offline and either rejects it with
typed, positioned reasons or turns it into Parquet tables, three scorecards,
conjunctive gate verdicts, a decision and exploratory intervals.

Exit codes: 0 ok, 1 input rejected (or admission refused, or compare found
a regression), 2 usage error, 3 the tool could not finish (I/O).`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       Version,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	root.AddCommand(
		newRunCmd(stdout, stderr),
		newValidateCmd(stdout, stderr),
		newSchemaCmd(stdout),
		newExamplesCmd(stdout),
		newBlindCmd(stdout, stderr),
		newAdmitCmd(stdout, stderr),
		newCompareCmd(stdout, stderr),
		newShowCmd(stdout),
		newControlsCmd(stdout),
		newImportCmd(stdout, stderr),
		newInitCmd(stdout),
		newPromptsCmd(stdout),
		newSynthCmd(stdout),
		newPreflightCmd(stdout),
		newCollectCmd(stdout),
	)
	registerCompletions(root)
	return root
}

// positional checks the number of positional arguments as a usage error.
func maxArgs(n int) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef("expected at most %d argument(s), got %d", n, len(args))
		}
		return nil
	}
}
