package golden

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Case is one block of a data-driven test file (the style of Pebble's
// datadriven package, in a few lines):
//
//	command arg1 key=value
//	input line
//	----
//	expected output
//
// Blocks are separated by a blank line (an output containing blank lines
// is not supported); lines starting with # between blocks are comments.
type Case struct {
	Pos     string // file:line of the command
	Cmd     string
	Args    []string // the command line's words after the command
	Input   string   // the lines between the command and ----
	want    string
	comment string // comment and blank lines before the block, kept on -update
}

// Arg returns the value of key=value among the arguments, or def.
func (c *Case) Arg(key, def string) string {
	for _, a := range c.Args {
		if k, v, ok := strings.Cut(a, "="); ok && k == key {
			return v
		}
	}
	return def
}

// RunData runs every block of the file at path through run, comparing
// what it returns with the block's expected output. Under -update it
// rewrites the file with the outputs instead.
func RunData(t *testing.T, path string, run func(t *testing.T, c *Case) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := parseData(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, c := range cases {
		got := run(t, c)
		if got != "" && !strings.HasSuffix(got, "\n") {
			got += "\n"
		}
		if strings.Contains(got, "\n\n") {
			t.Errorf("%s: output contains a blank line, which the file format cannot hold", c.Pos)
		}
		if !*update && got != c.want {
			t.Errorf("%s: %s output differs (refresh with go test -update):\n%s", c.Pos, c.Cmd, Diff(c.Pos, []byte(c.want), []byte(got)))
		}
		out.WriteString(c.comment)
		out.WriteString(strings.Join(append([]string{c.Cmd}, c.Args...), " ") + "\n")
		out.WriteString(c.Input)
		out.WriteString("----\n" + got)
	}
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func parseData(path, text string) ([]*Case, error) {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var cases []*Case
	var comment strings.Builder
	for i := 0; i < len(lines); {
		l := lines[i]
		trimmed := strings.TrimSpace(l)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			comment.WriteString(strings.TrimRight(l, "\n") + "\n")
			i++
			continue
		}
		words := strings.Fields(trimmed)
		c := &Case{Pos: fmt.Sprintf("%s:%d", path, i+1), Cmd: words[0], Args: words[1:], comment: comment.String()}
		comment.Reset()
		i++
		for ; i < len(lines) && strings.TrimRight(lines[i], "\n") != "----"; i++ {
			c.Input += strings.TrimRight(lines[i], "\n") + "\n"
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s: no ---- after the command", c.Pos)
		}
		i++
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			c.want += strings.TrimRight(lines[i], "\n") + "\n"
		}
		cases = append(cases, c)
	}
	return cases, nil
}
