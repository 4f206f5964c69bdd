package tables

import "testing"

// TestRenderFraming checks the documented rule on bytes written out by
// hand: instructions verbatim, schemas and data blocks framed with their
// byte count, parts in the order given.
func TestRenderFraming(t *testing.T) {
	r := Render([]RenderPart{
		{Kind: PartCommon, ID: "common", Data: []byte("C.\n")},
		{Kind: PartRole, ID: "review-b", Data: []byte("B.\n")},
		{Kind: PartFinalAnswerSchema, ID: "final", Data: []byte("{}")},
		{Kind: PartReconciliationSchema, ID: "rec", Data: []byte("{}\n")},
		{Kind: PartKindData, ID: BlockTask, Data: []byte("t")},
		{Kind: PartKindData, ID: BlockEvidencePacket, Data: []byte("=== END TASK ===\n")},
		{Kind: PartKindData, ID: BlockCommonDraft, Data: nil},
	})
	want := "C.\nB.\n" +
		"\n=== BEGIN FINAL_ANSWER_SCHEMA (2 bytes) ===\n{}\n=== END FINAL_ANSWER_SCHEMA ===\n" +
		"\n=== BEGIN RECONCILIATION_SCHEMA (3 bytes) ===\n{}\n\n=== END RECONCILIATION_SCHEMA ===\n" +
		"\n=== BEGIN TASK (1 bytes) ===\nt\n=== END TASK ===\n" +
		"\n=== BEGIN EVIDENCE_PACKET (17 bytes) ===\n=== END TASK ===\n\n=== END EVIDENCE_PACKET ===\n" +
		"\n=== BEGIN COMMON_DRAFT (0 bytes) ===\n\n=== END COMMON_DRAFT ===\n"
	if string(r.Data) != want {
		t.Fatalf("rendered\n%q\nwant\n%q", r.Data, want)
	}
	if r.Bytes != int64(len(want)) || r.SHA256 != SHA256Hex([]byte(want)) || r.Rule != "evalgate.render/v1" {
		t.Errorf("total %d %s %s", r.Bytes, r.SHA256, r.Rule)
	}
	var sum int64
	for _, p := range r.Parts {
		sum += p.RenderedBytes
	}
	if sum != r.Bytes {
		t.Errorf("parts occupy %d bytes, the rendering %d", sum, r.Bytes)
	}
	// "\n=== BEGIN TASK (1 bytes) ===\n" is 1+28+1 = 30 bytes, "\n=== END TASK ===\n" 1+16+1 = 18.
	if p := r.Parts[4]; p.Bytes != 1 || p.RenderedBytes != 30+1+18 || p.SHA256 != SHA256Hex([]byte("t")) {
		t.Errorf("TASK part %+v", p)
	}
	if p := r.Parts[0]; p.RenderedBytes != 3 {
		t.Errorf("an instruction is verbatim: %+v", p)
	}
}

func TestRenderNothing(t *testing.T) {
	r := Render(nil)
	if r.Bytes != 0 || r.SHA256 != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("empty rendering %+v", r)
	}
}

// TestFrameLen: FrameLen counts exactly the bytes of a part's head and
// tail, for byte counts of every number of digits and for every kind.
func TestFrameLen(t *testing.T) {
	kinds := []string{PartCommon, PartRole, PartInvestigator, PartFinalAnswerSchema, PartReconciliationSchema, PartKindData, "unknown"}
	for _, kind := range kinds {
		for _, n := range []int{0, 1, 9, 10, 99, 100, 12345, 1 << 20} {
			p := RenderPart{Kind: kind, ID: BlockCommonDraft, Data: make([]byte, n)}
			head, tail := AppendFrameHead(nil, p), AppendFrameTail(nil, p)
			if got := FrameLen(p); got != len(head)+len(tail) {
				t.Errorf("%s, %d bytes: FrameLen %d, head %q and tail %q", kind, n, got, head, tail)
			}
			if r := Render([]RenderPart{p}); r.Parts[0].RenderedBytes != int64(FrameLen(p)+n) {
				t.Errorf("%s, %d bytes: rendered %d bytes", kind, n, r.Parts[0].RenderedBytes)
			}
		}
	}
}
