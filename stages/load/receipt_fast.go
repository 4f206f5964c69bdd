package load

import (
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/tables"
)

// The receipt's fast path, as the rating's (adjudication_fast.go): one
// scan of a line of receipts.jsonl that decides whether it is a receipt
// the generic pass (decodeStreamTo against the published receipt schema)
// accepts without a single finding, and if so decodes it into the same Go
// value, sharing the values of the fields tagged intern through the
// interner as the generic pass shares them. It reports nothing: at the
// first byte it is not sure of (an escape, a number that is not a plain
// integer, a usage value other than a plain integer or an object of
// them, a member out of the format, a repeated member, a value a rule of
// the schema would flag) it gives up, and the line is decoded by the
// generic pass from its first byte, which finds and words every problem
// as before. FuzzReceiptFast checks the two against each other,
// TestReceiptFastSchema that the shape read here is the published
// schema's.

// The member names of the receipt format's records, in schema order, the
// required ones first (TestReceiptFastSchema checks them).
var (
	receiptMembers     = []string{"format", "session_id", "request_id", "attempt", "task_id", "repetition", "role", "arm", "started_at", "ended_at", "monotonic_start_ns", "monotonic_end_ns", "status", "error_class", "identity", "inputs", "output", "meter", "tool_calls", "reservation", "billing", "validation_ms", "observations", "recorded_input", "settings"}
	identityMembers    = []string{"returned_model", "cli_sha256", "permission_policy", "host", "reasoning_effort"}
	settingsMembers    = []string{"temperature", "top_p", "max_output_tokens", "reasoning_effort", "seed"}
	inputsMembers      = []string{"task_sha256", "packet_sha256", "prompt_ids", "prompt_sha256s", "response_schema_sha256", "draft_session_id", "rendered_sha256", "rendered_bytes", "data_blocks"}
	dataBlockMembers   = []string{"label", "sha256", "bytes"}
	outputMembers      = []string{"path", "sha256", "bytes"}
	meterMembers       = []string{"shape", "rate_card", "usage"}
	toolCallMembers    = []string{"kind", "name", "input_tokens", "output_tokens", "charge"}
	reservationMembers = []string{"id", "input_tokens", "output_tokens", "cost"}
	billingMembers     = []string{"basis", "actual_charge"}
)

// The required members of each record: the first n of its names.
const (
	receiptRequired  = 1<<22 - 1
	identityRequired = 1<<3 - 1
	inputsRequired   = 1<<8 - 1
)

// The enumerations and caps of the format (TestReceiptFastSchema checks
// them).
var (
	receiptRoles    = []string{"draft", "review", "investigation", "preparation", "adjudication", "second_opinion", "planning", "probe", "remote_execution"}
	receiptStatuses = []string{"response", "error", "interruption", "not_dispatched"}
	errorClasses    = []string{"model_timeout", "budget_exhausted", "refused", "malformed", "empty", "recorder_loss", "wrong_inputs", "undeclared_permissions", "cross_arm_leakage", "platform_outage", "upstream_draft_failed"}
	blockLabels     = []string{"TASK", "EVIDENCE_PACKET", "COMMON_DRAFT"}
	usageShapes     = []string{"normalized", "openai.responses", "openai.chat_completions", "anthropic.messages", "gemini.usage_metadata", "codex.token_count", "inspect.model_usage", "inspect.model_usage.inclusive", "inspect.model_usage.google", "inspect.model_usage.declared_hidden_output", "codex.total_token_usage", "harbor.agent_context"}
	toolKinds       = []string{"ordinary", "mcp"}
	billingBases    = []string{"reference", "actual", "unavailable"}
)

const maxDataBlocks, maxToolName = 3, 2048

// maxUsageDepth is how deep the usage objects the fast path reads nest,
// and maxUsageMembers how many members each has: deeper or wider usage
// is left to the generic pass.
const maxUsageDepth, maxUsageMembers = 4, 32

