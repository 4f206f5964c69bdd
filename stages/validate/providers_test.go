package validate

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// providerCases are the system-comparison cases of the provider pins,
// tool calls and design (rules P1–P3), run with systemCases
// (TestSystemComparisonValidate) and counted by TestEveryCodeCovered.
// Expected codes and classes by hand: each edit breaks exactly one rule
// of the example, which pins the contract's providers.
var providerCases = []sysCase{
	{name: "a system pins no provider", mut: func(t *testing.T, f fstest.MapFS) {
		sysManifest(t, f, func(m *tables.Manifest) { m.Design.Arms[1].Provider = nil })
	}, want: []rules.Code{rules.CodeProviderPinMissing}},
	{name: "a provider's commit is empty", mut: func(t *testing.T, f fstest.MapFS) {
		sysManifest(t, f, func(m *tables.Manifest) { m.Design.Arms[2].Provider.Commit = "" })
	}, want: []rules.Code{rules.CodeProviderPinMissing, rules.CodeProviderPinMismatch}},
	{name: "madar at another version", mut: func(t *testing.T, f fstest.MapFS) {
		sysManifest(t, f, func(m *tables.Manifest) { m.Design.Arms[1].Provider.Version = "0.33.0" })
	}, want: []rules.Code{rules.CodeProviderPinMismatch}},
	{name: "serena's project allowlist differs from its global one", mut: func(t *testing.T, f fstest.MapFS) {
		sysManifest(t, f, func(m *tables.Manifest) {
			p := m.Design.Arms[2].Provider
			p.ProjectTools = slices.DeleteFunc(slices.Clone(p.ProjectTools), func(s string) bool { return s == "find_declaration" })
		})
	}, want: []rules.Code{rules.CodeProviderPinMismatch}},
	{name: "the systems' ordinary tools differ", mut: func(t *testing.T, f fstest.MapFS) {
		sysManifest(t, f, func(m *tables.Manifest) { m.Design.Arms[2].Provider.OrdinaryTools = []string{"read_file"} })
	}, want: []rules.Code{rules.CodeProviderPinMismatch}},
	{name: "a custom preset still refuses a denied tool", mut: func(t *testing.T, f fstest.MapFS) {
		sysManifest(t, f, func(m *tables.Manifest) {
			m.GatePolicy.Preset = "system-comparison-custom"
			m.Design.Arms[1].Provider.MCPTools = append(m.Design.Arms[1].Provider.MCPTools, "write_memory")
		})
	}, want: []rules.Code{rules.CodeProviderToolDenied}}, // the unknown preset is the aggregate stage's
	{name: "a madar investigation calls a tool outside its allowlist", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			sysFind(t, rs, "S1-r2-madar-I").ToolCalls[0].Name = "execute_shell_command"
			return rs
		})
		sysObs(t, f, "S1-r2-madar-I", func(l *tables.ObservationLog) { l.Observations[0].Name = "execute_shell_command" })
		// The observation log's bytes changed: restamp the receipts that name them.
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			data := f["observations/S1-r2-madar-I.json"].Data
			r := sysFind(t, rs, "S1-r2-madar-I")
			r.Observations.SHA256, r.Observations.Bytes = shaHex(data), int64(len(data))
			sysFind(t, rs, "S1-r2-madar-R").Inputs.PacketSHA256 = shaHex(data)
			return rs
		})
	}, want: []rules.Code{rules.CodeProviderToolNotAllowed},
		class: map[string]tables.Classification{"S1-r2-madar-I": tables.ClassInvalid}},
	{name: "a madar cold setup calls its MCP tool as an ordinary one", mut: func(t *testing.T, f fstest.MapFS) {
		sysEdit(t, f, func(rs []tables.Receipt) []tables.Receipt {
			sysFind(t, rs, "setup-madar-form-kit").ToolCalls[0].Kind = "ordinary" // graph_stats is in madar's MCP allowlist, not among the ordinary tools
			return rs
		})
	}, want: []rules.Code{rules.CodeProviderToolNotAllowed}, class: map[string]tables.Classification{"setup-madar-form-kit": tables.ClassInvalid}},
	{name: "a system comparison with a development task is not the contract's design", mut: func(t *testing.T, f fstest.MapFS) {
		sysManifest(t, f, func(m *tables.Manifest) { m.Design.Tasks[0].Split = "development" })
	}, want: []rules.Code{rules.CodeSystemDesignMismatch}},
}

