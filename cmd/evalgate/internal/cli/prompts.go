package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
	"github.com/spf13/cobra"
)

type promptsOptions struct {
	example string
	session string
	all     bool
	json    bool
	raw     bool
	out     string
}

func newPromptsCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "prompts",
		Short: "Show the exact prompts the sessions of a campaign received",
		Args:  maxArgs(0),
		RunE:  func(*cobra.Command, []string) error { return usagef("prompts needs a subcommand: render") },
	}
	var opts promptsOptions
	render := &cobra.Command{
		Use:   "render [CAMPAIGN_DIR] (--session ID | --all) [--json] [--raw] [--out DIR]",
		Short: "Render the exact bytes a session received, with sha256 and byte counts per part",
		Long: `render rebuilds, from the campaign's own prompt files, task files, packets
and (for reviews) the draft's raw answer, the exact bytes a session
received under rule ` + tables.RenderRule + ` (docs/prompts.md): its role's
prompt files in the design's order (common instruction, role instruction,
final-answer schema and, for the reconciliation arm only, the
reconciliation schema), then the labelled data blocks TASK,
EVIDENCE_PACKET and COMMON_DRAFT. It prints every part's kind, sha256 and
byte count, the total, and whether the session's receipt declares exactly
this rendering (rendered_sha256, rendered_bytes).

--session ID renders one session, --all every dispatched draft, review and
investigation. --raw writes the one session's exact bytes to standard
output and nothing else; --out DIR writes DIR/<session>.txt with the bytes
of each session and DIR/prompts.json with the parts. Exit 0 when every
rendered session matches its receipt, 1 when the campaign is rejected by
the loader or a receipt declares another rendering, 2 usage, 3 I/O.`,
		Args: maxArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return renderPrompts(stdout, args, opts) },
	}
	render.Flags().StringVar(&opts.example, "example", "", "embedded example campaign when no directory is given")
	render.Flags().StringVar(&opts.session, "session", "", "the session to render")
	render.Flags().BoolVar(&opts.all, "all", false, "render every dispatched session")
	render.Flags().BoolVar(&opts.json, "json", false, "print the parts as JSON")
	render.Flags().BoolVar(&opts.raw, "raw", false, "write the session's exact rendered bytes to standard output")
	render.Flags().StringVar(&opts.out, "out", "", "write each session's bytes and prompts.json into this directory")
	cmd.AddCommand(render)
	return cmd
}

// The --json output of prompts render and the prompts.json of --out are
// one document, {campaign, rule, sessions, errors, matches}, written as
// the sessions are rendered (promptsJSON): sessions is every rendered
// session, errors every session that could not be rendered, matches
// whether every rendered session matches its receipt and none failed.
// Nothing holds more than one session's rendering at a time, so --all
// over tens of thousands of sessions runs in the memory of one.

// promptsTally is what the end of the output says, counted as the
// sessions pass.
type promptsTally struct {
	campaign string
	sessions int
	errors   []string
	matches  bool
}

// promptsSink receives each rendered session, then the tally.
type promptsSink interface {
	session(s stages.RenderedSession) error
	finish(t *promptsTally) error
}

func renderPrompts(stdout io.Writer, args []string, opts promptsOptions) error {
	switch {
	case (opts.session == "") == !opts.all:
		return usagef("give exactly one of --session ID and --all")
	case opts.raw && (opts.all || opts.json || opts.out != ""):
		return usagef("--raw writes one session's bytes; do not combine it with --all, --json or --out")
	}
	fsys, name, err := campaignSource(args, opts.example)
	if err != nil {
		return err
	}
	var sinks []promptsSink
	switch {
	case opts.raw:
		sinks = append(sinks, rawPrompt{stdout})
	case opts.json:
		sinks = append(sinks, &promptsJSON{enc: jsontext.NewEncoder(stdout, jsontext.WithIndent("  ")), campaign: name})
	default:
		sinks = append(sinks, promptsText{stdout})
	}
	finished := false // every sink has its tally: the output is complete
	render := func() error {
		t := &promptsTally{campaign: name, matches: true}
		res, err := stages.RenderPrompts(fsys, name, opts.session, func(s stages.RenderedSession) error {
			t.sessions++
			t.matches = t.matches && s.Matches
			for _, k := range sinks {
				if err := k.session(s); err != nil {
					return err
				}
			}
			return nil
		}, func(err error) {
			t.errors = append(t.errors, err.Error())
			t.matches = false
		})
		if !res.Loaded {
			printFindings(stdout, res.Findings)
			fmt.Fprintf(stdout, "%s: rejected by the loader (%d findings); nothing rendered\n", text(name), len(res.Findings))
			return errRejected
		}
		if rerr := (*stages.RenderError)(nil); errors.As(err, &rerr) {
			return usagef("%v", rerr)
		}
		if err != nil {
			return err
		}
		for _, k := range sinks {
			if err := k.finish(t); err != nil {
				return err
			}
		}
		finished = true
		if !t.matches {
			return errRejected
		}
		return nil
	}
	if opts.out == "" {
		return render()
	}
	// --out: each session's bytes as it is rendered, and prompts.json
	// written atomically once complete.
	if err := os.MkdirAll(opts.out, 0o755); err != nil {
		return err
	}
	var inner error
	err = confined.WriteAtomic(filepath.Join(opts.out, "prompts.json"), 0o644, func(w io.Writer) error {
		sinks = append(sinks, promptFiles{opts.out}, &promptsJSON{enc: jsontext.NewEncoder(w, jsontext.WithIndent("  ")), campaign: name})
		if inner = render(); finished {
			return nil // complete, also when a receipt differs: prompts.json says so
		}
		return inner
	})
	if inner != nil {
		return inner
	}
	return err
}

