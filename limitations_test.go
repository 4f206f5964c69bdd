package evalgate_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/internal/golden"
)

// docs/limitations.md carries the exact runtime inventory between two
// markers. TestLimitationsInventory rebuilds it from go.mod, go.sum and
// interop/package-lock.json and fails when the document differs, so the
// inventory cannot rot; `go test . -run TestLimitationsInventory -update`
// rewrites it.

const (
	limitationsDoc   = "docs/limitations.md"
	inventoryBegin   = "<!-- inventory: generated from go.mod, go.sum and interop/package-lock.json by limitations_test.go; do not edit -->\n"
	inventoryEnd     = "<!-- end inventory -->\n"
	interopLockfile  = "interop/package-lock.json"
	moduleFile       = "go.mod"
	moduleChecksums  = "go.sum"
	interopPackageNS = "node_modules/"
)

func TestLimitationsInventory(t *testing.T) {
	want, err := inventory()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(limitationsDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := bytes.Cut(doc, []byte(inventoryBegin))
	_, after, ok2 := bytes.Cut(rest, []byte(inventoryEnd))
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the inventory markers", limitationsDoc)
	}
	got := slices.Concat(before, []byte(inventoryBegin), want, []byte(inventoryEnd), after)
	if golden.Update() {
		if err := os.WriteFile(limitationsDoc, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, doc) {
		t.Errorf("%s's inventory is stale (run go test . -run TestLimitationsInventory -update):\n%s", limitationsDoc, golden.Diff(limitationsDoc, doc, got))
	}
}

// inventory renders the runtime inventory section.
func inventory() ([]byte, error) {
	mod, err := os.ReadFile(moduleFile)
	if err != nil {
		return nil, err
	}
	sums, err := os.ReadFile(moduleChecksums)
	if err != nil {
		return nil, err
	}
	goVersion, requires, tools := parseGoMod(mod)
	zipHash := map[string]string{} // "module version" → h1 hash of the module zip
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && !strings.HasSuffix(f[1], "/go.mod") {
			zipHash[f[0]+" "+f[1]] = f[2]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nGo toolchain: **go %s** (the `go` directive of go.mod; Go fetches that toolchain when an older one runs).\n\n", goVersion)
	b.WriteString("Go modules (go.mod, with the go.sum hash of each module's source):\n\n| module | version | use | go.sum h1 |\n|---|---|---|---|\n")
	for _, r := range requires {
		use := "direct"
		switch {
		case slices.ContainsFunc(tools, func(tool string) bool { return tool == r.path || strings.HasPrefix(tool, r.path+"/") }):
			use = "tool"
		case r.indirect:
			use = "indirect"
		}
		h := zipHash[r.path+" "+r.version]
		if h == "" {
			h = "— (only its go.mod is needed)"
		} else {
			h = "`" + h + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.path, r.version, use, h)
	}
	if len(tools) > 0 {
		fmt.Fprintf(&b, "\nGo tools (go.mod `tool`): %s.\n", strings.Join(tools, ", "))
	}
	lock, err := os.ReadFile(interopLockfile)
	if err != nil {
		return nil, err
	}
	var l struct {
		LockfileVersion int `json:"lockfileVersion"`
		Packages        map[string]struct {
			Version  string `json:"version"`
			Optional bool   `json:"optional"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(lock, &l, json.RejectUnknownMembers(false)); err != nil {
		return nil, fmt.Errorf("%s: %w", interopLockfile, err)
	}
	fmt.Fprintf(&b, "\nnpm packages of the DuckDB interop test (%s, lockfile version %d; installed by `npm ci`, Node 20):\n\n| package | version | |\n|---|---|---|\n", interopLockfile, l.LockfileVersion)
	var names []string
	for k := range l.Packages {
		if name, ok := strings.CutPrefix(k, interopPackageNS); ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		p := l.Packages[interopPackageNS+n]
		note := "required"
		if p.Optional {
			note = "optional (platform binding)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", n, p.Version, note)
	}
	b.WriteString("\n")
	return []byte(b.String()), nil
}

type requirement struct {
	path, version string
	indirect      bool
}

// parseGoMod reads the go directive, every require (single or in a block)
// and every tool of a go.mod file.
func parseGoMod(data []byte) (goVersion string, reqs []requirement, tools []string) {
	block := ""
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSpace(line)
		indirect := strings.HasSuffix(line, "// indirect")
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == ")":
			block = ""
		case len(f) == 2 && f[1] == "(":
			block = f[0]
		case block == "require" && len(f) == 2:
			reqs = append(reqs, requirement{f[0], f[1], indirect})
		case block == "tool" && len(f) == 1:
			tools = append(tools, f[0])
		case f[0] == "go" && len(f) == 2:
			goVersion = f[1]
		case f[0] == "require" && len(f) == 3:
			reqs = append(reqs, requirement{f[1], f[2], indirect})
		case f[0] == "tool" && len(f) == 2:
			tools = append(tools, f[1])
		}
	}
	return goVersion, reqs, tools
}
