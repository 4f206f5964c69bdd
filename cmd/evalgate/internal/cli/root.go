package cli

import (
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/rules"
)

// Version is evalgate's version. It is written into every output file, so
// it is a constant, not build information: outputs must be byte-identical
// across builds of the same source.
const Version = rules.EvaluatorVersion

// Main runs evalgate with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if isCobraUsage(err) {
		err = &usageError{msg: oneLine(err.Error())}
	}
	code := exitCode(err)
	if err != nil && code != ExitRejected {
		msg := err.Error()
		if ue := (*usageError)(nil); !errors.As(err, &ue) || !ue.escaped {
			msg = text(msg) // an error quotes file names and values: one inert line
		}
		if code == ExitUsage && !hasHint(msg) {
			msg += " (see 'evalgate --help')"
		}
		io.WriteString(stderr, "evalgate: "+msg+"\n")
	}
	return code
}

// cobraUsage are the starts of the errors cobra itself returns for a
// command line it cannot parse (a mistyped subcommand, a missing required
// flag, a wrong argument count): usage errors, like evalgate's own.
var cobraUsage = []string{"unknown command ", "unknown flag", "unknown shorthand flag", "required flag", "accepts ", "requires at least ", "invalid argument "}

// oneLine puts cobra's "Did you mean this?" suggestions on the message's
// line: `unknown command "valdate" for "evalgate"; did you mean validate?`.
func oneLine(msg string) string {
	head, suggestions, ok := strings.Cut(msg, "\n\nDid you mean this?\n")
	if !ok {
		return strings.TrimSpace(msg)
	}
	return head + "; did you mean " + strings.Join(strings.Fields(suggestions), " or ") + "?"
}

// isCobraUsage reports whether err is one of cobra's usage errors.
func isCobraUsage(err error) bool {
	var ue *usageError
	if err == nil || errors.As(err, &ue) || errors.Is(err, errRejected) {
		return false
	}
	for _, p := range cobraUsage {
		if strings.HasPrefix(err.Error(), p) {
			return true
		}
	}
	return false
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
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{msg: err.Error()} })
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
		newTablesCmd(stdout),
	)
	registerCompletions(root)
	requireSubcommands(root)
	return root
}

// requireSubcommands makes every command that only groups subcommands
// (blind, import) refuse a missing or unknown subcommand as a usage error,
// instead of printing its help and exiting 0.
func requireSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		requireSubcommands(sub)
	}
	if !c.HasParent() || !c.HasSubCommands() || c.Runnable() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		var names []string
		for _, s := range cmd.Commands() {
			if s.IsAvailableCommand() {
				names = append(names, s.Name())
			}
		}
		if len(args) == 0 {
			return usagef("%s needs a subcommand: %s (see '%s --help')", cmd.CommandPath(), strings.Join(names, ", "), cmd.CommandPath())
		}
		return usagef("unknown command %q for %q: want %s (see '%s --help')", args[0], cmd.CommandPath(), strings.Join(names, ", "), cmd.CommandPath())
	}
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