// receiptDecoder is one receipt pass's state, reused across lines.
type receiptDecoder struct {
	scanner
	in     *interner
	ids    []string
	hashes []string
	blocks []tables.BlockDigest
	calls  []tables.ToolCall
	// the slabs the copies of those lists are carved out of (slab), kept
	// across passes
	strs      slab[string]
	blockSlab slab[tables.BlockDigest]
	callSlab  slab[tables.ToolCall]
	// shared is the value nullableShared reads before it is interned.
	shared string
	// box holds the receipt's nullable values most receipts have, in one
	// allocation (receiptBox); nil until the pass needs it.
	box *receiptBox
	// own are the receipt's strings not tagged intern, as parts of the
	// line, and ownBuf their bytes: the pass ends by copying them into one
	// string of the receipt's own (setOwn).
	own    []ownString
	ownBuf []byte
	// names are the member names of the usage objects being read, by
	// depth, for the one-name-once rule.
	names [maxUsageDepth][][]byte
}

// receiptBox is one allocation of a receipt's own for the values its
// pointers most often point to (a spool's decoded row does the same, see
// package spool): a pointer to one keeps the others alive, all of them
// values of that one receipt, under 200 bytes.
type receiptBox struct {
	ended       time.Time
	start, end  int64
	meter       tables.Meter
	output      tables.OutputRef
	reservation tables.Reservation
}

// ownString is a string of the receipt being read that it keeps as its
// own: the bytes line[start:end], to be stored in *dst.
type ownString struct {
	dst        *string
	start, end int
}

var receiptDecoders = sync.Pool{New: func() any { return new(receiptDecoder) }}

// receiptFast decodes line into r (which it may leave partly set when it
// gives up) and reports whether line is a receipt the generic pass
// accepts with no finding, decoded here to the value that pass stores.
func receiptFast(line []byte, r *tables.Receipt, in *interner) bool {
	d := receiptDecoders.Get().(*receiptDecoder)
	d.d, d.i, d.in, d.box = line, 0, in, nil
	ok := d.receipt(r) && d.end()
	if ok {
		d.setOwn()
	}
	d.d, d.in, d.box = nil, nil, nil
	clearScratch(&d.own)
	if cap(d.ownBuf) > 1<<12 {
		d.ownBuf = nil
	}
	clearScratch(&d.ids)
	clearScratch(&d.hashes)
	clearScratch(&d.blocks)
	clearScratch(&d.calls)
	for k := range d.names {
		clearScratch(&d.names[k])
	}
	receiptDecoders.Put(d)
	return ok
}

// boxed is the receipt's box, allocated at the first need.
func (d *receiptDecoder) boxed() *receiptBox {
	if d.box == nil {
		d.box = new(receiptBox)
	}
	return d.box
}

// ownPart records that *dst is b, bytes of the line, as a string of the
// receipt's own, set by setOwn once the pass has read the whole receipt
// (the receipt's strings so cost one allocation). An empty b is "" now.
func (d *receiptDecoder) ownPart(dst *string, b []byte) {
	if len(b) == 0 {
		*dst = ""
		return
	}
	start := cap(d.d) - cap(b) // b is d.d[start:...]
	d.own = append(d.own, ownString{dst: dst, start: start, end: start + len(b)})
}

// setOwn copies the parts ownPart recorded into one string and stores
// each part of it where it goes.
func (d *receiptDecoder) setOwn() {
	if len(d.own) == 0 {
		return
	}
	buf := d.ownBuf[:0]
	for _, o := range d.own {
		buf = append(buf, d.d[o.start:o.end]...)
	}
	d.ownBuf = buf
	all := string(buf)
	at := 0
	for _, o := range d.own {
		n := o.end - o.start
		*o.dst = all[at : at+n]
		at += n
	}
}

