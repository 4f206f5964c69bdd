package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// PreflightResult is the checklist a runner must satisfy before the first
// dispatch of a campaign: every item ok, or the campaign is not ready.
type PreflightResult struct {
	Items []tables.PreflightItem
	Ready bool // every item is ok
}

// Preflight loads the campaign rooted at fsys and lists, item by item,
// what its first dispatch needs: the manifest, every execution identity,
// every prompt file hashed and assembled per role under the rendering rule,
// the response schema, a rate card for the requested model, every
// ceiling, the reservation each dispatch makes, and every task's task,
// packet and truth file. An item is missing when a rejecting finding of the
// loader (or of the prompt-part rules) lies at its position — the rules
// stay where they are; Preflight only sorts their findings into the
// checklist — or, for a ceiling, when it is zero and so admits nothing.
// Findings no item claims are listed under "other checks". Receipts are
// not looked at: nothing has to be dispatched yet. It writes nothing.
func Preflight(fsys fs.FS, name string) *PreflightResult {
	c, findings := load.Campaign(fsys, name)
	if c == nil || c.Manifest.Format != tables.FormatManifest {
		return finishPreflight([]*checkItem{{item: tables.PreflightItem{Item: "manifest", File: manifestFile}, claims: claimAll}}, findings)
	}
	items := append(preflightItems(c), providerItems(&c.Manifest)...)
	findings = append(findings, validate.Policy(c)...)
	if !promptsRefused(c, findings) {
		findings = append(findings, validate.PromptParts(c)...)
	}
	findings = append(findings, validate.ProviderFindings(&c.Manifest)...)
	findings = append(findings, validate.Design(&c.Manifest)...) // the design is the contract's before the first dispatch (rules D8, D9, P3, G8)
	return finishPreflight(items, findings)
}

const manifestFile = "manifest.json"

// checkItem is a checklist item under construction: the findings it
// claims and any reason of its own.
type checkItem struct {
	item    tables.PreflightItem
	claims  func(f rules.Finding) bool
	reasons []string
	ok      string       // the detail when the item is ok
	deps    []*checkItem // items that must be ok for this one to be
}

func claimAll(rules.Finding) bool { return true }

// at claims the findings at pointer of manifest.json or below it.
func at(pointer string) func(rules.Finding) bool {
	return func(f rules.Finding) bool {
		return f.File == manifestFile && (f.Pointer == pointer || strings.HasPrefix(f.Pointer, pointer+"/"))
	}
}

// atOrIn claims the findings at pointer of manifest.json or anywhere in file.
func atOrIn(pointer, file string) func(rules.Finding) bool {
	inManifest := at(pointer)
	return func(f rules.Finding) bool { return inManifest(f) || f.File == file }
}

func manifestItem(name, pointer, ok string) *checkItem {
	return &checkItem{item: tables.PreflightItem{Item: name, File: manifestFile, Pointer: pointer}, claims: at(pointer), ok: ok}
}

