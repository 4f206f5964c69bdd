package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"

	"github.com/evalgate/evalgate/tables"
)

// Answers returns the reader of c's raw answers (rule I6): the one way later stages
// read an answer file. It reads through c.FS.
func Answers(c *tables.Campaign) tables.Answers { return answerFiles{fsys: c.FS} }

// answerFiles reads answers from a campaign directory.
type answerFiles struct{ fsys fs.FS }

// Decode is [Answer].
func (answerFiles) Decode(file string, data []byte) (*tables.Answer, tables.Findings) {
	return Answer(file, data)
}

// Read reads the output file of a receipt through the confined reader
// (tables.OpenCampaignFile), never more than MaxAnswerBytes+1 bytes,
// whatever the receipt declares: a file whose size is not the receipt's
// byte count does not match without being read, and of an answer over the
// cap only the first MaxAnswerBytes+1 bytes are read, so [Answer] reports
// it too large (a fault of the model) while a sparse file of 2^53 bytes
// costs nothing. The hash is checked for every answer within the cap.
func (a answerFiles) Read(out *tables.OutputRef) ([]byte, bool, error) {
	if a.fsys == nil {
		return nil, false, fs.ErrNotExist
	}
	f, err := tables.OpenCampaignFile(a.fsys, out.Path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || info.Size() != out.Bytes {
		return nil, false, err
	}
	h := sha256.New()
	keep := min(out.Bytes, MaxAnswerBytes) + 1
	kept := bytes.NewBuffer(make([]byte, 0, keep)) // grown once, not by doubling
	n, err := io.Copy(io.MultiWriter(h, kept), io.LimitReader(f, keep))
	switch {
	case err != nil:
		return nil, false, err
	case out.Bytes > MaxAnswerBytes && n == keep:
		return kept.Bytes(), true, nil // over the cap: Answer refuses it by its size
	case n != out.Bytes || hex.EncodeToString(h.Sum(nil)) != out.SHA256:
		return nil, false, nil
	}
	return kept.Bytes(), true, nil
}
