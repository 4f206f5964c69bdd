package stages_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// editLog returns the real security-guide log with edit applied to its
// decoded document.
func editLog(t *testing.T, edit func(doc map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(inspectLogs, "2025-05-12T20-28-26-04-00_security-guide.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sample(doc map[string]any, i int) map[string]any {
	return doc["samples"].([]any)[i].(map[string]any)
}

// TestImportInspectErrorsAndTimes: a sample that failed is an error
// receipt of the class its mapping gives, without an answer; an unmapped
// error refuses the import; a sample without any time of its own, or
// whose own ID cannot be a request ID, refuses it too.
func TestImportInspectErrorsAndTimes(t *testing.T) {
	raw := readRawLog(t, filepath.Join(inspectLogs, "2025-05-12T20-28-26-04-00_security-guide.json"))
	man := initCampaign(t, gpt4oMini)
	run := func(m *tables.ImportMap, data []byte) ([]tables.Receipt, rules.Findings) {
		plan, fs := stages.Import(tables.SourceInspect, stages.ImportCampaign{Manifest: man}, m, "map.json",
			[]stages.ImportSource{{Name: "log.json", Data: data}})
		var rs []tables.Receipt
		for _, line := range bytes.Split(bytes.TrimSpace(plan.Receipts), []byte("\n")) {
			var r tables.Receipt
			if len(line) > 0 && jsonUnmarshalReceipt(line, &r) == nil {
				rs = append(rs, r)
			}
		}
		return rs, fs
	}
	has := func(fs rules.Findings, code rules.Code) bool {
		return slices.ContainsFunc(fs, func(f rules.Finding) bool { return f.Code == code })
	}

	failed := editLog(t, func(doc map[string]any) {
		sample(doc, 0)["error"] = map[string]any{"message": "RuntimeError: sandbox died", "traceback": "..."}
		sample(doc, 1)["limit"] = map[string]any{"type": "token", "limit": 1000}
	})
	m := inspectMap(raw, "E")
	m.ErrorClasses = []tables.ImportErrorClass{{SourceError: "error", Class: tables.ErrorPlatformOutage}, {SourceError: "limit:token", Class: tables.ErrorBudgetExhausted}}
	rs, fs := run(m, failed)
	if fs.Rejected() || len(rs) != 3 {
		t.Fatalf("%d receipts, %v", len(rs), fs)
	}
	if rs[0].Status != tables.StatusError || *rs[0].ErrorClass != tables.ErrorPlatformOutage || rs[0].Output != nil ||
		rs[1].Status != tables.StatusError || *rs[1].ErrorClass != tables.ErrorBudgetExhausted || rs[2].Status != tables.StatusResponse {
		t.Errorf("receipts %+v", rs)
	}
	m.ErrorClasses = m.ErrorClasses[:1]
	if _, fs := run(m, failed); !has(fs, rules.CodeImportErrorUnmapped) {
		t.Errorf("unmapped limit: %v", fs)
	}

	timeless := editLog(t, func(doc map[string]any) {
		delete(sample(doc, 0), "events")
	})
	if _, fs := run(inspectMap(raw, "E"), timeless); !has(fs, rules.CodeImportTimeMissing) {
		t.Errorf("no time: %v", fs)
	}
	badID := editLog(t, func(doc map[string]any) {
		sample(doc, 0)["uuid"] = "not an identifier"
	})
	if _, fs := run(inspectMap(raw, "E"), badID); !has(fs, rules.CodeImportIDInvalid) {
		t.Errorf("bad id: %v", fs)
	}
	// The log's first event time is its sample's start when the sample
	// records none, converted to UTC.
	rs, _ = run(inspectMap(raw, "E"), editLog(t, func(map[string]any) {}))
	if got := rs[0].StartedAt.Format("2006-01-02T15:04:05.000000Z07:00"); !strings.HasPrefix(got, "2025-05-13T00:28:26.845209Z") {
		t.Errorf("started_at %s, want the first event's 2025-05-12T20:28:26.845209-04:00 in UTC", got)
	}
}
