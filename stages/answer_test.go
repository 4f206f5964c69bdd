package stages

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
)

const answersDir = "testdata/answers"

// answerFile is one file of testdata/answers, named
// <role>__<expected_code>__<desc>.json or valid__<role>__<desc>.json.
type answerFile struct {
	name, role string
	code       rules.Code // "" for valid files
}

func answerFiles(t *testing.T) []answerFile {
	t.Helper()
	entries, err := os.ReadDir(answersDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []answerFile
	for _, e := range entries {
		name := e.Name()
		parts := strings.Split(strings.TrimSuffix(name, ".json"), "__")
		if !strings.HasSuffix(name, ".json") || len(parts) != 3 {
			t.Fatalf("%s: not named <role>__<code>__<desc>.json or valid__<role>__<desc>.json", name)
		}
		if parts[0] == "valid" {
			files = append(files, answerFile{name: name, role: parts[1]})
		} else {
			files = append(files, answerFile{name: name, role: parts[0], code: rules.Code(parts[1])})
		}
	}
	return files
}

// TestAnswerFiles checks that each file yields exactly its expected code
// and no other, and that valid files yield nothing.
func TestAnswerFiles(t *testing.T) {
	known := map[rules.Code]bool{}
	for _, d := range rules.AllCodes() {
		known[d.Code] = true
	}
	files := answerFiles(t)
	if len(files) < 45 {
		t.Errorf("only %d answer files; want at least 45", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(f.name, ".json"), func(t *testing.T) {
			if f.code != "" && !known[f.code] {
				t.Fatalf("expected code %q is not a documented code", f.code)
			}
			data, err := os.ReadFile(filepath.Join(answersDir, f.name))
			if err != nil {
				t.Fatal(err)
			}
			got := CheckAnswer(f.name, data, f.role)
			if f.code == "" {
				if len(got) > 0 {
					t.Fatalf("valid answer yields findings:\n%s", show(got))
				}
				return
			}
			codes := codesOf(got)
			if !slices.Equal(codes, []rules.Code{f.code}) {
				t.Fatalf("codes = %v, want exactly [%s]; findings:\n%s", codes, f.code, show(got))
			}
			for _, fd := range got {
				if fd.File != f.name || fd.Severity != rules.Reject || fd.Message == "" {
					t.Errorf("finding not positioned or not a rejection: %+v", fd)
				}
			}
		})
	}
}

// TestCheckAnswerRoles covers what file names cannot: an unknown role and
// the same bytes judged under different roles.
func TestCheckAnswerRoles(t *testing.T) {
	draft, err := os.ReadFile(filepath.Join(answersDir, "valid__draft__base.json"))
	if err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(filepath.Join(answersDir, "valid__reconciliation__full.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		role string
		want []rules.Code
	}{
		{"unknown role", draft, "judge", []rules.Code{rules.CodeRoleUnknown}},
		{"empty role", draft, "", []rules.Code{rules.CodeRoleUnknown}},
		{"draft answer as reconciliation", draft, "reconciliation", []rules.Code{rules.CodeReconciliationMissing}},
		{"reconciliation answer as review", full, "review", []rules.Code{rules.CodeReconciliationUnexpected}},
		{"draft answer as review", draft, "review", nil},
		{"answer over 4 MiB", append([]byte(`{"final":"`), make([]byte, 4<<20)...), "draft", []rules.Code{rules.CodeTooLarge}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckAnswer("a.json", tc.data, tc.role)
			if codes := codesOf(got); !slices.Equal(codes, tc.want) {
				t.Errorf("codes = %v, want %v:\n%s", codes, tc.want, show(got))
			}
		})
	}
}

func FuzzCheckAnswer(f *testing.F) {
	entries, _ := os.ReadDir(answersDir)
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(answersDir, e.Name())); err == nil {
			f.Add(data, "reconciliation")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, role string) {
		for _, fd := range CheckAnswer("a.json", data, role) {
			if fd.Code == "" || fd.Message == "" {
				t.Fatalf("untyped finding %+v", fd)
			}
		}
	})
}

// codesOf returns the distinct codes of fs, sorted.
func codesOf(fs rules.Findings) []rules.Code {
	var codes []rules.Code
	for _, f := range fs {
		codes = append(codes, f.Code)
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

func show(fs rules.Findings) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\t" + f.Error() + "\n")
	}
	return b.String()
}
