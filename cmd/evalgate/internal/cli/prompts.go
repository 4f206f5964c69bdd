package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

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

// promptsReport is the --json output of prompts render and the
// prompts.json of --out.
type promptsReport struct {
	Campaign string                   `json:"campaign"`
	Rule     string                   `json:"rule"`
	Sessions []stages.RenderedSession `json:"sessions"`
	Errors   []string                 `json:"errors"`
	Matches  bool                     `json:"matches"` // every rendered session matches its receipt
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
	res, err := stages.RenderPrompts(fsys, name, opts.session)
	if !res.Loaded {
		printFindings(stdout, res.Findings)
		fmt.Fprintf(stdout, "%s: rejected by the loader (%d findings); nothing rendered\n", name, len(res.Findings))
		return errRejected
	}
	if err != nil {
		return usagef("%v", err)
	}
	rep := promptsReport{Campaign: name, Rule: tables.RenderRule, Sessions: res.Sessions, Errors: []string{}, Matches: len(res.Errors) == 0}
	if rep.Sessions == nil {
		rep.Sessions = []stages.RenderedSession{}
	}
	for _, e := range res.Errors {
		rep.Errors = append(rep.Errors, e.Error())
	}
	for _, s := range res.Sessions {
		rep.Matches = rep.Matches && s.Matches
	}
	if opts.out != "" {
		if err := writePrompts(opts.out, rep); err != nil {
			return err
		}
	}
	switch {
	case opts.raw:
		_, err = stdout.Write(res.Sessions[0].Rendering.Data)
	case opts.json:
		err = writeJSON(stdout, rep)
	default:
		err = printPrompts(stdout, rep)
	}
	if err != nil {
		return err
	}
	if !rep.Matches {
		return errRejected
	}
	return nil
}

// printPrompts prints one block per session: its parts, the total and the
// receipt's claim.
func printPrompts(w io.Writer, rep promptsReport) error {
	for _, s := range rep.Sessions {
		arm := "-"
		if s.Arm != nil {
			arm = *s.Arm
		}
		r := s.Rendering
		fmt.Fprintf(w, "session %s (task %s, %s, arm %s), rule %s\n", s.SessionID, s.TaskID, s.Role, arm, r.Rule)
		fmt.Fprintf(w, "  %-3s %-24s %-16s %9s %9s  %s\n", "#", "kind", "part", "bytes", "rendered", "sha256")
		for i, p := range r.Parts {
			fmt.Fprintf(w, "  %-3d %-24s %-16s %9d %9d  %s\n", i+1, p.Kind, p.ID, p.Bytes, p.RenderedBytes, p.SHA256)
		}
		fmt.Fprintf(w, "  total %d bytes, sha256 %s\n", r.Bytes, r.SHA256)
		if s.Matches {
			fmt.Fprintf(w, "  receipt: matches (rendered_bytes %d, rendered_sha256 %s)\n\n", s.DeclaredBytes, s.DeclaredSHA256)
		} else {
			fmt.Fprintf(w, "  receipt: DIFFERS — it declares %d bytes, sha256 %s\n\n", s.DeclaredBytes, s.DeclaredSHA256)
		}
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(w, "not rendered: %s\n", e)
	}
	switch {
	case rep.Matches:
		_, err := fmt.Fprintf(w, "%s: %d sessions rendered, every receipt matches\n", rep.Campaign, len(rep.Sessions))
		return err
	default:
		_, err := fmt.Fprintf(w, "%s: %d sessions rendered; a receipt differs or a session could not be rendered\n", rep.Campaign, len(rep.Sessions))
		return err
	}
}

// writePrompts writes each session's bytes and prompts.json into dir.
// Session IDs are identifiers (letters, digits, '.', '_', '-'; never
// starting with '.'), checked again here before they name a file.
func writePrompts(dir string, rep promptsReport) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range rep.Sessions {
		if !safeFileName(s.SessionID) {
			return usagef("session ID %q cannot name a file", s.SessionID)
		}
		if err := confined.WriteFileAtomic(filepath.Join(dir, s.SessionID+".txt"), s.Rendering.Data, 0o644); err != nil {
			return err
		}
	}
	return confined.WriteAtomic(filepath.Join(dir, "prompts.json"), 0o644, func(w io.Writer) error { return writeJSON(w, rep) })
}

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
