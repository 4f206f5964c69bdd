package load

import (
	"sync"

	"github.com/evalgate/evalgate/tables"
)

// Prefetch is the answer reader of [Answers] that reads and decodes the
// outputs of a campaign's receipts ahead of its caller, on a bounded pool
// of goroutines, so that answers are decoded on every core while the
// caller checks them one at a time. It changes when an answer is decoded,
// never what is returned: each result is exactly Answers' for the same
// output, and the caller asks in its own order. The pool works at most
// window receipts ahead of the furthest output asked for; a result the
// caller skips is dropped, and a call that finds no prefetched result
// (out of order, or a second read of the same output) is served by the
// plain reader. Close stops the pool.
type Prefetch struct {
	plain answerFiles
	index map[*tables.OutputRef]int // receipt position of each output

	mu     sync.Mutex
	cond   *sync.Cond
	slots  []*prefetched // ready results, by position
	passed int           // positions below are asked for or skipped
	want   int           // the position Read waits for, or -1
	closed bool

	current *prefetched // the result of the last Read, for its Decode
	wg      sync.WaitGroup
}

// prefetched is one output read and, when it matches its receipt, decoded.
type prefetched struct {
	out      *tables.OutputRef
	data     []byte
	matches  bool
	err      error
	answer   *tables.Answer
	findings tables.Findings
	decoded  bool // Decode has not returned it yet
}

// Prefetched starts reading and decoding c's answers with workers
// goroutines, at most window receipts ahead of the caller.
func Prefetched(c *tables.Campaign, workers, window int) *Prefetch {
	p := &Prefetch{plain: answerFiles{fsys: c.FS}, index: map[*tables.OutputRef]int{}, slots: make([]*prefetched, len(c.Receipts)), want: -1}
	p.cond = sync.NewCond(&p.mu)
	var outs []int
	for i := range c.Receipts {
		if out := c.Receipts[i].Record.Output; out != nil {
			p.index[out] = i
			outs = append(outs, i)
		}
	}
	jobs := make(chan int)
	p.wg.Add(1)
	go func() { // the producer: positions in order, never more than window ahead
		defer p.wg.Done()
		defer close(jobs)
		for _, i := range outs {
			p.mu.Lock()
			for !p.closed && i >= p.passed+window {
				p.cond.Wait()
			}
			closed := p.closed
			p.mu.Unlock()
			if closed {
				return
			}
			jobs <- i
		}
	}()
	for range max(workers, 1) {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for i := range jobs {
				out := c.Receipts[i].Record.Output
				r := &prefetched{out: out}
				r.data, r.matches, r.err = p.plain.Read(out)
				if r.err == nil && r.matches {
					r.answer, r.findings = Answer(out.Path, r.data)
					r.decoded = true
				}
				p.mu.Lock()
				if i >= p.passed || i == p.want {
					p.slots[i] = r
				}
				p.cond.Broadcast()
				p.mu.Unlock()
			}
		}()
	}
	return p
}

// Read is [Answers]' Read, served from the prefetched result when there is
// one.
func (p *Prefetch) Read(out *tables.OutputRef) ([]byte, bool, error) {
	i, ok := p.index[out]
	p.mu.Lock()
	if !ok || i < p.passed || p.closed {
		p.mu.Unlock()
		p.current = nil
		return p.plain.Read(out)
	}
	for j := p.passed; j < i; j++ {
		p.slots[j] = nil // skipped: never asked for in order
	}
	p.passed, p.want = i+1, i
	p.cond.Broadcast()
	for p.slots[i] == nil {
		p.cond.Wait()
	}
	r := p.slots[i]
	p.slots[i], p.want = nil, -1
	p.mu.Unlock()
	p.current = r
	return r.data, r.matches, r.err
}

// Decode is [Answers]' Decode, served from the prefetched result when data
// is the bytes the last Read returned.
func (p *Prefetch) Decode(file string, data []byte) (*tables.Answer, tables.Findings) {
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
	p.slots, p.current = nil, nil
}
