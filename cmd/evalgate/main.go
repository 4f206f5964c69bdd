// Command evalgate reads a campaign directory of an LLM coding-agent
// experiment offline and either rejects it with typed, positioned reasons
// or turns it into Parquet tables, scorecards, gate verdicts, a decision
// and exploratory intervals. See README.md and `evalgate help`.
package main

import (
	"os"

	"github.com/evalgate/evalgate/cmd/evalgate/internal/cli"
)

func main() {
	cli.PauseMemProfile()
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