func preflightItems(c *tables.Campaign) []*checkItem {
	m := &c.Manifest
	id := &m.Identities
	items := []*checkItem{
		{item: tables.PreflightItem{Item: "manifest", File: manifestFile}, ok: fmt.Sprintf("campaign %s, kind %s, synthetic %t", m.CampaignID, m.Kind, m.Synthetic),
			claims: func(f rules.Finding) bool { return f.File == manifestFile && f.Pointer == "" }},
		manifestItem("identity requested_model", "/identities/requested_model", id.RequestedModel),
		manifestItem("identity returned_model", "/identities/returned_model", id.ReturnedModel),
		manifestItem("identity cli_version", "/identities/cli_version", id.CLIVersion),
		manifestItem("identity cli_sha256", "/identities/cli_sha256", id.CLISHA256),
		manifestItem("identity runtimes", "/identities/runtimes", runtimesText(id.Runtimes)),
		manifestItem("identity host", "/identities/host", id.Host),
		manifestItem("identity os", "/identities/os", id.OS),
		manifestItem("identity permission_policy", "/identities/permission_policy", id.PermissionPolicy),
		manifestItem("identity tokenizer", "/identities/tokenizer", id.Tokenizer),
		manifestItem("identity reasoning_effort", "/identities/reasoning_effort", pinnedText(id.ReasoningEffort)),
		manifestItem("identity service_tier", "/identities/service_tier", pinnedText(id.ServiceTier)),
		manifestItem("response schema", "/response_schema_sha256", m.ResponseSchemaSHA256),
	}
	for i, p := range m.Prompts {
		ptr := fmt.Sprintf("/prompts/%d", i)
		items = append(items, &checkItem{item: tables.PreflightItem{Item: fmt.Sprintf("prompt %s (%s)", p.ID, p.Kind), File: manifestFile, Pointer: ptr},
			claims: atOrIn(ptr, p.Path), ok: fileText(p.Path, c.Prompts[p.ID])})
	}
	assembly := manifestItem("prompt assembly per role", "/design", fmt.Sprintf("rendering rule %s (docs/prompts.md)", tables.RenderRule))
	assembly.claims = func(f rules.Finding) bool { return at("/design/draft_prompts")(f) || at("/design/arms")(f) }
	items = append(items, assembly, rateCards(m))
	items = append(items, ceilingItems(&m.Ceilings)...)
	items = append(items, manifestItem("gate policy", "/gate_policy", tables.ResolvePolicy(m).Label()), evaluatorItem(m))
	items = append(items, reservation(items))
	for i, t := range m.Design.Tasks {
		task := c.Task(t.ID)
		for _, f := range []struct{ what, path, field string }{
			{"text", t.TaskPath, "task_sha256"}, {"packet", t.PacketPath, "packet_sha256"}, {"truth", t.TruthPath, "truth_sha256"},
		} {
			ptr := fmt.Sprintf("/design/tasks/%d/%s", i, f.field)
			items = append(items, &checkItem{item: tables.PreflightItem{Item: fmt.Sprintf("task %s %s", t.ID, f.what), File: manifestFile, Pointer: ptr},
				claims: atOrIn(ptr, f.path), ok: taskFileText(task, f.what, f.path)})
		}
	}
	return append(items, manifestItem("design and schedule", "/design", fmt.Sprintf("%d tasks, %d repetitions, %d slots", len(m.Design.Tasks), m.Design.Repetitions, len(m.Design.Schedule))))
}

// evaluatorItem is the item of the evaluator the campaign was frozen with.
func evaluatorItem(m *tables.Manifest) *checkItem {
	ok := "not pinned: evalgate " + rules.EvaluatorVersion
	if e := m.Evaluator; e != nil {
		ok = "evalgate " + e.Version
		if e.Commit != "" {
			ok += " at " + e.Commit
		}
	}
	return manifestItem("evaluator", "/evaluator", ok)
}

func runtimesText(rs []tables.Runtime) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, r.Name+" "+r.Version)
	}
	return strings.Join(parts, ", ")
}

func pinnedText(s *string) string {
	if s == nil {
		return "not pinned; only a synthetic campaign may omit it"
	}
	return *s
}

func fileText(path string, data []byte) string {
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%s, %d bytes, sha256 %s", path, len(data), hex.EncodeToString(sum[:]))
}

func taskFileText(t *tables.LoadedTask, what, path string) string {
	if t == nil {
		return path
	}
	switch what {
	case "text":
		return fileText(path, t.Text)
	case "packet":
		return fileText(path, t.PacketBytes)
	}
	return path + ", hash checked"
}

// rateCards is the item of the frozen tariff: the rate cards are
// well-formed and one prices the requested model.
func rateCards(m *tables.Manifest) *checkItem {
	it := manifestItem("rate card for the requested model", "/rate_cards", "")
	for _, r := range m.RateCards {
		if r.Model == m.Identities.RequestedModel {
			it.ok = fmt.Sprintf("%s, checked %s, %s per million tokens: uncached input %s, output %s", r.ID, r.DateChecked, r.Currency, r.Prices.UncachedInput, r.Prices.Output)
			return it
		}
	}
	it.reasons = append(it.reasons, fmt.Sprintf("no rate card prices the requested model %q: the cost of a dispatch cannot be bounded", m.Identities.RequestedModel))
	return it
}

