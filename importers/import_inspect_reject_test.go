package importers

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Each case breaks exactly one rule of the log reader.
func TestReadInspectLogRejects(t *testing.T) {
	sample := func(id, epoch, extra string) string {
		return `{"id":` + id + `,"epoch":` + epoch + `,"model_usage":` + okUsage + extra + `}`
	}
	cases := []struct {
		name, log string
		code      rules.Code
		pointer   string
	}{
		{"not json", `hello`, rules.CodeInspectLogMalformed, ""},
		{"array", `[1]`, rules.CodeInspectLogMalformed, ""},
		{"empty", ``, rules.CodeInspectLogMalformed, ""},
		{"truncated", `{"eval":`, rules.CodeJSONSyntax, "/eval"},
		{"duplicate key", `{"eval":{},"eval":{}}`, rules.CodeDuplicateKey, "/eval"},
		{"no eval", `{"status":"success"}`, rules.CodeInspectLogMalformed, "/eval/model"},
		{"no version", `{"eval":{"model":"openai/x","packages":{}}}`, rules.CodeInspectVersionUnknown, "/eval/packages/inspect_ai"},
		{"bad version", inspectJSON("latest", "openai/x", ""), rules.CodeInspectVersionUnknown, "/eval/packages/inspect_ai"},
		{"model not a string", `{"eval":{"model":3,"packages":{"inspect_ai":"0.3.95"}}}`, rules.CodeInspectLogMalformed, "/eval/model"},
		{"float id", inspectJSON("0.3.95", "openai/x", sample("1.5", "1", "")), rules.CodeInspectLogMalformed, "/samples/0/id"},
		{"object id", inspectJSON("0.3.95", "openai/x", sample("{}", "1", "")), rules.CodeInspectLogMalformed, "/samples/0/id"},
		{"zero epoch", inspectJSON("0.3.95", "openai/x", sample("1", "0", "")), rules.CodeInspectLogMalformed, "/samples/0/epoch"},
		{"string epoch", inspectJSON("0.3.95", "openai/x", sample("1", `"1"`, "")), rules.CodeInspectLogMalformed, "/samples/0/epoch"},
		{"bad timestamp", inspectJSON("0.3.95", "openai/x", sample("1", "1", `,"started_at":"yesterday"`)),
			rules.CodeInspectLogMalformed, "/samples/0/started_at"},
		{"time not a number", inspectJSON("0.3.95", "openai/x", sample("1", "1", `,"total_time":"1s"`)),
			rules.CodeInspectLogMalformed, "/samples/0/total_time"},
		{"usage not an object", inspectJSON("0.3.95", "openai/x", `{"id":1,"epoch":1,"model_usage":{"a/b":[1]}}`),
			rules.CodeInspectLogMalformed, "/samples/0/model_usage/a~1b"},
		{"duplicate sample", inspectJSON("0.3.95", "openai/x", sample("1", "1", "")+","+sample("1", "1", "")),
			rules.CodeInspectSampleDuplicate, "/samples/1/id"},
		{"invalid utf-8", "{\"eval\":{\"model\":\"\xff\"}}", rules.CodeInvalidUTF8, "/eval/model"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log, fs := readInspectBytes("x.json", []byte(tc.log))
			if log != nil {
				t.Fatalf("accepted, findings %v", fs)
			}
			if len(fs) != 1 || fs[0].Code != tc.code || fs[0].Pointer != tc.pointer || fs[0].Severity != rules.Reject {
				t.Fatalf("findings %+v, want one %s at %q", fs, tc.code, tc.pointer)
			}
		})
	}
}

