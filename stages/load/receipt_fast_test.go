package load

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/evalgate/evalgate/tables"
)

// receiptSameAsGeneric decodes line by the fast path and by the generic
// pass: the fast path accepts only what the generic pass accepts with no
// finding, and then decodes the same value. It reports whether the fast
// path accepted line.
func receiptSameAsGeneric(t *testing.T, line []byte) bool {
	t.Helper()
	var fast tables.Receipt
	ok := receiptFast(line, &fast, newInterner(0))
	var generic tables.Receipt
	gok, findings := decodeStreamTo(line, "receipt", position{file: "receipts.jsonl", line: 1}, &generic, nil, newInterner(0), true)
	if !ok {
		return false
	}
	if !gok || len(findings) != 0 {
		t.Fatalf("the fast path accepted a receipt the generic pass refuses (%v): %q", findings, line)
	}
	if !reflect.DeepEqual(fast, generic) {
		t.Fatalf("the fast path decoded %+v, the generic pass %+v, from %q", fast, generic, line)
	}
	return true
}

// receiptCorpus is every line of every receipts.jsonl of the
// repository's tests and examples.
func receiptCorpus(t testing.TB) [][]byte {
	var out [][]byte
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.Name() != "receipts.jsonl" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			if len(line) > 0 {
				out = append(out, line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("only %d receipts found", len(out))
	}
	return out
}

func TestReceiptFastAgreesWithGeneric(t *testing.T) {
	accepted, corpus := 0, receiptCorpus(t)
	for _, line := range corpus {
		if receiptSameAsGeneric(t, line) {
			accepted++
		}
	}
	if accepted < len(corpus)*9/10 {
		t.Errorf("the fast path accepted %d of %d receipts; most are clean", accepted, len(corpus))
	}
}

// cleanReceipt is a receipt with every member, optional ones included.
const cleanReceipt = `{"format":"evalgate.receipt/v1","session_id":"T7-r1-A","request_id":"req_6081","attempt":1,"task_id":"T7","repetition":1,"role":"review","arm":"A","started_at":"2026-10-01T08:00:03.789Z","ended_at":"2026-10-01T08:01:00Z","monotonic_start_ns":7415882500000,"monotonic_end_ns":-7473032500000,"status":"response","error_class":null,` +
	`"identity":{"returned_model":"gpt-5","cli_sha256":"","permission_policy":"read-only","host":"h1"},` +
	`"inputs":{"task_sha256":"13856f16cda48c865fa4949da4e60e9118dca571aae0d685fc45eb0bcb7a1b5f","packet_sha256":"","prompt_ids":["common","review-a"],"prompt_sha256s":["eecf5c8c41723b93f6d66343970532e0089f7cbf3173444446e684fb818053fb"],"response_schema_sha256":"7696311fa04a255e7e5a4ad9e6549bebcdd32bb1c313548529140589e0549876","draft_session_id":"T7-r1-D","rendered_sha256":"a8aa126370a70eba0d17550361300a9b12bc2c92fb66a726d8612486e0cee9f7","rendered_bytes":13171,"data_blocks":[{"label":"TASK","sha256":"13856f16cda48c865fa4949da4e60e9118dca571aae0d685fc45eb0bcb7a1b5f","bytes":287}]},` +
	`"output":{"path":"answers/T7-r1-A.json","sha256":"ae908087440e8b3ead16d6e525f8cb633340ef4abc3c7148b8018aedc9802c8f","bytes":5043},` +
	`"meter":{"shape":"openai.responses","rate_card":"card-1","usage":{"input_tokens":3393,"input_tokens_details":{"cached_tokens":0},"output_tokens":2127}},` +
	`"tool_calls":[{"kind":"mcp","name":"search","input_tokens":3,"output_tokens":4,"charge":"0.01"},{"kind":"ordinary","name":"read","input_tokens":0,"output_tokens":0,"charge":null}],` +
	`"reservation":{"id":"res-T7","input_tokens":5000,"output_tokens":8000,"cost":"0.18"},"billing":{"basis":"actual","actual_charge":"0.125"},"validation_ms":27,` +
	`"observations":{"path":"obs/T7.json","sha256":"ae908087440e8b3ead16d6e525f8cb633340ef4abc3c7148b8018aedc9802c8f","bytes":1},` +
	`"recorded_input":{"path":"in/T7.txt","sha256":"ae908087440e8b3ead16d6e525f8cb633340ef4abc3c7148b8018aedc9802c8f","bytes":0}}`

// TestReceiptFastCases: each rule's edges, taken from a clean receipt,
// agree with the generic pass.
func TestReceiptFastCases(t *testing.T) {
	if !receiptSameAsGeneric(t, []byte(cleanReceipt)) {
		t.Fatal("the clean receipt was refused")
	}
	sha := "ae908087440e8b3ead16d6e525f8cb633340ef4abc3c7148b8018aedc9802c8f"
	edits := [][2]string{
		{`"T7-r1-A"`, `"-T7"`}, {`"T7-r1-A"`, `"T7\/r1"`}, {`"T7-r1-A"`, `"` + strings.Repeat("a", 65) + `"`}, {`"T7-r1-A"`, `"` + strings.Repeat("a", 64) + `"`},
		{`"attempt":1`, `"attempt":0`}, {`"attempt":1`, `"attempt":2`}, {`"attempt":1`, `"attempt":1.0`}, {`"attempt":1`, `"attempt":-1`},
		{`"repetition":1`, `"repetition":0`}, {`"repetition":1`, `"repetition":01`}, {`"repetition":1`, `"repetition":9007199254740991`}, {`"repetition":1`, `"repetition":9007199254740992`},
		{`"review"`, `"remote_execution"`}, {`"review"`, `"Review"`}, {`"arm":"A"`, `"arm":null`}, {`"arm":"A"`, `"arm":""`}, {`"arm":"A"`, `"arm":1`},
		{`08:00:03.789Z`, `08:00:03Z`}, {`08:00:03.789Z`, `08:00:03+00:00`}, {`08:00:03.789Z`, `24:00:03Z`}, {`"ended_at":"2026-10-01T08:01:00Z"`, `"ended_at":null`}, {`2026-10-01T08:01`, `2026-02-30T08:01`},
		{`7415882500000`, `null`}, {`7415882500000`, `0`}, {`7415882500000`, `-0`}, {`7415882500000`, `999999999999999999`}, {`7415882500000`, `9223372036854775807`}, {`7415882500000`, `9223372036854775808`}, {`7415882500000`, `1e3`}, {`-7473032500000`, `- 7473032500000`},
		{`"status":"response"`, `"status":"error"`}, {`"error_class":null`, `"error_class":"refused"`}, {`"error_class":null`, `"error_class":"other"`},
		{`"cli_sha256":""`, `"cli_sha256":"` + sha + `"`}, {`"cli_sha256":""`, `"cli_sha256":"` + strings.ToUpper(sha) + `"`}, {`"cli_sha256":""`, `"cli_sha256":"abc"`},
		{`,"host":"h1"`, ``}, {`"host":"h1"`, `"host":""`}, {`"returned_model":"gpt-5"`, `"returned_model":""`}, {`"returned_model":"gpt-5"`, `"returned_model":"gpt\n5"`}, {`"returned_model":"gpt-5"`, `"returned_model":"gpt-5é"`},
		{`"permission_policy":"read-only",`, ``}, {`"host":"h1"`, `"host":"h1","extra":1`},
		{`"prompt_ids":["common","review-a"]`, `"prompt_ids":[]`}, {`"prompt_ids":["common","review-a"]`, `"prompt_ids":["common","common"]`}, {`"prompt_ids":["common","review-a"]`, `"prompt_ids":["common",null]`},
		{`"prompt_sha256s":["eecf`, `"prompt_sha256s":["` + sha + `","eecf`}, {`"prompt_sha256s":["eecf`, `"prompt_sha256s":["","eecf`},
		{`"draft_session_id":"T7-r1-D"`, `"draft_session_id":null`}, {`"rendered_sha256":"a8aa`, `"rendered_sha256":"A8aa`},
		{`,"data_blocks":[{"label":"TASK","sha256":"13856f16cda48c865fa4949da4e60e9118dca571aae0d685fc45eb0bcb7a1b5f","bytes":287}]`, ``},
		{`"data_blocks":[{"label":"TASK","sha256":"13856f16cda48c865fa4949da4e60e9118dca571aae0d685fc45eb0bcb7a1b5f","bytes":287}]`, `"data_blocks":[]`},
		{`"label":"TASK"`, `"label":"COMMON_DRAFT"`}, {`"label":"TASK"`, `"label":"OTHER"`},
		{`"path":"answers/T7-r1-A.json"`, `"path":"/answers"`}, {`"path":"answers/T7-r1-A.json"`, `"path":"a/../b"`}, {`"path":"answers/T7-r1-A.json"`, `"path":""`}, {`"path":"answers/T7-r1-A.json"`, `"path":"a//b"`},
		{`"output":{"path":"answers/T7-r1-A.json","sha256":"ae908087440e8b3ead16d6e525f8cb633340ef4abc3c7148b8018aedc9802c8f","bytes":5043}`, `"output":null`},
		{`"meter":{"shape":"openai.responses","rate_card":"card-1","usage":{"input_tokens":3393,"input_tokens_details":{"cached_tokens":0},"output_tokens":2127}}`, `"meter":null`},
		{`"shape":"openai.responses"`, `"shape":"openai.other"`}, {`"rate_card":"card-1"`, `"rate_card":"card 1"`},
		{`"usage":{"input_tokens":3393,`, `"usage":{}, "x":{"input_tokens":3393,`}, {`"usage":{"input_tokens":3393,`, `"usage":{ "input_tokens" : 3393 ,`},
		{`"cached_tokens":0`, `"cached_tokens":0,"cached_tokens":1`}, {`"cached_tokens":0`, `"cached_tokens":-1`}, {`"cached_tokens":0`, `"cached_tokens":1.5`}, {`"cached_tokens":0`, `"cached_tokens":"x"`}, {`"cached_tokens":0`, `"cached_tokens":{"a":{"b":{"c":{"d":1}}}}`},
		{`"usage":{"input_tokens":3393,"input_tokens_details":{"cached_tokens":0},"output_tokens":2127}`, `"usage":[]`}, {`"usage":{"input_tokens":3393,"input_tokens_details":{"cached_tokens":0},"output_tokens":2127}`, `"usage":{}`},
		{`"tool_calls":[{"kind":"mcp","name":"search","input_tokens":3,"output_tokens":4,"charge":"0.01"},{"kind":"ordinary","name":"read","input_tokens":0,"output_tokens":0,"charge":null}]`, `"tool_calls":[]`},
		{`"kind":"mcp"`, `"kind":"other"`}, {`"name":"search"`, `"name":""`}, {`"name":"search"`, `"name":"` + strings.Repeat("é", 1100) + `"`}, {`"name":"search"`, `"name":"` + strings.Repeat("x", 2049) + `"`},
		{`"charge":"0.01"`, `"charge":"0.0100000000001"`}, {`"charge":"0.01"`, `"charge":"01"`}, {`"charge":"0.01"`, `"charge":"1."`}, {`"charge":"0.01"`, `"charge":"99999999999999999999"`}, {`"charge":"0.01"`, `"charge":0.01`},
		{`"reservation":{"id":"res-T7","input_tokens":5000,"output_tokens":8000,"cost":"0.18"}`, `"reservation":null`}, {`"cost":"0.18"`, `"cost":"-0.18"`}, {`"id":"res-T7"`, `"id":"res T7"`},
		{`"basis":"actual"`, `"basis":"unavailable"`}, {`"basis":"actual"`, `"basis":"guess"`}, {`"actual_charge":"0.125"`, `"actual_charge":null`}, {`"actual_charge":"0.125"`, `"actual_charge":"1e2"`},
		{`"validation_ms":27`, `"validation_ms":27,"validation_ms":27`}, {`"validation_ms":27`, `"validation_ms":27,"extra":1`}, {`"validation_ms":27,`, ``},
		{`,"observations":{"path":"obs/T7.json","sha256":"ae908087440e8b3ead16d6e525f8cb633340ef4abc3c7148b8018aedc9802c8f","bytes":1}`, ``},
		{`,"recorded_input":{"path":"in/T7.txt","sha256":"ae908087440e8b3ead16d6e525f8cb633340ef4abc3c7148b8018aedc9802c8f","bytes":0}`, ``},
		{`"recorded_input":{"path":"in/T7.txt",`, `"recorded_input":null,"x":{"path":"in/T7.txt",`},
		{`"evalgate.receipt/v1"`, `"evalgate.receipt/v2"`}, {`"format"`, `"form\u0061t"`}, {`{"format"`, ` { "format" `}, {`"bytes":0}}`, `"bytes":0}} `},
		{`"bytes":0}}`, `"bytes":0},"settings":{"temperature":"1","top_p":"0.95","max_output_tokens":6000,"reasoning_effort":"high","seed":7}}`},
		{`"bytes":0}}`, `"bytes":0},"settings":{}}`}, {`"bytes":0}}`, `"bytes":0},"settings":{"temperature":1}}`}, {`"bytes":0}}`, `"bytes":0},"settings":{"temperature":"-1"}}`},
		{`"bytes":0}}`, `"bytes":0},"settings":{"reasoning_effort":""}}`}, {`"bytes":0}}`, `"bytes":0},"settings":{"reasoning_effort":"` + strings.Repeat("é", 40) + `"}}`},
		{`"bytes":0}}`, `"bytes":0},"settings":{"seed":-1,"extra":1}}`}, {`"bytes":0}}`, `"bytes":0},"settings":null}`},
		{`"host":"h1"`, `"host":"h1","reasoning_effort":"medium"`}, {`"host":"h1"`, `"host":"h1","reasoning_effort":""`},
		{`"bytes":0}}`, `"bytes":0}}x`}, {`"bytes":0}}`, `"bytes":0}}{}`}, {`"req_6081"`, `"req_6081\u0000"`}, {`"error_class":null`, `"error_class":nul`},
	}
	for _, e := range edits {
		line := strings.Replace(cleanReceipt, e[0], e[1], 1)
		if line == cleanReceipt {
			t.Fatalf("edit %q does not apply", e)
		}
		receiptSameAsGeneric(t, []byte(line))
	}
	many := func(n int, item string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = strings.ReplaceAll(item, "N", strconv.Itoa(i+1))
		}
		return strings.Join(items, ",")
	}
	block := `{"label":"TASK","sha256":"13856f16cda48c865fa4949da4e60e9118dca571aae0d685fc45eb0bcb7a1b5f","bytes":287}`
	for _, n := range []int{0, maxDataBlocks, maxDataBlocks + 1} {
		line := strings.Replace(cleanReceipt, block, many(n, block), 1)
		if got, want := receiptSameAsGeneric(t, []byte(line)), n <= maxDataBlocks; got != want {
			t.Errorf("%d data blocks: fast path %v, want %v", n, got, want)
		}
	}
	for _, n := range []int{maxUsageMembers, maxUsageMembers + 1} {
		line := strings.Replace(cleanReceipt, `"cached_tokens":0`, many(n, `"kN":N`), 1)
		if got, want := receiptSameAsGeneric(t, []byte(line)), n <= maxUsageMembers; got != want {
			t.Errorf("%d usage members: fast path %v, want %v", n, got, want)
		}
	}
}