func (d *receiptDecoder) receipt(r *tables.Receipt) bool {
	return d.objectOf(receiptMembers, receiptRequired, func(k int) bool {
		switch k {
		case 0:
			return d.constant(tables.FormatReceipt, &r.Format)
		case 1:
			return d.identifierOwn(&r.SessionID)
		case 2:
			return d.identifierOwn(&r.RequestID)
		case 3:
			return d.line(&r.Attempt) // integer 1..2^53-1
		case 4:
			return d.identifier(&r.TaskID, d.in)
		case 5:
			return d.count(&r.Repetition)
		case 6:
			return d.enum(&r.Role, receiptRoles...)
		case 7:
			return d.nullableShared(&r.Arm, func(s *string) bool { return d.identifier(s, d.in) })
		case 8:
			return d.timestamp(&r.StartedAt)
		case 9:
			if d.null() {
				return true
			}
			r.EndedAt = &d.boxed().ended
			return d.timestamp(r.EndedAt)
		case 10:
			return d.nullableInt64(&r.MonotonicStartNS, false)
		case 11:
			return d.nullableInt64(&r.MonotonicEndNS, true)
		case 12:
			return d.enum(&r.Status, receiptStatuses...)
		case 13:
			return d.nullableShared(&r.ErrorClass, func(s *string) bool { return d.enum(s, errorClasses...) })
		case 14:
			return d.identity(&r.Identity)
		case 15:
			return d.inputs(&r.Inputs)
		case 16:
			return d.nullableOutput(&r.Output)
		case 17:
			if d.null() {
				return true
			}
			r.Meter = &d.boxed().meter
			return d.meter(r.Meter)
		case 18:
			return records(&d.scanner, &d.calls, -1, &r.ToolCalls, &d.callSlab, d.toolCall)
		case 19:
			if d.null() {
				return true
			}
			r.Reservation = &d.boxed().reservation
			return d.reservation(r.Reservation)
		case 20:
			return d.billing(&r.Billing)
		case 21:
			return d.count(&r.ValidationMS)
		case 22:
			r.Observations = new(tables.OutputRef)
			return d.output(r.Observations)
		case 23:
			r.RecordedInput = new(tables.OutputRef)
			return d.output(r.RecordedInput)
		default:
			r.Settings = new(tables.GenerationSettings)
			return d.settings(r.Settings)
		}
	})
}

// maxEffort is the longest reasoning effort the schema allows, in
// characters; a longer byte string is left to the generic pass.
const maxEffort = 64

// effort reads a reasoning effort: a string of 1 to maxEffort bytes.
func (d *receiptDecoder) effort(dst **string) bool {
	b, ok := d.plain()
	if !ok || len(b) == 0 || len(b) > maxEffort {
		return false
	}
	s := string(b)
	*dst = &s
	return true
}

func (d *receiptDecoder) settings(x *tables.GenerationSettings) bool {
	return d.objectOf(settingsMembers, 0, func(k int) bool {
		switch k {
		case 0:
			x.Temperature = new(string)
			return d.decimal(x.Temperature, nil)
		case 1:
			x.TopP = new(string)
			return d.decimal(x.TopP, nil)
		case 2:
			x.MaxOutputTokens = new(int64)
			return d.count(x.MaxOutputTokens)
		case 3:
			return d.effort(&x.ReasoningEffort)
		default:
			x.Seed = new(int64)
			return d.count(x.Seed)
		}
	})
}

// nullableShared reads null (leaving *dst nil) or a value by read, stored
// as the interner's pointer to it (a *string field tagged intern).
func (d *receiptDecoder) nullableShared(dst **string, read func(*string) bool) bool {
	if d.null() {
		return true
	}
	// read into the decoder's own string, not a local one: read is a
	// closure, so a local's address would move it to the heap
	d.shared = ""
	if !read(&d.shared) {
		return false
	}
	*dst = d.in.pointer(d.shared)
	d.shared = ""
	return true
}

// identifierOwn reads an identifier of a field not tagged intern, the
// receipt's own (ownPart).
func (d *receiptDecoder) identifierOwn(dst *string) bool {
	b, ok := d.plain()
	if !ok || !IsIdentifier(unsafe.String(unsafe.SliceData(b), len(b))) {
		return false
	}
	d.ownPart(dst, b)
	return true
}

// hex reads a sha256 in hex (the sha256 rule), or "" too when emptyOK
// (sha256OrEmpty), interned when in is not nil, else the receipt's own
// (ownPart).
func (d *receiptDecoder) hex(dst *string, emptyOK bool, in *interner) bool {
	b, ok := d.plain()
	if !ok {
		return false
	}
	s := unsafe.String(unsafe.SliceData(b), len(b))
	if !(s == "" && emptyOK) && !isLowerHex(s, 64) {
		return false
	}
	if in != nil {
		*dst = in.bytes(b)
	} else {
		d.ownPart(dst, b)
	}
	return true
}

// str reads any string without escapes of at least min bytes, interned.
func (d *receiptDecoder) str(dst *string, min int) bool {
	b, ok := d.plain()
	if !ok || len(b) < min {
		return false
	}
	*dst = d.in.bytes(b)
	return true
}

