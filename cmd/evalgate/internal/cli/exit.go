// Package cli holds evalgate's cobra commands. It only parses flags, calls
// the stages and prints; every rule lives in stages/.
package cli

import (
	"errors"
	"fmt"
)

// Exit codes (rule R3). They are part of the interface (docs/cli.md) and
// pinned by a test. Completion is distinct from the decision: `run` exits 0 when it
// wrote its outputs, whatever the decision says.
const (
	ExitOK       = 0 // the command did what was asked
	ExitRejected = 1 // input rejected: findings printed, or admission refused, or compare met --fail-on
	ExitUsage    = 2 // bad flags or arguments
	ExitFailure  = 3 // the tool could not finish: an I/O error, an unwritable output
)

// usageError is a problem with the command line. escaped says msg is
// already escaped for the terminal (confined.EscapeText) wherever it
// quotes a value, so Main keeps its newlines.
type usageError struct {
	msg     string
	escaped bool
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errRejected says the findings already printed rejected the input.
var errRejected = errors.New("rejected")

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errRejected):
		return ExitRejected
	case errors.As(err, &ue):
		return ExitUsage
	default:
		return ExitFailure
	}
}

// runFailed is the error of a run the pipeline could not complete (see
// stages.Result.Err): no finding, verdict or table of it is printed or
// written, and the command exits with ExitFailure.
func runFailed(name string, err error) error {
	return fmt.Errorf("%s: the run could not read back its own temporary data, so nothing is reported: %w", name, err)
}