// TestReceiptFastShares: the fast path shares the values of the fields
// tagged intern across receipts, as the generic pass does.
func TestReceiptFastShares(t *testing.T) {
	in := newInterner(0)
	var a, b tables.Receipt
	if !receiptFast([]byte(cleanReceipt), &a, in) || !receiptFast([]byte(cleanReceipt), &b, in) {
		t.Fatal("the clean receipt was refused")
	}
	if a.Arm != b.Arm || &a.Inputs.PromptIDs[0] != &b.Inputs.PromptIDs[0] || &a.Inputs.DataBlocks[0] != &b.Inputs.DataBlocks[0] ||
		unsafeData(a.TaskID) != unsafeData(b.TaskID) || unsafeData(a.Identity.ReturnedModel) != unsafeData(b.Identity.ReturnedModel) {
		t.Error("two equal receipts share no values")
	}
	if a.Billing.ActualCharge == b.Billing.ActualCharge {
		t.Error("a field not tagged intern is shared")
	}
}

func FuzzReceiptFast(f *testing.F) {
	corpus := receiptCorpus(f)
	for i := 0; i < len(corpus); i += max(1, len(corpus)/40) {
		f.Add(corpus[i])
	}
	f.Add([]byte(cleanReceipt))
	f.Fuzz(func(t *testing.T, line []byte) { receiptSameAsGeneric(t, line) })
}