// decimal reads a string of the decimal rule (decimalCheck with the
// money scale), interned when in is not nil.
func (d *receiptDecoder) decimal(dst *string, in *interner) bool {
	b, ok := d.plain()
	if !ok {
		return false
	}
	s := unsafe.String(unsafe.SliceData(b), len(b))
	_, frac, _ := strings.Cut(s, ".")
	if _, err := tables.ParseMoney(s); err != nil || len(frac) > tables.MoneyScale {
		return false
	}
	if in != nil {
		*dst = in.bytes(b)
	} else {
		*dst = string(b)
	}
	return true
}

// nullableDecimal reads null or a decimal into a new string (a field not
// tagged intern).
func (d *receiptDecoder) nullableDecimal(dst **string) bool {
	if d.null() {
		return true
	}
	*dst = new(string)
	return d.decimal(*dst, nil)
}

// nullableInt64 reads null or an integer of the int64 rule: a plain
// integer of at most 18 digits (so it fits), optionally negative, kept
// in the box (the monotonic end when end, else the start).
func (d *receiptDecoder) nullableInt64(dst **int64, end bool) bool {
	if d.null() {
		return true
	}
	neg := d.peek() == '-'
	if neg {
		d.i++
		if d.i == len(d.d) || !isDigit(d.d[d.i]) || d.d[d.i] == '0' {
			return false // a second sign, white space, or -0: the generic pass decides
		}
	}
	n, ok := d.natural(18)
	if !ok {
		return false
	}
	if neg {
		n = -n
	}
	slot := &d.boxed().start
	if end {
		slot = &d.boxed().end
	}
	*slot = n
	*dst = slot
	return true
}

func (d *receiptDecoder) identity(x *tables.ReceiptIdentity) bool {
	return d.objectOf(identityMembers, identityRequired, func(k int) bool {
		switch k {
		case 0:
			return d.str(&x.ReturnedModel, 0)
		case 1:
			return d.hex(&x.CLISHA256, true, d.in)
		case 2:
			return d.str(&x.PermissionPolicy, 0)
		case 3:
			return d.str(&x.Host, 1)
		default:
			return d.effort(&x.ReasoningEffort)
		}
	})
}

func (d *receiptDecoder) inputs(x *tables.DeliveredInputs) bool {
	return d.objectOf(inputsMembers, inputsRequired, func(k int) bool {
		switch k {
		case 0:
			return d.hex(&x.TaskSHA256, true, d.in)
		case 1:
			return d.hex(&x.PacketSHA256, true, d.in)
		case 2:
			return listShared(d, &d.ids, -1, &x.PromptIDs, &d.strs, func(s *string) bool { return d.identifier(s, d.in) })
		case 3:
			return listShared(d, &d.hashes, -1, &x.PromptSHA256s, &d.strs, func(s *string) bool { return d.hex(s, false, d.in) })
		case 4:
			return d.hex(&x.ResponseSchemaSHA256, true, d.in)
		case 5:
			return d.nullableShared(&x.DraftSessionID, func(s *string) bool { return d.identifier(s, d.in) })
		case 6:
			return d.hex(&x.RenderedSHA256, true, nil)
		case 7:
			return d.count(&x.RenderedBytes)
		default:
			return listShared(d, &d.blocks, maxDataBlocks, &x.DataBlocks, &d.blockSlab, func(b *tables.BlockDigest) bool {
				return d.object(dataBlockMembers, func(k int) bool {
					switch k {
					case 0:
						return d.enum(&b.Label, blockLabels...)
					case 1:
						return d.hex(&b.SHA256, false, d.in)
					default:
						return d.count(&b.Bytes)
					}
				})
			})
		}
	})
}

// listShared reads an array of at most max elements (max < 0: no cap)
// into a slice shared through the interner as the generic pass shares
// the slice of a field tagged intern (interner.list): an empty array is
// an empty slice of its own. A new slice is carved out of into.
func listShared[T comparable](d *receiptDecoder, scratch *[]T, max int, dst *[]T, into *slab[T], elem func(*T) bool) bool {
	*scratch = (*scratch)[:0]
	d.ws()
	start := d.i
	n, ok := d.elements(max, func(int) bool {
		var zero T
		*scratch = append(*scratch, zero)
		return elem(&(*scratch)[len(*scratch)-1])
	})
	if !ok {
		return false
	}
	if n == 0 {
		*dst = []T{}
		return true
	}
	*dst = internList(d.in, *scratch, d.d[start:d.i], into)
	return true
}

