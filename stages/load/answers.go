package load

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"

	"github.com/evalgate/evalgate/confined"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Answers returns the reader of c's raw answers (rule I6): the one way later stages
// read an answer file. It reads through c.FS.
func Answers(c *tables.Campaign) tables.Answers { return answerFiles{fsys: c.FS} }

// answerFiles reads answers from a campaign directory.
type answerFiles struct{ fsys fs.FS }

// Decode is [Answer].
func (answerFiles) Decode(file string, data []byte) (*tables.Answer, rules.Findings) {
	return Answer(file, data)
}

// Read reads the output file of a receipt through the confined reader
// (confined.OpenCampaignFile), never more than MaxAnswerBytes+1 bytes,
// whatever the receipt declares: a file whose size is not the receipt's
// byte count does not match without being read, and of an answer over the
// cap only the first MaxAnswerBytes+1 bytes are read, so [Answer] reports
// it too large (a fault of the model) while a sparse file of 2^53 bytes
// costs nothing. The hash is checked for every answer within the cap.
func (a answerFiles) Read(out *tables.OutputRef) ([]byte, bool, error) {
	if a.fsys == nil {
		return nil, false, fs.ErrNotExist
	}
	f, info, err := confined.OpenCampaignFileReader(a.fsys, out.Path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if info.Size() != out.Bytes {
		return nil, false, nil
	}
	kept := make([]byte, min(out.Bytes, MaxAnswerBytes)+1) // one allocation, read into directly
	n, err := confined.ReadSized(f, kept, out.Bytes)       // by one read when the file is whole
	switch {
	case err != nil:
		return nil, false, err
	case out.Bytes > MaxAnswerBytes && n == len(kept):
		return kept, true, nil // over the cap: Answer refuses it by its size
	case int64(n) != out.Bytes || !sha256Is(kept[:n], out.SHA256):
		return nil, false, nil
	}
	return kept[:n], true, nil
}

// sha256Is reports whether data's sha256 is the lowercase hex digest want.
func sha256Is(data []byte, want string) bool {
	sum := sha256.Sum256(data)
	var hexSum [2 * sha256.Size]byte
	hex.Encode(hexSum[:], sum[:])
	return string(hexSum[:]) == want
}