func init() { systemCases = append(systemCases, providerCases...) }

// sysManifest edits the example's manifest.
func sysManifest(t *testing.T, f fstest.MapFS, edit func(*tables.Manifest)) {
	t.Helper()
	var m tables.Manifest
	if err := json.Unmarshal(f["manifest.json"].Data, &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	f["manifest.json"] = &fstest.MapFile{Data: data}
}

// TestProviderFindingsOtherKinds: a provider pin on a paired review is
// refused, one finding per arm at its position.
func TestProviderFindingsOtherKinds(t *testing.T) {
	p := &tables.Provider{Name: "native"}
	m := &tables.Manifest{Kind: rules.KindPairedReview, Design: tables.Design{Arms: []tables.Arm{{ID: "A"}, {ID: "B", Provider: p}}}}
	got := ProviderFindings(m)
	if len(got) != 1 || got[0].Code != rules.CodeProviderUnexpected || got[0].Pointer != "/design/arms/1/provider" {
		t.Fatalf("findings %v, want one provider_unexpected at /design/arms/1/provider", got)
	}
}

// TestSystemDesignCounts: the contract's design gives no finding; each
// count off by one gives its own finding (by hand: 7 tasks in 3
// repositories make both the task count and the 2-per-repository
// balance wrong).
func TestSystemDesignCounts(t *testing.T) {
	base := func() *tables.Manifest {
		m := &tables.Manifest{Kind: rules.KindSystemComparison, GatePolicy: tables.GatePolicy{Preset: string(rules.PresetSystemComparison)}}
		m.Design.Repetitions = 2
		m.Ceilings.Campaign.PlannedSessions = 72
		for _, role := range []string{tables.ComparatorBaseline, tables.ComparatorCandidate, tables.ComparatorComparator} {
			m.Design.Arms = append(m.Design.Arms, tables.Arm{ID: role, ComparatorRole: role})
		}
		for i, repo := range []string{"r1", "r1", "r2", "r2", "r3", "r3"} {
			m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: string(rune('a' + i)), Repository: repo, Split: "evaluation"})
		}
		return m
	}
	if got := systemDesignFindings(base()); len(got) != 0 {
		t.Fatalf("the contract's design: %v", got)
	}
	for _, tc := range []struct {
		name string
		edit func(*tables.Manifest)
		n    int
	}{
		{"three repetitions", func(m *tables.Manifest) { m.Design.Repetitions = 3 }, 1},
		{"73 planned sessions", func(m *tables.Manifest) { m.Ceilings.Campaign.PlannedSessions = 73 }, 1},
		{"a seventh task", func(m *tables.Manifest) {
			m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: "g", Repository: "r3", Split: "evaluation"})
		}, 2},
		{"two systems", func(m *tables.Manifest) { m.Design.Arms = m.Design.Arms[:2] }, 1},
		{"three tasks in one repository", func(m *tables.Manifest) { m.Design.Tasks[2].Repository = "r1" }, 1},
		{"another preset judges another design", func(m *tables.Manifest) {
			m.GatePolicy.Preset = "my-own"
			m.Design.Repetitions = 5
		}, 0},
		{"a custom policy may run another design", func(m *tables.Manifest) {
			m.GatePolicy.Custom = "pilot"
			m.Design.Repetitions = 5
		}, 0},
	} {
		m := base()
		tc.edit(m)
		if got := systemDesignFindings(m); len(got) != tc.n {
			t.Errorf("%s: %d findings %v, want %d", tc.name, len(got), got, tc.n)
		}
	}
}