// internList is interner.list for a slice of comparable elements: the
// shared slice equal to elems, decoded from the JSON array raw, or a new
// one of exactly its length (carved out of into), which then takes raw's
// slot.
func internList[T comparable](in *interner, elems []T, raw []byte, into *slab[T]) []T {
	var zero T
	if len(raw) > maxSharedListBytes || uintptr(len(elems))*unsafe.Sizeof(zero) > maxSharedListBytes {
		return into.copy(elems)
	}
	sum := hashBytes(raw)
	slot := &in.slices[sum&uint64(len(in.slices)-1)]
	if s, ok := slot.v.([]T); ok && slot.sum == sum && slices.Equal(s, elems) {
		return s
	}
	out := into.copy(elems)
	*slot = sharedList{sum: sum, v: out}
	return out
}

func (d *receiptDecoder) nullableOutput(dst **tables.OutputRef) bool {
	if d.null() {
		return true
	}
	*dst = &d.boxed().output
	return d.output(*dst)
}

func (d *receiptDecoder) output(x *tables.OutputRef) bool {
	return d.object(outputMembers, func(k int) bool {
		switch k {
		case 0:
			b, ok := d.plain()
			if !ok || len(b) == 0 || pathProblem(unsafe.String(unsafe.SliceData(b), len(b))) != "" {
				return false
			}
			d.ownPart(&x.Path, b)
			return true
		case 1:
			return d.hex(&x.SHA256, false, nil)
		default:
			return d.count(&x.Bytes)
		}
	})
}

func (d *receiptDecoder) meter(x *tables.Meter) bool {
	return d.object(meterMembers, func(k int) bool {
		switch k {
		case 0:
			var s string
			if !d.enum(&s, usageShapes...) {
				return false
			}
			x.Shape = tables.UsageShape(s)
			return true
		case 1:
			return d.identifier(&x.RateCard, d.in)
		default:
			d.ws()
			start := d.i
			if !d.usage(0) {
				return false
			}
			x.Usage = append(jsontext.Value(nil), d.d[start:d.i]...)
			return true
		}
	})
}

// usage reads a usage object whose values are plain non-negative
// integers or such objects, each member name once, at depth.
func (d *receiptDecoder) usage(depth int) bool {
	if depth == maxUsageDepth || !d.eat('{') {
		return false
	}
	names := &d.names[depth]
	*names = (*names)[:0]
	if d.eat('}') {
		return true
	}
	for {
		b, ok := d.plain()
		if !ok || !d.eat(':') || len(*names) == maxUsageMembers {
			return false
		}
		for _, seen := range *names {
			if string(seen) == string(b) {
				return false // a repeated name
			}
		}
		*names = append(*names, b)
		if d.peek() == '{' {
			ok = d.usage(depth + 1)
		} else {
			_, ok = d.natural(16)
		}
		if !ok {
			return false
		}
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

func (d *receiptDecoder) toolCall(x *tables.ToolCall) bool {
	return d.object(toolCallMembers, func(k int) bool {
		switch k {
		case 0:
			return d.enum(&x.Kind, toolKinds...)
		case 1:
			b, ok := d.plain()
			if !ok || len(b) == 0 || len(b) > maxToolName {
				return false
			}
			x.Name = d.in.bytes(b)
			return true
		case 2:
			return d.count(&x.InputTokens)
		case 3:
			return d.count(&x.OutputTokens)
		default:
			return d.nullableDecimal(&x.Charge)
		}
	})
}

func (d *receiptDecoder) reservation(x *tables.Reservation) bool {
	return d.object(reservationMembers, func(k int) bool {
		switch k {
		case 0:
			return d.identifierOwn(&x.ID)
		case 1:
			return d.count(&x.InputTokens)
		case 2:
			return d.count(&x.OutputTokens)
		default:
			return d.decimal(&x.Cost, d.in)
		}
	})
}

func (d *receiptDecoder) billing(x *tables.Billing) bool {
	return d.object(billingMembers, func(k int) bool {
		if k == 0 {
			return d.enum(&x.Basis, billingBases...)
		}
		return d.nullableDecimal(&x.ActualCharge)
	})
}
