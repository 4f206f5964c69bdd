package boot

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Golden vectors from the statistics notes §3 step 5, checked there on
// amd64, 386 and arm64; and dependencies.md's PCG(42,54) vector. They pin
// Go's PCG stream and our seeding, so a silent change in either fails here.
func TestSplitMix64Golden(t *testing.T) {
	if got := SplitMix64(0); got != 0xe220a8397b1dcdaf {
		t.Errorf("SplitMix64(0) = %#x, want 0xe220a8397b1dcdaf", got)
	}
	cases := []struct {
		name  string
		b     uint64
		s1    uint64
		draws []int
	}{
		{"resample0", 0, 0x7583469d048f3fc6, []int{19, 0, 6, 17, 11, 11, 13, 15}},
		{"resample1", 1, 0xb1b2a5f8dd519517, []int{12, 9, 13, 12, 16, 16, 10, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s1, s2 := ResampleSeeds(20241101, c.b)
			if s1 != c.s1 {
				t.Errorf("s1 = %#x, want %#x", s1, c.s1)
			}
			if want := SplitMix64(s1); s2 != want {
				t.Errorf("s2 = %#x, want SplitMix64(s1) = %#x", s2, want)
			}
			rr := newResampleRand()
			rr.reset(20241101, c.b)
			var got []int
			for range 8 {
				got = append(got, rr.r.IntN(20))
			}
			if !slices.Equal(got, c.draws) {
				t.Errorf("IntN(20)×8 = %v, want %v", got, c.draws)
			}
		})
	}
}

func TestPCGGolden(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 54))
	got := []uint64{r.Uint64(), r.Uint64(), uint64(r.IntN(1000)), uint64(r.IntN(1000))}
	want := []uint64{11927829408209368061, 7152502632958937874, 434, 251}
	if !slices.Equal(got, want) {
		t.Errorf("PCG(42,54) = %v, want %v", got, want)
	}
}

// A reused generator reseeded for resample b gives the same stream as a
// fresh one: worker reuse cannot leak state between resamples.
func TestResampleRandResetIsFresh(t *testing.T) {
	rr := newResampleRand()
	for b := range uint64(5) {
		rr.reset(7, b)
		fresh := rand.New(rand.NewPCG(ResampleSeeds(7, b)))
		for i := range 10 {
			if g, w := rr.r.IntN(1000), fresh.IntN(1000); g != w {
				t.Fatalf("resample %d draw %d: reused %d, fresh %d", b, i, g, w)
			}
		}
	}
}

// TestIndexerMatchesIntN checks that the inlined index draw gives exactly
// rand.Rand.IntN's sequence, for powers of two, small and large bounds and
// bounds where the rejection step matters.
func TestIndexerMatchesIntN(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 20, 1000, 10000, 1 << 20, 1<<31 - 1} {
		a, b := rand.NewPCG(20241101, uint64(n)), rand.NewPCG(20241101, uint64(n))
		r, ix := rand.New(a), newIndexer(n)
		for i := range 2000 {
			if want, got := r.IntN(n), ix.draw(b); want != got {
				t.Fatalf("n=%d draw %d: indexer %d, IntN %d", n, i, got, want)
			}
		}
	}
}