// TestReceiptFastSchema: the shape receiptFast reads is the published
// receipt schema's: each record's members in order, which are required,
// no other, each value's rule, the list caps and enumerations.
func TestReceiptFastSchema(t *testing.T) {
	s := schemaFor("receipt")
	var describe func(r *rule) string
	describe = func(r *rule) string {
		switch {
		case r.ref != "" && r.check != nil:
			return r.ref
		case r.ref != "":
			return describe(s.defs[r.ref])
		case r.nullable != nil:
			return "null|" + describe(r.nullable)
		case r.constant != nil:
			return "const " + *r.constant
		case r.enum != nil:
			return "enum " + strings.Join(r.enum, ",")
		case slices.Equal(r.types, []string{"string"}) && r.pattern == nil:
			return "string " + strconv.Itoa(r.minLength) + ".." + strconv.Itoa(r.maxLength)
		case slices.Equal(r.types, []string{"integer"}) && r.minimum != nil && r.maximum != nil && r.pattern == nil:
			return "integer " + r.minimum.String() + ".." + r.maximum.String()
		case slices.Equal(r.types, []string{"array"}) && r.minItems == 0 && !r.uniqueItems:
			return "array max " + strconv.Itoa(r.maxItems) + " of " + describe(r.items)
		case slices.Equal(r.types, []string{"object"}) && len(r.props) == 0 && !r.closed:
			return "any object"
		case slices.Equal(r.types, []string{"object"}) && r.closed:
			var names []string
			for i, p := range r.props {
				if (p.required >= 0) != (i < len(r.required)) {
					return "object whose required members are not first"
				}
				opt := ""
				if p.required < 0 {
					opt = "?"
				}
				names = append(names, p.name+opt+": "+describe(p.rule))
			}
			return "{" + strings.Join(names, "; ") + "}"
		}
		return "unknown rule"
	}
	obj := func(names []string, required int, values ...string) string {
		if len(names) != len(values) {
			t.Fatalf("%v: %d values", names, len(values))
		}
		var out []string
		for i := range names {
			opt := ""
			if i >= required {
				opt = "?"
			}
			out = append(out, names[i]+opt+": "+values[i])
		}
		return "{" + strings.Join(out, "; ") + "}"
	}
	enum := func(values []string) string { return "enum " + strings.Join(values, ",") }
	count, ints, str := "integer 0..9007199254740991", "integer -9223372036854775808..9223372036854775807", "string 0..-1"
	output := obj(outputMembers, 3, "path", "sha256", count)
	want := obj(receiptMembers, 22, "const "+tables.FormatReceipt, "identifier", "identifier", "integer 1..9007199254740991", "identifier", count,
		enum(receiptRoles), "null|identifier", "timestamp", "null|timestamp", "null|"+ints, "null|"+ints, enum(receiptStatuses), "null|"+enum(errorClasses),
		obj(identityMembers, 3, str, "sha256OrEmpty", str, "string 1..-1", "string 1.."+strconv.Itoa(maxEffort)),
		obj(inputsMembers, 8, "sha256OrEmpty", "sha256OrEmpty", "array max -1 of identifier", "array max -1 of sha256", "sha256OrEmpty", "null|identifier", "sha256OrEmpty", count,
			"array max "+strconv.Itoa(maxDataBlocks)+" of "+obj(dataBlockMembers, 3, enum(blockLabels), "sha256", count)),
		"null|"+output,
		"null|"+obj(meterMembers, 3, enum(usageShapes), "identifier", "any object"),
		"array max -1 of "+obj(toolCallMembers, 5, enum(toolKinds), "string 1.."+strconv.Itoa(maxToolName), count, count, "null|decimal"),
		"null|"+obj(reservationMembers, 4, "identifier", count, count, "decimal"),
		obj(billingMembers, 2, enum(billingBases), "null|decimal"),
		count, output, output,
		obj(settingsMembers, 0, "decimal", "decimal", count, "string 1.."+strconv.Itoa(maxEffort), count))
	if got := describe(s.root); got != want {
		t.Errorf("the published schema:\n%s\nthe fast path reads:\n%s", got, want)
	}
	if receiptRequired != 1<<22-1 || identityRequired != 1<<3-1 || inputsRequired != 1<<8-1 {
		t.Error("the required masks are not the required members")
	}
	for name, check := range map[string]specialCheck{"identifier": checkIdentifier, "timestamp": checkTimestamp, "path": checkPath} {
		if reflect.ValueOf(specialDefs[name]).Pointer() != reflect.ValueOf(check).Pointer() {
			t.Errorf("$defs %s is not checked by the rule the fast path reads", name)
		}
	}
}