// ceilingItems lists every inclusive ceiling; a zero count ceiling admits
// no dispatch (infrastructure replacements may be zero).
func ceilingItems(ce *tables.Ceilings) []*checkItem {
	counts := []struct {
		name  string
		value int64
	}{
		{"session/wall_ms", ce.Session.WallMS}, {"session/input_tokens", ce.Session.InputTokens}, {"session/output_tokens", ce.Session.OutputTokens},
		{"campaign/planned_sessions", ce.Campaign.PlannedSessions}, {"campaign/total_sessions", ce.Campaign.TotalSessions},
		{"campaign/wall_ms", ce.Campaign.WallMS}, {"campaign/input_tokens", ce.Campaign.InputTokens}, {"campaign/output_tokens", ce.Campaign.OutputTokens},
	}
	var out []*checkItem
	for _, n := range counts {
		it := manifestItem("ceiling "+n.name, "/ceilings/"+n.name, fmt.Sprint(n.value))
		if n.value <= 0 {
			it.reasons = append(it.reasons, fmt.Sprintf("ceiling %s is %d, which admits no dispatch", n.name, n.value))
		}
		out = append(out, it)
	}
	return append(out,
		manifestItem("ceiling campaign/reference_cost", "/ceilings/campaign/reference_cost", ce.Campaign.ReferenceCost),
		manifestItem("ceiling campaign/actual_cost", "/ceilings/campaign/actual_cost", ce.Campaign.ActualCost),
		manifestItem("ceiling campaign/infrastructure_replacements", "/ceilings/campaign/infrastructure_replacements", fmt.Sprint(ce.Campaign.InfrastructureReplacements)))
}

// reservation is the item of the per-dispatch reservation (rule A7): a
// worst-case bound can be reserved only against a rate card for the
// model and the token and money ceilings. It depends on those items.
func reservation(items []*checkItem) *checkItem {
	it := &checkItem{item: tables.PreflightItem{Item: "reservation before each dispatch", File: manifestFile, Pointer: "/ceilings"},
		claims: func(rules.Finding) bool { return false },
		ok:     "each request's worst-case bound is reserved with 'evalgate admit' before it is sent; enforcing it live is the runner's"}
	for _, d := range items {
		if strings.HasPrefix(d.item.Item, "rate card") || strings.HasPrefix(d.item.Item, "ceiling ") {
			it.deps = append(it.deps, d)
		}
	}
	return it
}

// promptsRefused reports whether the loader refused a prompt entry or
// file, or the design's prompt lists: then the prompt-part rules would
// judge bytes that were not loaded.
func promptsRefused(c *tables.Campaign, findings rules.Findings) bool {
	files := map[string]bool{}
	for _, p := range c.Manifest.Prompts {
		files[p.Path] = true
	}
	for _, f := range findings {
		if f.Severity == rules.Reject && (files[f.File] || at("/prompts")(f) || at("/design")(f)) {
			return true
		}
	}
	return false
}

// finishPreflight gives each rejecting finding to the first item that
// claims it (the rest to "other checks"), then settles every item's status.
func finishPreflight(items []*checkItem, findings rules.Findings) *PreflightResult {
	other := &checkItem{item: tables.PreflightItem{Item: "other checks"}, ok: "no other finding rejects the campaign"}
	for _, f := range findings {
		if f.Severity != rules.Reject {
			continue
		}
		owner := other
		for _, it := range items {
			if it.claims != nil && it.claims(f) {
				owner = it
				break
			}
		}
		owner.item.Findings = append(owner.item.Findings, f)
	}
	res := &PreflightResult{Ready: true}
	for _, it := range append(items, other) {
		for _, d := range it.deps {
			if d.item.Status == tables.PreflightMissing {
				it.reasons = append(it.reasons, d.item.Item+" is missing")
			}
		}
		it.item.Status, it.item.Detail = tables.PreflightOK, it.ok
		if it.item.Findings == nil {
			it.item.Findings = rules.Findings{}
		}
		if len(it.reasons) > 0 || len(it.item.Findings) > 0 {
			it.item.Status, it.item.Detail = tables.PreflightMissing, strings.Join(it.reasons, "; ")
			res.Ready = false
		}
		res.Items = append(res.Items, it.item)
	}
	return res
}
