package markdown

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/stages/report/scorecard"
)

// writePromptVersions writes the development flow's prompt versions (rule
// G8): which rounds received which version of the arm's instruction, and
// each revision's line diff in a fenced block (longer than any backtick
// run of the prompt, so the prompt's text cannot close it).
func writePromptVersions(b *bufio.Writer, versions []scorecard.PromptVersion) {
	if len(versions) == 0 {
		return
	}
	b.WriteString("## Development rounds: prompt versions\n\n")
	b.WriteString("| arm | version | prompt | received by | sha256 | bytes | frozen at |\n|---|---|---|---|---|---:|---|\n")
	for _, v := range versions {
		frozen := v.FrozenAt
		if frozen == "" {
			frozen = "with the manifest"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %d | %s |\n", escapeMarkdown(v.Arm), v.Version, escapeMarkdown(v.Prompt),
			v.Rounds, v.SHA256, v.Bytes, frozen) // frozen: an RFC 3339 time this tool formatted, or its own text
	}
	b.WriteString("\n")
	for _, v := range versions {
		if v.Replaces == "" {
			continue
		}
		fmt.Fprintf(b, "Diff of %s v%s (%s) against %s:\n\n", escapeMarkdown(v.Arm), v.Version, escapeMarkdown(v.Prompt), escapeMarkdown(v.Replaces))
		fence := "```"
		for _, l := range v.Diff {
			for strings.Contains(l, fence) {
				fence += "`"
			}
		}
		b.WriteString(fence + "diff\n")
		for _, l := range v.Diff {
			b.WriteString(l + "\n")
		}
		b.WriteString(fence + "\n\n")
	}
}
