package boot

import (
	"math/bits"
	"math/rand/v2"
)

// RNGName identifies the random stream of the family bootstrap; it is
// written next to every interval so a reader can reproduce it.
const RNGName = "pcg128dxsm+splitmix64-per-resample/v1"

// SplitMix64 is one step of Steele, Lea and Flood's SplitMix64 generator
// applied to state x: it adds the golden gamma and mixes. SplitMix64(0) is
// 0xe220a8397b1dcdaf.
func SplitMix64(x uint64) uint64 {
	z := x + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// ResampleSeeds returns the two PCG seeds of resample b under the campaign
// seed: s1 = SplitMix64(seed XOR SplitMix64(b)), s2 = SplitMix64(s1).
func ResampleSeeds(seed, b uint64) (s1, s2 uint64) {
	s1 = SplitMix64(seed ^ SplitMix64(b))
	return s1, SplitMix64(s1)
}

// resampleRand is one worker's generator, reseeded for every resample so
// that resample b's draws depend on (seed, b) only.
type resampleRand struct {
	pcg *rand.PCG
	r   *rand.Rand
}

func newResampleRand() *resampleRand {
	pcg := rand.NewPCG(0, 0)
	return &resampleRand{pcg: pcg, r: rand.New(pcg)}
}

// reset positions the generator at the start of resample b's stream.
func (rr *resampleRand) reset(seed, b uint64) {
	rr.pcg.Seed(ResampleSeeds(seed, b))
}

// indexer draws uniform indices in [0, n) from a PCG exactly as
// rand.New(pcg).IntN(n) does (Lemire's multiply-shift with rejection, the
// same sequence on 32- and 64-bit machines), without the interface call
// per draw. TestIndexerMatchesIntN pins the equivalence.
type indexer struct {
	n, thresh uint64
	pow2      bool
}

func newIndexer(n int) indexer {
	u := uint64(n)
	return indexer{n: u, thresh: -u % u, pow2: u&(u-1) == 0}
}

func (ix indexer) draw(pcg *rand.PCG) int {
	if ix.pow2 {
		return int(pcg.Uint64() & (ix.n - 1))
	}
	hi, lo := bits.Mul64(pcg.Uint64(), ix.n)
	for lo < ix.thresh {
		hi, lo = bits.Mul64(pcg.Uint64(), ix.n)
	}
	return int(hi)
}