// rawPrompt writes the one session's exact bytes and nothing else.
type rawPrompt struct{ w io.Writer }

func (r rawPrompt) session(s stages.RenderedSession) error {
	_, err := r.w.Write(s.Rendering.Data)
	return err
}

func (rawPrompt) finish(*promptsTally) error { return nil }

// promptsText prints one block per session: its parts, the total and the
// receipt's claim; then the sessions not rendered and the tally.
type promptsText struct{ w io.Writer }

func (p promptsText) session(s stages.RenderedSession) error {
	w := p.w
	arm := "-"
	if s.Arm != nil {
		arm = *s.Arm
	}
	r := s.Rendering
	fmt.Fprintf(w, "session %s (task %s, %s, arm %s), rule %s\n", text(s.SessionID), text(s.TaskID), text(string(s.Role)), text(arm), text(r.Rule))
	fmt.Fprintf(w, "  %-3s %-24s %-16s %9s %9s  %s\n", "#", "kind", "part", "bytes", "rendered", "sha256")
	for i, p := range r.Parts {
		fmt.Fprintf(w, "  %-3d %-24s %-16s %9d %9d  %s\n", i+1, text(string(p.Kind)), text(p.ID), p.Bytes, p.RenderedBytes, p.SHA256)
	}
	fmt.Fprintf(w, "  total %d bytes, sha256 %s\n", r.Bytes, text(r.SHA256))
	var err error
	if s.Matches {
		_, err = fmt.Fprintf(w, "  receipt: matches (rendered_bytes %d, rendered_sha256 %s)\n\n", s.DeclaredBytes, text(s.DeclaredSHA256))
	} else {
		_, err = fmt.Fprintf(w, "  receipt: DIFFERS — it declares %d bytes, sha256 %s\n\n", s.DeclaredBytes, text(s.DeclaredSHA256))
	}
	return err
}

func (p promptsText) finish(t *promptsTally) error {
	for _, e := range t.errors {
		fmt.Fprintf(p.w, "not rendered: %s\n", text(e))
	}
	if t.matches {
		_, err := fmt.Fprintf(p.w, "%s: %d sessions rendered, every receipt matches\n", text(t.campaign), t.sessions)
		return err
	}
	_, err := fmt.Fprintf(p.w, "%s: %d sessions rendered; a receipt differs or a session could not be rendered\n", text(t.campaign), t.sessions)
	return err
}

// promptsJSON writes the one document, its sessions as they come.
type promptsJSON struct {
	enc      *jsontext.Encoder
	campaign string
	started  bool
}

func (p *promptsJSON) start(campaign string) error {
	if p.started {
		return nil
	}
	p.started = true
	for _, tok := range []jsontext.Token{jsontext.BeginObject, jsontext.String("campaign"), jsontext.String(campaign),
		jsontext.String("rule"), jsontext.String(tables.RenderRule), jsontext.String("sessions"), jsontext.BeginArray} {
		if err := p.enc.WriteToken(tok); err != nil {
			return err
		}
	}
	return nil
}

func (p *promptsJSON) session(s stages.RenderedSession) error {
	if err := p.start(p.campaign); err != nil {
		return err
	}
	return json.MarshalEncode(p.enc, s, json.Deterministic(true))
}

func (p *promptsJSON) finish(t *promptsTally) error {
	if err := p.start(t.campaign); err != nil {
		return err
	}
	if err := p.enc.WriteToken(jsontext.EndArray); err != nil {
		return err
	}
	if err := p.enc.WriteToken(jsontext.String("errors")); err != nil {
		return err
	}
	if err := json.MarshalEncode(p.enc, append([]string{}, t.errors...)); err != nil {
		return err
	}
	for _, tok := range []jsontext.Token{jsontext.String("matches"), jsontext.Bool(t.matches), jsontext.EndObject} {
		if err := p.enc.WriteToken(tok); err != nil {
			return err
		}
	}
	return nil
}

// promptFiles writes each session's bytes into DIR/<session>.txt. Session
// IDs are identifiers (letters, digits, '.', '_', '-'; never starting with
// '.'), checked again here before they name a file.
type promptFiles struct{ dir string }

func (p promptFiles) session(s stages.RenderedSession) error {
	if !safeFileName(s.SessionID) {
		return usagef("session ID %q cannot name a file", s.SessionID)
	}
	return confined.WriteFileAtomic(filepath.Join(p.dir, s.SessionID+".txt"), s.Rendering.Data, 0o644)
}

func (promptFiles) finish(*promptsTally) error { return nil }

func safeFileName(id string) bool {
	if id == "" || id[0] == '.' || len(id) > 64 {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}
