package stages_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// TestPreviewAndImportOneVerdict: `import inspect LOG` (the preview,
// CheckInspectLog) and `import inspect LOG --into DIR --map MAP` give every
// real log one verdict. A log the preview refuses, the import refuses with
// exactly the same findings; a log it accepts, the import accepts, and
// every preview finding is among the import's, which adds only what the
// mapping and the campaign decide (no host given, sessions without a
// meter, no returned model). The mapping names every record, as a user's
// does.
func TestPreviewAndImportOneVerdict(t *testing.T) {
	entries, err := os.ReadDir(inspectLogs)
	if err != nil {
		t.Fatal(err)
	}
	mappingOnly := []rules.Code{rules.CodeImportNoHost, rules.CodeImportNoMeter, rules.CodeImportNoReturnedModel}
	logs, refused := 0, 0
	for i, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".eval") {
			continue
		}
		logs++
		path := filepath.Join(inspectLogs, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		_, _, preview := stages.CheckInspectLog(name, bytes.NewReader(data), int64(len(data)), hex.EncodeToString(sum[:]), false)
		_, imported := stages.Import(tables.SourceInspect, stages.ImportCampaign{Manifest: initCampaign(t, gpt4oMini)},
			inspectMap(readRawLog(t, path), fmt.Sprint("L", i)), "map.json", []stages.ImportSource{{Name: name, Data: data}})
		if preview.Rejected() != imported.Rejected() {
			t.Errorf("%s: the preview rejects %v, the import %v:\npreview %v\nimport %v", name, preview.Rejected(), imported.Rejected(), preview, imported)
			continue
		}
		if preview.Rejected() {
			refused++
			if !slices.Equal(preview, imported) {
				t.Errorf("%s: refused with other findings:\npreview %v\nimport  %v", name, preview, imported)
			}
			continue
		}
		for _, f := range preview {
			if !slices.Contains(imported, f) {
				t.Errorf("%s: the preview's %v is not among the import's %v", name, f, imported)
			}
		}
		for _, f := range imported {
			if !slices.Contains(preview, f) && !slices.Contains(mappingOnly, f.Code) {
				t.Errorf("%s: the import adds %v, which is no finding of the mapping or campaign", name, f)
			}
		}
	}
	// Independently of the readers: 14 logs, of which three hold usage
	// no sample does (no-samples.json, log_formats.json and .eval).
	if logs != 14 || refused != 3 {
		t.Errorf("%d logs, %d refused; want 14 and 3", logs, refused)
	}
}
