package load

import (
	"sync"

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
// never indexes them): it lists the outputs it meets, at most lookahead
// of them ahead of the caller, and the pool reads the first window of
// that list. A Read takes the first listed output equal to the one asked
// for (the same path, sha256 and byte count: the caller's receipts may be
// other values than the ones walked here), dropping the outputs listed
// before it, which the caller skipped. A Read of an output not listed (an
// output asked for a second time, or out of order) is served by the plain
// reader. Close stops the pool.
type Prefetch struct {
	plain answerFiles
	// window is how many listed outputs the pool reads ahead, lookahead
	// how many are listed (window ≤ lookahead).
	window, lookahead int

	mu   sync.Mutex
	cond *sync.Cond
	// ahead lists the outputs after the last one Read took, in receipt
	// order; the first issued of them are handed to the pool.
	ahead  []*prefetched
	issued int
	listed bool // every output is listed
	closed bool

	current *prefetched // the result of the last Read, for its Decode
	wg      sync.WaitGroup
}

// prefetched is one output read and, when it matches its receipt, decoded.
type prefetched struct {
	out      tables.OutputRef // a copy of the receipt's
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

// Prefetched starts reading and decoding c's answers with workers
// goroutines, at most window outputs ahead of the caller.
func Prefetched(c *tables.Campaign, workers, window int) *Prefetch {
	window = max(window, 1)
	p := &Prefetch{plain: answerFiles{fsys: c.FS}, window: window, lookahead: window * lookaheadPerWindow}
	p.cond = sync.NewCond(&p.mu)
	p.wg.Add(1)
	go p.list(c)
	for range max(workers, 1) {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

// list walks c's receipts in order and lists their outputs, never more
// than lookahead ahead of the caller.
func (p *Prefetch) list(c *tables.Campaign) {
	defer p.wg.Done()
	defer func() {
		p.mu.Lock()
		p.listed = true
		p.cond.Broadcast()
		p.mu.Unlock()
	}()
	for line := range c.Receipts.All() {
		out := line.Record.Output
		if out == nil {
			continue
		}
		p.mu.Lock()
		for !p.closed && len(p.ahead) >= p.lookahead {
			p.cond.Wait()
		}
		if p.closed {
			p.mu.Unlock()
			return
		}
		p.ahead = append(p.ahead, &prefetched{out: *out})
		p.cond.Broadcast()
		p.mu.Unlock()
	}
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
	k := copy(p.ahead, p.ahead[n:])
	clear(p.ahead[k:])
	p.ahead = p.ahead[:k]
	p.issued = max(p.issued-n, 0)
	p.cond.Broadcast()
}

// find returns the position in p.ahead of the first output equal to out,
// waiting while the list is still being filled up to lookahead, or -1. The
// caller holds p.mu.
func (p *Prefetch) find(out *tables.OutputRef) int {
	from := 0
	for {
		for j := from; j < len(p.ahead); j++ {
			if p.ahead[j].out == *out {
				return j
			}
		}
		if p.closed || p.listed || len(p.ahead) >= p.lookahead {
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
	p.mu.Unlock()
	p.wg.Wait()
	p.ahead, p.current = nil, nil
}
