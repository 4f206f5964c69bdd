package golden

import (
	"fmt"
	"os"
	"strconv"
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
	t       testing.TB
}

// Arg returns the value of key=value among the arguments, or def.
func (c *Case) Arg(key, def string) string {
	if v, ok := c.arg(key); ok {
		return v
	}
	return def
}

func (c *Case) arg(key string) (string, bool) {
	for _, a := range c.Args {
		if k, v, ok := strings.Cut(a, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
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
		c.t = t
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

// Commands is a data-driven file's vocabulary: each command's handler,
// returning the block's output.
type Commands map[string]func(c *Case) string

// RunCommands runs every block of the file at path through the handler
// of its command, as RunData does; a command with no handler fails the
// test at its position.
func RunCommands(t *testing.T, path string, cmds Commands) {
	t.Helper()
	RunData(t, path, func(t *testing.T, c *Case) string {
		run, ok := cmds[c.Cmd]
		if !ok {
			t.Fatalf("%s: unknown command %s", c.Pos, c.Cmd)
		}
		return run(c)
	})
}

// Int returns the integer value of key=value among the arguments, or def
// when key is absent; a value that is not an integer fails the test at
// the block's position.
func (c *Case) Int(key string, def int64) int64 {
	v, ok := c.arg(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		c.t.Helper()
		c.t.Fatalf("%s: %s=%q: %v", c.Pos, key, v, err)
	}
	return n
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

// OrNull renders a nullable column of a data-driven output: its value as
// fmt.Sprint prints it, or null.
func OrNull[T any](v *T) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}