func unsafeData(s string) *byte { return unsafe.StringData(s) }

// TestReceiptFastOwnValues: a receipt the fast path decoded keeps its
// values when the line's bytes are overwritten (a line lives in the
// reader's buffer) and when the same pooled decoder reads the next lines:
// its own strings and its box are its alone.
func TestReceiptFastOwnValues(t *testing.T) {
	lines := receiptCorpus(t)
	in := newInterner(0)
	var fast []tables.Receipt
	var kept [][]byte
	for _, line := range lines {
		buf := bytes.Clone(line)
		var r tables.Receipt
		if !receiptFast(buf, &r, in) {
			continue
		}
		for i := range buf {
			buf[i] = 'x'
		}
		fast, kept = append(fast, r), append(kept, line)
	}
	if len(fast) < 20 {
		t.Fatalf("only %d receipts took the fast path", len(fast))
	}
	for i, line := range kept {
		var generic tables.Receipt
		if ok, _ := decodeStreamTo(line, "receipt", position{file: "receipts.jsonl", line: 1}, &generic, nil, newInterner(0), true); !ok {
			t.Fatalf("the generic pass refused %q", line)
		}
		if !reflect.DeepEqual(fast[i], generic) {
			t.Fatalf("receipt %d changed after it was decoded: %+v, want %+v", i, fast[i], generic)
		}
	}
}
