package tables

import (
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// outputZstd is the compression codec of every output table: parquet-go's
// Zstd codec (parquet.Zstd) with the encoders it would build, hence the
// same bytes, but kept for the life of the process instead of in a
// sync.Pool. The pool is emptied by every second garbage collection, and
// each encoder built anew allocated its history window again (about 48 MB
// of the 390 MB a 10,000-session run allocated, in a few encoders'
// windows): here at most as many encoders exist as tables were ever
// compressed at once. Decoding is parquet.Zstd's.
var outputZstd = &keptZstd{}

// keptZstd is a zstd codec whose idle encoders are kept in free.
type keptZstd struct {
	mu   sync.Mutex
	free []*zstd.Encoder
}

func (c *keptZstd) String() string                            { return parquet.Zstd.String() }
func (c *keptZstd) CompressionCodec() format.CompressionCodec { return format.Zstd }

// Decode is parquet.Zstd's.
func (c *keptZstd) Decode(dst, src []byte) ([]byte, error) { return parquet.Zstd.Decode(dst, src) }

// Encode compresses src as one zstd frame appended to dst[:0], with the
// options of parquet.Zstd's encoders (its default level, concurrency 1,
// zero frames written, no checksum).
func (c *keptZstd) Encode(dst, src []byte) ([]byte, error) {
	e, err := c.get()
	if err != nil {
		return nil, err
	}
	out := e.EncodeAll(src, dst[:0])
	c.put(e)
	return out, nil
}

func (c *keptZstd) get() (*zstd.Encoder, error) {
	c.mu.Lock()
	if n := len(c.free); n > 0 {
		e := c.free[n-1]
		c.free = c.free[:n-1]
		c.mu.Unlock()
		return e, nil
	}
	c.mu.Unlock()
	return zstd.NewWriter(nil,
		zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderLevel(parquet.Zstd.Level),
		zstd.WithZeroFrames(true),
		zstd.WithEncoderCRC(false),
	)
}

func (c *keptZstd) put(e *zstd.Encoder) {
	c.mu.Lock()
	c.free = append(c.free, e)
	c.mu.Unlock()
}
