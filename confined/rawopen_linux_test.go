package confined

import (
	"io"
	"testing"
)

// TestOpenRawBeneath: a plain path of several elements is opened by
// openRawBeneath, not os.Root, when no symlink lies on its way and it
// names a regular file; anything else is left to the os.Root path
// (TestCampaignDirConfines checks what that path then says).
func TestOpenRawBeneath(t *testing.T) {
	d := confinedDir(t)
	fd := d.topFD()
	if fd < 0 {
		t.Fatal("the campaign's directory did not open as a descriptor")
	}
	f, info, ok := openRawBeneath(fd, "sub", "file")
	if !ok {
		t.Fatal("sub/file: not opened by openRawBeneath")
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(data) != "hello\n" || info.Size() != 6 || info.Name() != "file" {
		t.Errorf("sub/file: read %q, %v, info %s of %d bytes", data, err, info.Name(), info.Size())
	}
	for _, p := range [][2]string{
		{"link", "file"},     // a symlink on the way
		{"sub/up", "secret"}, // one leaving the campaign
		{"sub", "inside"},    // the file itself a symlink
		{"sub", "fifo"},      // not regular
		{"sub", "missing"},   // missing
		{"out", "secret"},    // out of the campaign
		{"missing", "file"},  // a missing directory
	} {
		if f, _, ok := openRawBeneath(fd, p[0], p[1]); ok {
			f.Close()
			t.Errorf("%s/%s: opened by openRawBeneath; want it left to the os.Root path", p[0], p[1])
		}
	}
}
