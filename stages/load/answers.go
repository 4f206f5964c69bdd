package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"math"

	"github.com/evalgate/evalgate/tables"
)

// Answers returns the reader of c's raw answers: the one way later stages
// read an answer file. It reads through c.FS.
func Answers(c *tables.Campaign) tables.Answers { return answerFiles{fsys: c.FS} }

// answerFiles reads answers from a campaign directory.
type answerFiles struct{ fsys fs.FS }

// Decode is [Answer].
func (answerFiles) Decode(file string, data []byte) (*tables.Answer, tables.Findings) {
	return Answer(file, data)
}

// Read streams the output file, hashing it but keeping at most
// MaxAnswerBytes+1 bytes (so [Answer] reports the excess), and reading at
// most one byte more than the receipt's byte count.
func (a answerFiles) Read(out *tables.OutputRef) ([]byte, bool, error) {
	if a.fsys == nil {
		return nil, false, fs.ErrNotExist
	}
	f, err := a.fsys.Open(out.Path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	h := sha256.New()
	keep := min(max(out.Bytes, 0), MaxAnswerBytes) + 1
	kept := bytes.NewBuffer(make([]byte, 0, keep)) // grown once, not by doubling
	n, err := io.Copy(io.MultiWriter(h, &capWriter{kept, int(keep)}), io.LimitReader(f, readLimit(out.Bytes)))
	if err != nil {
		return nil, false, err
	}
	if n != out.Bytes || hex.EncodeToString(h.Sum(nil)) != out.SHA256 {
		return nil, false, nil
	}
	return kept.Bytes(), true, nil
}

// readLimit is one byte more than a receipt's byte count: enough to tell
// that a longer file does not match it.
func readLimit(receiptBytes int64) int64 {
	if receiptBytes < 0 {
		return 1
	}
	if receiptBytes == math.MaxInt64 {
		return receiptBytes
	}
	return receiptBytes + 1
}

// capWriter keeps the first max bytes written and discards the rest.
type capWriter struct {
	buf *bytes.Buffer
	max int
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