// Warnings leave the log usable and never invent a meter.
func TestReadInspectLogWarnings(t *testing.T) {
	t.Run("unknown provider on an old version", func(t *testing.T) {
		log, fs := readInspectBytes("x.json", []byte(inspectJSON("0.3.95", "mistral/m",
			`{"id":"a","epoch":1,"model_usage":{"mistral/m":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}},`+
				`{"id":"b","epoch":1,"model_usage":{"mistral/m":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}}`)))
		if log == nil || !slices.Equal(findingCodes(fs), []rules.Code{rules.CodeInspectProviderUnknown}) {
			t.Fatalf("log %v findings %v", log, fs)
		}
		if log.Samples[0].Usage[0].Shape != "" || log.Samples[1].Usage[0].Shape != "" {
			t.Errorf("a shape was guessed: %+v", log.Samples)
		}
	})
	t.Run("new version any provider exclusive", func(t *testing.T) {
		log, fs := readInspectBytes("x.json", []byte(inspectJSON("0.3.190", "mistral/m",
			`{"id":"a","epoch":1,"model_usage":{"mistral/m":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}}`)))
		if log == nil || len(fs) != 0 || log.Samples[0].Usage[0].Shape != tables.ShapeInspect {
			t.Fatalf("log %+v findings %v", log, fs)
		}
	})
	t.Run("samples sorted integers then strings", func(t *testing.T) {
		s := func(id, epoch string) string {
			return `{"id":` + id + `,"epoch":` + epoch + `,"model_usage":` + okUsage + `}`
		}
		log, fs := readInspectBytes("x.json", []byte(inspectJSON("0.3.95", "openai/x",
			strings.Join([]string{s(`"b"`, "1"), s("10", "1"), s("2", "2"), s("2", "1"), s(`"a"`, "1")}, ","))))
		if log == nil {
			t.Fatal(fs)
		}
		var got []string
		for _, x := range log.Samples {
			got = append(got, string(x.ID)+"/"+string(rune('0'+x.Epoch)))
		}
		want := []string{"2/1", "2/2", "10/1", `"a"/1`, `"b"/1`}
		if !slices.Equal(got, want) {
			t.Errorf("order %v, want %v", got, want)
		}
	})
}

func TestReadInspectEvalArchive(t *testing.T) {
	sample := `{"id":1,"epoch":1,"model_usage":` + okUsage + `}`
	t.Run("journal only", func(t *testing.T) {
		log, fs := readInspectBytes("x.eval", zipOf(t, "_journal/start.json", evalHeader, "samples/1_epoch_1.json", sample))
		if log == nil || log.Layout != InspectLayoutJournal || log.Status != "" || len(log.Samples) != 1 ||
			!slices.Equal(findingCodes(fs), []rules.Code{rules.CodeInspectLogIncomplete}) {
			t.Fatalf("log %+v findings %v", log, fs)
		}
	})
	t.Run("real log without its header", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(inspectTestdata, "mmlu-summary-choices.eval"))
		if err != nil {
			t.Fatal(err)
		}
		zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		var members []string
		for _, f := range zr.File {
			if f.Name == evalHeaderMember {
				continue
			}
			rc, _ := f.Open()
			var b bytes.Buffer
			b.ReadFrom(rc)
			members = append(members, f.Name, b.String())
		}
		log, fs := readInspectBytes("x.eval", zipOf(t, members...))
		if log == nil || log.Layout != InspectLayoutJournal || log.InspectVersion != "0.3.154.dev44+g32a84c8fe.d20251213" || len(log.Samples) != 1 {
			t.Fatalf("log %+v findings %v", log, fs)
		}
	})
	rejects := []struct {
		name    string
		archive []byte
		code    rules.Code
		file    string
	}{
		{"no header", zipOf(t, "samples/1_epoch_1.json", sample), rules.CodeInspectLogMalformed, "x.eval"},
		{"duplicate member", zipOf(t, "header.json", evalHeader, "header.json", evalHeader), rules.CodeInspectLogMalformed, "x.eval"},
		{"bad sample member", zipOf(t, "header.json", evalHeader, "samples/1_epoch_1.json", `[]`),
			rules.CodeInspectLogMalformed, "x.eval/samples/1_epoch_1.json"},
		{"duplicate sample across members", zipOf(t, "header.json", evalHeader, "samples/a.json", sample, "samples/b.json", sample),
			rules.CodeInspectSampleDuplicate, "x.eval/samples/b.json"},
		{"truncated zip", zipOf(t, "header.json", evalHeader)[:30], rules.CodeInspectLogMalformed, "x.eval"},
		// 65 MiB of zeros deflate to ~64 KiB: the member cap refuses it.
		{"zip bomb", zipOf(t, "header.json", evalHeader, "samples/1.json", strings.Repeat("\x00", maxInspectMemberBytes+1)),
			rules.CodeTooLarge, "x.eval/samples/1.json"},
	}
	for _, tc := range rejects {
		t.Run(tc.name, func(t *testing.T) {
			log, fs := readInspectBytes("x.eval", tc.archive)
			if log != nil || len(fs) != 1 || fs[0].Code != tc.code || fs[0].File != tc.file {
				t.Fatalf("log %v findings %+v, want one %s in %s", log, fs, tc.code, tc.file)
			}
		})
	}
}
