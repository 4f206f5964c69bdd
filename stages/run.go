package stages

import (
	"errors"
	"io/fs"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/stages/intervals"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/score"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// Options select what Run computes.
type Options struct {
	// SkipIntervals leaves the intervals table empty. Gates and the
	// decision do not depend on it.
	SkipIntervals bool
	// Progress, when set, is told the name of each stage as it starts
	// (load, validate, account, score, aggregate, intervals). It only
	// observes: nothing it does changes a result.
	Progress func(stage string)
	// ReleaseInputs lets Run drop each of the campaign's inputs once its
	// last reader has run, so that it is not in memory while later stages
	// run and the caller writes the report (which reads none of them):
	// the receipts after the account stage (the later stages read the
	// validate and account stages' rows instead), except for a system
	// comparison, whose score stage counts their tool calls, and the
	// adjudications (and a system comparison's receipts) after the score
	// stage. Result.Campaign then holds neither; set it only when nothing
	// reads them after Run (evalgate run). Nothing computed changes.
	ReleaseInputs bool
}

func (o Options) stage(name string) {
	if o.Progress != nil {
		o.Progress(name)
	}
}

// Result is the outcome of running the pipeline on one campaign.
type Result struct {
	Campaign *tables.Campaign // nil when the campaign could not be loaded at all
	Tables   *tables.Set
	// Figures are the aggregate stage's exact report figures (empty when
	// the campaign was not loaded); stages/report formats them.
	Figures tables.Figures
	// Loaded is false when the load stage rejected the campaign: its
	// inputs cannot be trusted, no table but rejections is meaningful and
	// nothing should be written.
	Loaded bool
	// Err is not nil when the pipeline could not read back rows it had
	// stored in a spool's temporary file (an I/O error; see
	// [spool.FileAfter]): a stage then computed on fewer rows than
	// the campaign holds, so neither the tables nor the decision may be
	// reported. It is not a finding: the campaign is not at fault.
	Err error
}

// Admissible reports whether no stage found a rejecting problem.
func (r *Result) Admissible() bool {
	return r.Loaded && !rules.Findings(r.Tables.Rejections).Rejected()
}

// Run runs load → validate → account → score → aggregate → intervals on
// the campaign rooted at fsys. It does not write anything (see
// stages/report). name is used in messages.
//
// Each stage takes what it reads and returns what it produces; this
// function is the one place their outputs meet:
//
//	load      fsys                              → campaign, answers
//	validate  campaign, answers                 → sessions, citations, dispositions
//	account   campaign                          → tokens, ledger, ceilings
//	score     campaign, validated, accounted    → runs, obligations
//	aggregate campaign, validated, accounted, scored → tasks, repositories, gates, decision, figures
//	intervals campaign, runs                    → intervals
//
// and every stage's findings go to the rejections table.
func Run(fsys fs.FS, name string, opts Options) *Result {
	opts.stage("load")
	c, loaded := load.Campaign(fsys, name)
	res := &Result{Campaign: c, Tables: &tables.Set{Rejections: loaded}}
	if c == nil || loaded.Rejected() {
		if c != nil {
			res.Err = c.Err() // a receipt lost to its spool may have hidden a finding
		}
		rules.Findings(res.Tables.Rejections).Sort()
		res.Tables.Decision = tables.ApplyRejections(nil, res.Tables.Rejections)
		if c != nil {
			label := tables.ResolvePolicy(&c.Manifest).Label()
			for i := range res.Tables.Decision {
				res.Tables.Decision[i].Policy = label
			}
		}
		return res
	}
	res.Loaded = true
	res.Tables, res.Figures = judge(c, loaded, opts)
	res.Err = errors.Join(res.Tables.Err(), c.Err()) // the tables' spools and the inputs' (receipts, adjudications)
	return res
}

// RunCampaign runs every stage after load on an already loaded campaign
// (for tests and tools that edit one in memory) and returns the tables.
func RunCampaign(c *tables.Campaign, opts Options) *tables.Set {
	s, _ := judge(c, nil, opts)
	return s
}

// answerWindow bounds how many receipts ahead of validation answers are
// read and decoded: memory for at most this many answers (each within its
// 4 MiB cap) whatever the campaign's size.
const answerWindow = 16

// answerReaders is how many answers are read (and decoded) at once, more
// than there are cores: an answer the page cache does not hold is a wait
// on the disk, not work for a core. 200,000 answer files of a campaign
// read cold took 167 s with 2 readers at a time and 15 s with 16, on the
// 2-core machine; decoding takes the cores it finds either way.
const answerReaders = answerWindow

// judge is the pipeline after load: loaded are load's findings.
func judge(c *tables.Campaign, loaded rules.Findings, opts Options) (*tables.Set, tables.Figures) {
	if c.Manifest.Kind == rules.KindReviewerBenchmark {
		return judgeBenchmark(c, loaded, opts)
	}
	opts.stage("validate")
	answers := load.Prefetched(c, answerReaders, answerWindow)
	validated := validate.Run(c, answers) // answers decoded ahead on every core, checked in receipt order
	answers.Close()
	validated.Citations.Compact() // complete: only the report reads them (spool.Spool.Compact)
	validated.Dispositions.Compact()
	opts.stage("account")
	accounted := account.Run(c)
	if opts.ReleaseInputs && c.Manifest.Kind != rules.KindSystemComparison {
		c.DropReceipts() // last read by account; a system comparison's score stage counts their tool calls
	}
	opts.stage("score")
	scored := score.Run(c, validated, accounted)
	scored.Runs.Compact() // complete: aggregate, intervals and the report iterate them
	scored.Obligations.Compact()
	if opts.ReleaseInputs {
		c.DropAdjudications() // last read by score
		c.DropReceipts()
	}
	opts.stage("aggregate")
	aggregated := aggregate.Run(c, validated, accounted, scored)
	var iv intervals.Out
	if !opts.SkipIntervals {
		opts.stage("intervals")
		iv = intervals.Run(c, scored.Runs)
	}
	return assemble(loaded, validated, accounted, scored, aggregated, iv), aggregated.Figures
}

// assemble is the table set of a run: each table from the stage that
// produces it, and every finding, sorted and capped (rules.CapFindings).
func assemble(loaded rules.Findings, v validate.Out, a account.Out, s score.Out, g aggregate.Out, iv intervals.Out) *tables.Set {
	findings := rules.CapFindings(slices.Concat(loaded, v.Findings, a.Findings, s.Findings, g.Findings, iv.Findings))
	return &tables.Set{
		Sessions:       v.Sessions,
		Citations:      v.Citations,
		Dispositions:   v.Dispositions,
		Tokens:         a.Tokens,
		Ledger:         a.Ledger,
		Ceilings:       a.Ceilings,
		PromptVersions: v.PromptVersions,
		Runs:           s.Runs,
		Obligations:    s.Obligations,
		Tasks:          g.Tasks,
		Repositories:   g.Repositories,
		Gates:          g.Gates,
		Decision:       tables.ApplyRejections(g.Decision, findings), // the one rule: any rejecting finding gives no_verdict
		Intervals:      iv.Intervals,
		Rejections:     findings,
	}
}

// judgeBenchmark is the pipeline of a reviewer benchmark (rules I8, G6):
//
//	validate  campaign, review files            → attempts, findings, raw criteria, adjudications
//	account   campaign                          → tokens, ledger
//	          ledger                            → commitment (accounted + held + reserved against the cap)
//	score     campaign, validated, accounted    → reviews, effective criteria, settled findings
//	aggregate campaign, scored, commitment      → metrics, gates, decision
//	intervals campaign, reviews                 → exploratory family-bootstrap intervals of the rates
//	                                            → the tables, and the commitment as the reports' figure
func judgeBenchmark(c *tables.Campaign, loaded rules.Findings, opts Options) (*tables.Set, tables.Figures) {
	opts.stage("validate")
	validated := validate.Benchmark(c, load.ReviewFiles(c))
	opts.stage("account")
	accounted := account.Run(c)
	commitment := account.Commit(&c.Manifest.Ceilings, accounted.Ledger, tables.BillingReference)
	opts.stage("score")
	scored := score.Benchmark(c, validated, accounted)
	opts.stage("aggregate")
	aggregated := aggregate.Benchmark(c, scored, commitment)
	var iv intervals.Out
	if !opts.SkipIntervals {
		opts.stage("intervals")
		iv = intervals.Benchmark(c, scored.Reviews, intervals.Options{})
	}
	findings := rules.CapFindings(slices.Concat(loaded, validated.Problems, accounted.Findings, scored.Problems, aggregated.Problems, iv.Findings))
	return &tables.Set{
		Cases:                validated.Cases,
		Reviews:              scored.Reviews,
		Criteria:             scored.Criteria,
		Findings:             scored.Findings,
		FindingAdjudications: validated.Adjudications,
		ReviewMetrics:        aggregated.Metrics,
		LabelQueue:           scored.LabelQueue,
		Tokens:               accounted.Tokens,
		Ledger:               accounted.Ledger,
		Ceilings:             accounted.Ceilings,
		Gates:                aggregated.Gates,
		Decision:             tables.ApplyRejections(aggregated.Decision, findings), // the one rule: any rejecting finding gives no_verdict
		Intervals:            iv.Intervals,
		Rejections:           findings,
	}, tables.Figures{Commitment: &commitment}
}
