package load

import (
	"iter"
	"sync"
	"sync/atomic"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Prefetch is the answer reader of [Answers] that reads and decodes the
// outputs of a campaign's receipts ahead of its caller, on a bounded pool
// of goroutines, so that answers are decoded on every core while the
// caller checks them one at a time. It changes when an answer is decoded,
// never what is returned: each result is exactly Answers' for the same
// output, and the caller asks in its own order.
//
// The prefetcher walks the receipts itself, in one pass of its own (it
// never indexes them), which starts at the first Read or Receipts: it
// lists the outputs it meets, at most lookahead of them ahead of the
// caller, and the pool reads the first window of that list. A Read takes
// the first listed output equal to the one asked for (the same path,
// sha256 and byte count: the caller's receipts may be other values than
// the ones walked here), dropping the outputs listed before it, which the
// caller skipped. A Read of an output not listed (an output asked for a
// second time, or out of order) is served by the plain reader. Close
// stops the pool.
//
// A caller that walks the receipts itself may walk them through Receipts
// instead, called before any Read: it yields the very receipts the
// prefetcher's pass decodes, so that they are decoded once, not twice.
type Prefetch struct {
	plain answerFiles
	c     *tables.Campaign
	// window is how many listed outputs the pool reads ahead, lookahead
	// how many are listed (window ≤ lookahead).
	window, lookahead int
	workers           int
	start             sync.Once

	mu   sync.Mutex
	cond *sync.Cond
	// ahead lists the outputs after the last one Read took, in receipt
	// order; the first issued of them are handed to the pool.
	ahead  []*prefetched
	issued int
	listed bool // every output is listed
	closed bool
	// shared is whether the pass hands its receipts to the caller
	// (Receipts): queue holds those decoded and not yet taken, walked
	// counts the receipts the pass decoded, taken those the caller began
	// (a receipt's place in the file, from 0, is its ordinal).
	// The caller waits on more until batch receipts are queued, the pass
	// waits (waiting) or ends.
	shared  bool
	queue   []tables.Line[tables.Receipt]
	walked  int
	taken   atomic.Int64
	more    *sync.Cond
	waiting bool

	current *prefetched // the result of the last Read, for its Decode
	wg      sync.WaitGroup
}

// prefetched is one output read and, when it matches its receipt, decoded.
type prefetched struct {
	out      tables.OutputRef // a copy of the receipt's
	ord      int              // the ordinal of its receipt
	ready    bool             // read (and decoded) by the pool
	data     []byte
	matches  bool
	err      error
	answer   *tables.Answer
	findings rules.Findings
	decoded  bool // Decode has not returned it yet
}

// lookaheadPerWindow is how many outputs are listed per output read ahead:
// a caller that skips fewer outputs than window × lookaheadPerWindow in a
// row keeps being served by the pool.
const lookaheadPerWindow = 64

// receiptBatch is how many receipts the caller of Receipts takes at a
// time, so that it is not woken for each.
const receiptBatch = 64

// Prefetched starts reading and decoding c's answers with workers
// goroutines, at most window outputs ahead of the caller, from the first
// Read or Receipts on.
func Prefetched(c *tables.Campaign, workers, window int) *Prefetch {
	window = max(window, 1)
	p := &Prefetch{plain: answerFiles{fsys: c.FS}, c: c, window: window, lookahead: window * lookaheadPerWindow, workers: max(workers, 1)}
	p.cond, p.more = sync.NewCond(&p.mu), sync.NewCond(&p.mu)
	return p
}

// begin starts the pass and the pool, once: shared says whether the pass
// hands its receipts to the caller.
func (p *Prefetch) begin(shared bool) {
	p.start.Do(func() {
		p.mu.Lock()
		closed := p.closed
		p.shared = shared
		p.mu.Unlock()
		if closed {
			return
		}
		p.wg.Add(1)
		go p.list(p.c)
		for range p.workers {
			p.wg.Add(1)
			go p.work()
		}
	})
}

// Receipts yields c's receipts in order, those the prefetcher's own pass
// decodes, holding at most lookahead of them ahead of the caller. Called
// after a Read (the pass already walking on its own), it is
// c.Receipts.All().
func (p *Prefetch) Receipts() iter.Seq[tables.Line[tables.Receipt]] {
	p.begin(true)
	p.mu.Lock()
	shared := p.shared
	p.mu.Unlock()
	if !shared {
		return p.c.Receipts.All()
	}
	return func(yield func(tables.Line[tables.Receipt]) bool) {
		var batch []tables.Line[tables.Receipt]
		for {
			p.mu.Lock()
			if len(p.queue) < receiptBatch {
				p.cond.Broadcast() // the pass may be waiting on the outputs of receipts taken since
			}
			for len(p.queue) < receiptBatch && !(p.waiting && len(p.queue) > 0) && !p.listed && !p.closed {
				p.more.Wait()
			}
			if len(p.queue) == 0 {
				p.mu.Unlock()
				return
			}
			batch, p.queue = p.queue, batch[:0] // the pass fills the emptied batch
			p.cond.Broadcast()
			p.mu.Unlock()
			for i := range batch {
				p.taken.Add(1)
				if !yield(batch[i]) {
					return
				}
				batch[i] = tables.Line[tables.Receipt]{} // keeps nothing taken
			}
		}
	}
}

// list walks c's receipts in order and lists their outputs, never more
// than lookahead ahead of the caller; shared, it also queues every
// receipt for Receipts, at most lookahead of them.
func (p *Prefetch) list(c *tables.Campaign) {
	defer p.wg.Done()
	defer func() {
		p.mu.Lock()
		p.listed = true
		p.cond.Broadcast()
		p.more.Broadcast()
		p.mu.Unlock()
	}()
	for line := range c.Receipts.All() {
		out := line.Record.Output
		if out == nil && !p.shared {
			continue
		}
		p.mu.Lock()
		for !p.closed && p.full() {
			p.waiting = true
			p.more.Signal()
			p.cond.Wait()
		}
		p.waiting = false
		if p.closed {
			p.mu.Unlock()
			return
		}
		if out != nil {
			p.ahead = append(p.ahead, &prefetched{out: *out, ord: p.walked})
		}
		if p.shared {
			p.queue = append(p.queue, line)
		}
		p.walked++
		if out != nil {
			p.cond.Broadcast() // for the pool
		}
		if len(p.queue) == receiptBatch {
			p.more.Signal()
		}
		p.mu.Unlock()
	}
}

// full reports whether the pass must wait for the caller. Shared, the
// outputs of the receipts before the one the caller is at are dropped
// first (the caller skipped them), so that a caller taking receipts
// without reading their outputs never waits on a pass that waits on it.
// The caller holds p.mu.
func (p *Prefetch) full() bool {
	if !p.shared {
		return len(p.ahead) >= p.lookahead
	}
	if len(p.queue) >= p.lookahead {
		return true
	}
	if len(p.ahead) >= p.lookahead {
		at, n := int(p.taken.Load())-1, 0
		for n < len(p.ahead) && p.ahead[n].ord < at {
			n++
		}
		p.drop(n)
	}
	return len(p.ahead) >= p.lookahead
}

// work reads and decodes listed outputs, the first window of the list,
// until every output is read or the pool is closed.
func (p *Prefetch) work() {
	defer p.wg.Done()
	for {
		p.mu.Lock()
		for !p.closed && p.issued >= min(len(p.ahead), p.window) && !(p.listed && p.issued == len(p.ahead)) {
			p.cond.Wait()
		}
		if p.closed || p.issued == len(p.ahead) {
			p.mu.Unlock()
			return
		}
		r := p.ahead[p.issued]
		p.issued++
		p.mu.Unlock()
		data, matches, err := p.plain.Read(&r.out)
		var answer *tables.Answer
		var findings rules.Findings
		if err == nil && matches {
			answer, findings = answerOwned(r.out.Path, data) // data is the reader's own buffer, never modified
		}
		p.mu.Lock()
		r.data, r.matches, r.err = data, matches, err
		r.answer, r.findings, r.decoded = answer, findings, err == nil && matches
		r.ready = true
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

// Read is [Answers]' Read, served from the prefetched result when there is
// one.
func (p *Prefetch) Read(out *tables.OutputRef) ([]byte, bool, error) {
	p.begin(false)
	p.mu.Lock()
	j := p.find(out)
	if j < 0 || p.closed {
		p.mu.Unlock()
		p.current = nil
		return p.plain.Read(out)
	}
	r := p.ahead[j]
	p.drop(j)           // the outputs before r were skipped
	for p.issued == 0 { // r is next: the first worker free reads it
		p.cond.Wait()
	}
	p.drop(1)
	for !r.ready {
		p.cond.Wait()
	}
	p.mu.Unlock()
	p.current = r
	return r.data, r.matches, r.err
}

// drop removes the first n listed outputs. The caller holds p.mu.
func (p *Prefetch) drop(n int) {
	if n == 0 {
		return
	}
	k := copy(p.ahead, p.ahead[n:])
	clear(p.ahead[k:])
	p.ahead = p.ahead[:k]
	p.issued = max(p.issued-n, 0)
	p.cond.Broadcast()
}

// find returns the position in p.ahead of the first output equal to out,
// waiting while the list is still being filled up to lookahead, or -1.
// Shared, it never waits: the pass has listed the output of every
// receipt the caller holds, and may be waiting for the caller. The
// caller holds p.mu.
func (p *Prefetch) find(out *tables.OutputRef) int {
	from := 0
	for {
		for j := from; j < len(p.ahead); j++ {
			if p.ahead[j].out == *out {
				return j
			}
		}
		if p.closed || p.listed || p.shared || len(p.ahead) >= p.lookahead {
			return -1
		}
		from = len(p.ahead)
		p.cond.Wait()
	}
}

// Decode is [Answers]' Decode, served from the prefetched result when data
// is the bytes the last Read returned.
func (p *Prefetch) Decode(file string, data []byte) (*tables.Answer, rules.Findings) {
	if r := p.current; r != nil && r.decoded && file == r.out.Path && len(data) > 0 && len(data) == len(r.data) && &data[0] == &r.data[0] {
		r.decoded = false
		return r.answer, r.findings
	}
	return Answer(file, data)
}

// Close stops the pool and waits for it.
func (p *Prefetch) Close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.more.Broadcast()
	p.mu.Unlock()
	p.wg.Wait()
	p.ahead, p.current, p.queue = nil, nil, nil
}
