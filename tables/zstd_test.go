package tables

import (
	"bytes"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestOutputZstdIsParquetZstd checks that the output codec compresses
// exactly as parquet-go's own Zstd codec (the oracle) does, on inputs of
// every size class, from goroutines sharing it, and that what it writes
// decodes back.
func TestOutputZstdIsParquetZstd(t *testing.T) {
	rng := rand.New(rand.NewPCG(741, 2))
	var inputs [][]byte
	for _, n := range []int{0, 1, 63, 4096, 128 << 10, 1<<20 + 7} {
		b := make([]byte, n)
		for i := range b {
			b[i] = "aab\x00c"[rng.IntN(5)] // compressible, not constant
		}
		inputs = append(inputs, b)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, in := range inputs {
				want, err := parquet.Zstd.Encode(nil, in)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := outputZstd.Encode(make([]byte, 3), in)
				if err != nil {
					t.Error(err)
					return
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%d bytes: compressed to %d bytes, parquet.Zstd to %d (or other bytes)", len(in), len(got), len(want))
				}
				back, err := outputZstd.Decode(nil, got)
				if err != nil || !bytes.Equal(back, in) {
					t.Errorf("%d bytes: decoded to %d bytes, %v", len(in), len(back), err)
				}
			}
		})
	}
	wg.Wait()
	if outputZstd.String() != parquet.Zstd.String() || outputZstd.CompressionCodec() != parquet.Zstd.CompressionCodec() {
		t.Errorf("codec %s/%v, want parquet.Zstd's %s/%v", outputZstd, outputZstd.CompressionCodec(), parquet.Zstd.String(), parquet.Zstd.CompressionCodec())
	}
}
