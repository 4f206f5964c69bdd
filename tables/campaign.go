package tables

import (
	"errors"
	"io/fs"

	"github.com/evalgate/evalgate/spool"
)

// Campaign is the loaded input of one campaign: every input table decoded
// strictly by stages/load. Answers are not held in memory: stages read them
// one at a time through FS, so memory is bounded by the output tables.
type Campaign struct {
	FS             fs.FS  // the campaign directory
	Name           string // for messages: the directory name or "example:NAME"
	ManifestSHA256 string // sha256 of manifest.json's bytes: the campaign identity
	Manifest       Manifest
	Tasks          []LoadedTask      // in manifest order
	Sources        map[string][]byte // sha256 hex → bytes of sources/<sha256>, those packets reference
	Prompts        map[string][]byte // prompt ID → bytes
	// Receipts are the lines of receipts.jsonl in file order, held
	// encoded (see [spool.Spool]); stages iterate them with All.
	Receipts *spool.Spool[Line[Receipt]]
	// Adjudications are the lines of adjudications.jsonl in file order,
	// held encoded (see [spool.Spool]); stages iterate them with All.
	Adjudications *spool.Spool[Line[Adjudication]]
	// Observations holds, for kind system-comparison, the raw-observation
	// packet of every investigation session that returned one, by session
	// ID (read and checked by stages/load). Only looked up, never iterated
	// into output.
	Observations map[string]*Packet
	// ObservationTokens is each readable observation log's packet_tokens
	// (the recorder's count under the frozen tokenizer), by session ID.
	ObservationTokens map[string]int64
	Unblinding        *Unblinding // unblinding.json; nil when the campaign has none
	// Benchmark holds the cases, task files and finding adjudications of
	// kind reviewer-benchmark (see tables/rbench.go); nil for other kinds.
	Benchmark *Benchmark
	// dropped is the error of the input spools dropped so far (Drop*).
	dropped error
}

// DropReceipts releases the receipts once their last reader is done,
// keeping their spool's error for Err.
func (c *Campaign) DropReceipts() {
	c.dropped = errors.Join(c.dropped, c.Receipts.Err())
	c.Receipts = nil
}

// DropAdjudications releases the adjudications once their last reader is
// done, keeping their spool's error for Err.
func (c *Campaign) DropAdjudications() {
	c.dropped = errors.Join(c.dropped, c.Adjudications.Err())
	c.Adjudications = nil
}

// Err is the error of the campaign's input spools (receipts and
// adjudications, held or dropped), joined, or nil: a record that could not
// be stored or read back ended an iteration early, so a stage saw fewer
// records than the file holds and nothing computed from them may be
// reported (see [spool.Spool.Err]).
func (c *Campaign) Err() error {
	return errors.Join(c.dropped, c.Receipts.Err(), c.Adjudications.Err())
}

// LoadedTask is one task's frozen files.
type LoadedTask struct {
	Spec        TaskSpec
	Text        []byte // task file bytes
	PacketBytes []byte // packet file bytes, as rendered into EVIDENCE_PACKET
	Packet      Packet
	Truth       Truth
}

// Line is a record of a JSONL file with its 1-based line number.
type Line[T any] struct {
	Line   int64
	Record T
}

// Task returns the loaded task with the given ID, or nil.
func (c *Campaign) Task(id string) *LoadedTask {
	for i := range c.Tasks {
		if c.Tasks[i].Spec.ID == id {
			return &c.Tasks[i]
		}
	}
	return nil
}

// EditReceipts replaces the receipts with edit of every one of them, in
// file order, rebuilt as a spool (spool.Of). It holds every receipt as a Go
// value while edit runs: it is for tests and tools that change a loaded
// campaign in memory, never for a stage.
func (c *Campaign) EditReceipts(edit func(rs []Line[Receipt]) []Line[Receipt]) {
	c.Receipts = spool.Of(edit(c.Receipts.Collect())...)
}
