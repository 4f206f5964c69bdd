package evalgate_test

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/evalgate/evalgate"

// layer returns the architectural layer of a package of this module:
// cmd (may import anything below), stages (the orchestrator), stage (one
// stage package), tables, rules, stats and fixtures (leaves, apart from
// fixtures' use of tables and tables' use of rules).
func layer(pkg string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	switch {
	case strings.HasPrefix(rel, "cmd/"):
		return "cmd"
	case rel == "stages":
		return "stages"
	case strings.HasPrefix(rel, "stages/"):
		return "stage:" + strings.SplitN(rel, "/", 3)[1]
	case strings.HasPrefix(rel, "tables"):
		return "tables"
	case rel == "rules":
		return "rules"
	case rel == "importers":
		return "importers"
	case rel == "confined":
		return "confined"
	case rel == "spool":
		return "spool"
	case strings.HasPrefix(rel, "stats/boot"):
		return "boot"
	case strings.HasPrefix(rel, "stats"):
		return "stats"
	case strings.HasPrefix(rel, "fixtures"):
		return "fixtures"
	}
	return rel
}

// allowed reports whether a package in layer from may import a package of
// this module in layer to. Imports go one way: cmd → stages → stage →
// tables → rules, and stats. rules (codes, findings, rules, gates and
// presets) imports nothing of this module; every layer may import it.
// confined (campaign file access and atomic output) imports only rules;
// every layer but stats may import it.
// spool (the storage engine of large tables and its codec) imports
// nothing of this module; every layer above stats may import it.
// importers (the Inspect, Codex and Harbor readers that write campaigns)
// sit beside the stages: the orchestrator and cmd use them, and they read
// documents with the load stage, which never imports them. A stage never imports another stage, and nothing below cmd
// imports cobra. The bootstrap (stats/boot) is imported only by the
// intervals stage, so no gate or decision can depend on an interval.
func allowed(from, to string) bool {
	switch {
	case from == to:
		return true
	case from == "rules", from == "spool":
		return false
	case to == "rules":
		return from != "stats" && from != "boot"
	case from == "confined":
		return false
	case to == "confined":
		return from != "stats" && from != "boot"
	case to == "spool":
		return from != "stats" && from != "boot"
	case from == "cmd":
		return true
	case from == "stages":
		return strings.HasPrefix(to, "stage:") || to == "importers" || to == "tables" || to == "stats"
	case from == "importers":
		return to == "stage:load" || to == "tables"
	case to == "boot":
		return from == "stage:intervals"
	case from == "boot":
		return to == "stats"
	case strings.HasPrefix(from, "stage:"):
		return to == "tables" || to == "stats"
	case from == "fixtures":
		return to == "tables"
	case from == "tables", from == "stats":
		return false
	}
	return false
}

// TestImportDirection enforces the layering of non-test code.
func TestImportDirection(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "interop" || name == "docs") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files, or only ignored ones
		}
		from := layer(module + "/" + filepath.ToSlash(path))
		if path == "." {
			from = "root"
		}
		for _, imp := range pkg.Imports {
			if imp == "github.com/spf13/cobra" && from != "cmd" {
				t.Errorf("%s imports cobra; only cmd/ may", path)
			}
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			if to := layer(imp); !allowed(from, to) {
				t.Errorf("%s (%s) imports %s (%s): imports go cmd → stages → stage → tables → spool, confined → rules, and stats", path, from, imp, to)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestImportRuleRejects proves the rule can fail.
func TestImportRuleRejects(t *testing.T) {
	for _, c := range []struct{ from, to string }{
		{"stage:score", "stage:intervals"},
		{"stage:aggregate", "stage:intervals"},
		{"tables", "stage:load"},
		{"stats", "tables"},
		{"fixtures", "stage:load"},
		{"stage:load", "stages"},
		{"stage:aggregate", "boot"},
		{"stage:report", "stage:aggregate"}, // report and its sub-packages (compare) only format
		{"stage:score", "boot"},
		{"stages", "boot"},
		{"stats", "boot"},
		{"rules", "tables"},
		{"confined", "tables"},
		{"stats", "confined"},
		{"stage:load", "importers"},
		{"importers", "stage:account"},
		{"importers", "stages"},
		{"rules", "stats"},
		{"stats", "rules"},
		{"spool", "tables"},
		{"spool", "rules"},
		{"spool", "confined"},
		{"rules", "spool"},
		{"confined", "spool"},
		{"stats", "spool"},
	} {
		if allowed(c.from, c.to) {
			t.Errorf("allowed(%s, %s) = true, want false", c.from, c.to)
		}
	}
}

// TestArchitectureNamesEveryPackage: docs/architecture.md has a line for
// every package of the module, so that a newcomer finds each room there.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "interop") {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(path, 0); err != nil || path == "." {
			return nil // no Go files; the root is the module's own line
		}
		if !strings.Contains(string(doc), "| `"+filepath.ToSlash(path)+"` |") {
			t.Errorf("docs/architecture.md has no line for the package %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
