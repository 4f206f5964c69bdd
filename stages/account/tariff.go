package account

import "github.com/evalgate/evalgate/tables"

// Tariff is a manifest rate card with exact per-token prices in pico-units.
// A nil price means the bucket is not priced (null in the manifest, or a
// price that does not parse): any token in it makes the cost unknown.
type Tariff struct {
	ID            string
	Currency      string
	UncachedInput *int64
	CachedInput   *int64
	CacheWrite5m  *int64
	CacheWrite1h  *int64
	Output        *int64
}

// NewTariff converts a rate card. Prices were checked by stages/load; a
// price that still fails to parse is treated as missing, never as zero.
func NewTariff(card tables.RateCard) Tariff {
	return Tariff{
		ID:            card.ID,
		Currency:      card.Currency,
		UncachedInput: priceOrNil(&card.Prices.UncachedInput),
		CachedInput:   priceOrNil(card.Prices.CachedInput),
		CacheWrite5m:  priceOrNil(card.Prices.CacheWrite5m),
		CacheWrite1h:  priceOrNil(card.Prices.CacheWrite1h),
		Output:        priceOrNil(&card.Prices.Output),
	}
}

func priceOrNil(s *string) *int64 {
	if s == nil {
		return nil
	}
	p, ok := perTokenPrice(*s)
	if !ok {
		return nil
	}
	return &p
}

// tariffs indexes the manifest's rate cards by ID. The first card with an
// ID wins (load refuses duplicates).
func tariffs(m *tables.Manifest) map[string]Tariff {
	out := make(map[string]Tariff, len(m.RateCards))
	for _, card := range m.RateCards {
		if _, dup := out[card.ID]; !dup {
			out[card.ID] = NewTariff(card)
		}
	}
	return out
}

// Price is the outcome of pricing one set of buckets.
type Price struct {
	Cost     *tables.Money // nil unless every bucket with tokens has a price
	Unpriced []string      // names of buckets with tokens and no price
	Overflow bool
}

// PriceOf computes the exact reference cost of b under t (rule A2):
// uncached×in + cached×read + write5m×w5m + write1h×w1h + output×out.
// Reasoning is inside output and never added again.
func PriceOf(b Buckets, t Tariff) Price {
	terms := []struct {
		name   string
		tokens int64
		price  *int64
	}{
		{"uncached_input", b.UncachedInput, t.UncachedInput},
		{"cached_input", b.CachedInput, t.CachedInput},
		{"cache_write_5m", b.CacheWrite5m, t.CacheWrite5m},
		{"cache_write_1h", b.CacheWrite1h, t.CacheWrite1h},
		{"output", b.Output, t.Output},
	}
	var p Price
	var total int64
	for _, term := range terms {
		if term.tokens == 0 {
			continue
		}
		if term.price == nil {
			p.Unpriced = append(p.Unpriced, term.name)
			continue
		}
		c, ok := mulChecked(term.tokens, *term.price)
		if ok {
			total, ok = addChecked(total, c)
		}
		if !ok {
			p.Overflow = true
			return p
		}
	}
	if len(p.Unpriced) == 0 {
		p.Cost = ptrMoney(tables.Money(total))
	}
	return p
}

// worstInputPrice is the highest priced input bucket: the per-token bound
// an admission reserves for every input token, since the request may be
// served from any bucket the card prices. Unpriced cache buckets do not
// raise it (rule A2: no cache-write modifiers in Codex accounting).
func (t Tariff) worstInputPrice() *int64 {
	var worst *int64
	for _, p := range []*int64{t.UncachedInput, t.CachedInput, t.CacheWrite5m, t.CacheWrite1h} {
		if p != nil && (worst == nil || *p > *worst) {
			worst = p
		}
	}
	if t.UncachedInput == nil {
		return nil
	}
	return worst
}
