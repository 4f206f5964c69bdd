package golden

import (
	"strings"
	"testing"
)

func TestParseData(t *testing.T) {
	cases, err := parseData("x.txt", "# note\n\nadd a=1 b\nline one\n----\nout\n\nnone\n----\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	c := cases[0]
	if c.Cmd != "add" || c.Arg("a", "") != "1" || c.Arg("z", "d") != "d" || c.Input != "line one\n" || c.want != "out\n" || c.comment != "# note\n\n" || c.Pos != "x.txt:3" {
		t.Errorf("case %+v", c)
	}
	if cases[1].Cmd != "none" || cases[1].want != "" || cases[1].comment != "\n" {
		t.Errorf("case %+v", cases[1])
	}
	if _, err := parseData("x.txt", "cmd\nno separator\n"); err == nil || !strings.Contains(err.Error(), "x.txt:1") {
		t.Errorf("err = %v", err)
	}
}

func TestCaseInt(t *testing.T) {
	c := &Case{Args: []string{"n=-7", "x"}, t: t}
	if got := c.Int("n", 1); got != -7 {
		t.Errorf("Int(n) = %d, want -7", got)
	}
	if got := c.Int("m", 3); got != 3 {
		t.Errorf("Int(m) = %d, want the default 3", got)
	}
}
