package confined

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// countingReader counts the reads made of r.
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(b []byte) (int, error) {
	c.reads++
	return c.r.Read(b)
}

func TestReadSized(t *testing.T) {
	data := []byte("0123456789")
	for _, tc := range []struct {
		name string
		r    func() io.Reader
		room int   // len(buf)
		size int64 // what Stat reported
		// want is what is read; reads how many reads of the
		// counting reader it takes (0: not counted)
		want  string
		reads int
	}{
		// the file as reported, with a byte of room more: one read, no
		// second read for the end
		{"whole", func() io.Reader { return bytes.NewReader(data) }, 11, 10, "0123456789", 1},
		{"empty", func() io.Reader { return bytes.NewReader(nil) }, 1, 0, "", 1},
		// a file that grew past its reported size fills the byte of room
		{"grew", func() io.Reader { return bytes.NewReader(data) }, 9, 8, "012345678", 1},
		// a file shorter than reported ends at its end
		{"shrank", func() io.Reader { return bytes.NewReader(data[:4]) }, 11, 10, "0123", 2},
		// reads that return less before size are read on
		{"short reads", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) }, 11, 10, "0123456789", 10},
		{"half reads", func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) }, 11, 10, "0123456789", 0},
		// a reader that reports the end with its last bytes
		{"data and EOF", func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) }, 11, 10, "0123456789", 1},
		// a size larger than the room (over a cap): read until full
		{"over the cap", func() io.Reader { return bytes.NewReader(data) }, 5, 10, "01234", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &countingReader{r: tc.r()}
			buf := make([]byte, tc.room)
			n, err := ReadSized(c, buf, tc.size)
			if err != nil || string(buf[:n]) != tc.want {
				t.Fatalf("ReadSized = %q, %v; want %q, nil", buf[:n], err, tc.want)
			}
			if tc.reads > 0 && c.reads != tc.reads {
				t.Errorf("%d reads, want %d", c.reads, tc.reads)
			}
		})
	}
}

func TestReadSizedError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(bytes.NewReader([]byte("0123")), iotest.ErrReader(boom))
	buf := make([]byte, 11)
	n, err := ReadSized(r, buf, 10)
	if !errors.Is(err, boom) || string(buf[:n]) != "0123" {
		t.Fatalf("ReadSized = %q, %v; want %q, %v", buf[:n], err, "0123", boom)
	}
}

// TestReadBoundedOneRead checks that a campaign file of the size it
// reports is read whole by one read of the open file (through os.Root and
// through the raw opener) and that a file bigger than its cap is still
// refused.
func TestReadBoundedOneRead(t *testing.T) {
	dir := t.TempDir()
	body := bytes.Repeat([]byte("line\n"), 1000)
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenCampaignDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, open := range []struct {
		name string
		open func() (io.ReadCloser, error)
	}{
		{"Open", func() (io.ReadCloser, error) { return d.Open("f.txt") }},
		{"OpenCampaignFileReader", func() (io.ReadCloser, error) {
			f, _, err := OpenCampaignFileReader(d, "f.txt")
			return f, err
		}},
	} {
		f, err := open.open()
		if err != nil {
			t.Fatal(err)
		}
		c := &countingReader{r: f}
		buf := make([]byte, len(body)+1)
		n, err := ReadSized(c, buf, int64(len(body)))
		f.Close()
		if err != nil || !bytes.Equal(buf[:n], body) || c.reads != 1 {
			t.Errorf("%s: ReadSized read %d bytes in %d reads, %v; want %d in 1", open.name, n, c.reads, err, len(body))
		}
	}
	if _, err := ReadCampaignFile(d, "f.txt", int64(len(body))-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadCampaignFile over its cap: %v, want ErrTooLarge", err)
	}
	if got, err := ReadCampaignFile(d, "f.txt", int64(len(body))); err != nil || !bytes.Equal(got, body) {
		t.Errorf("ReadCampaignFile at its cap: %d bytes, %v", len(got), err)
	}
}
