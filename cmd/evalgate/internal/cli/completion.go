package cli

import (
	"github.com/spf13/cobra"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/stages/report/compare"
	"github.com/evalgate/evalgate/tables"
)

// flagValues are the values shell completion offers for a flag, by flag
// name, on every command that has the flag. Each list is read from where
// the command checks the value, so completion cannot offer a value the
// command refuses.
var flagValues = map[string]func() []string{
	"example": fixtures.Examples,
	"role":    func() []string { return answerRoles },
	"kind":    stages.SkeletonKinds,
	// compare's; run's --fail-on registers its own values
	"fail-on": func() []string {
		var out []string
		for _, f := range compare.FailOns() {
			out = append(out, string(f))
		}
		return out
	},
}

// registerCompletions walks the command tree under root and registers a
// completion function for every flag of flagValues it finds, plus the
// schema names for `schema NAME`.
func registerCompletions(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for name, values := range flagValues {
			if f := cmd.Flags().Lookup(name); f == nil || f.Annotations[ownCompletion] != nil {
				continue
			}
			// The error is only "already registered" or "no such flag":
			// neither can happen here.
			_ = cmd.RegisterFlagCompletionFunc(name, fixedValues(values))
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// ownCompletion annotates a flag whose command registers its own
// completion (run's --fail-on), which flagValues must not replace.
const ownCompletion = "evalgate_own_completion"

// fixedValues completes from a list, never falling back to file names.
func fixedValues(values func() []string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return values(), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeSchemaName completes the one argument of `schema`.
func completeSchemaName(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return tables.SchemaNames(), cobra.ShellCompDirectiveNoFileComp
}

// completeDirs completes directory names only, for compare's OLD and NEW.
func completeDirs(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) >= 2 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveFilterDirs
}
