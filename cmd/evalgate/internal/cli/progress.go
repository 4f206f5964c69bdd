package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
)

// Progress: while a long command runs, one status line on stderr — the
// stage, the campaign files opened and bytes read so far, of how many, and
// an ETA for the reading. It only observes: the campaign is read through a
// counting wrapper of the same file system, the stages report their names
// through stages.Options.Progress, and nothing reaches stdout or an
// output file. On by default when stderr is a terminal (the line is
// redrawn in place); --progress forces it (a line every few seconds),
// --progress=false silences it.

// progressFlag adds --progress to cmd and returns a function telling
// whether it is on for this invocation.
func progressFlag(cmd *cobra.Command, stderr io.Writer) func() bool {
	var on bool
	cmd.Flags().BoolVar(&on, "progress", false, "show stage, files, bytes and an ETA on stderr (default: on when stderr is a terminal)")
	return func() bool {
		if cmd.Flags().Changed("progress") {
			return on
		}
		return isTerminal(stderr)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	// A character device is not yet a terminal (/dev/null is one): the
	// terminal's own settings must be readable.
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && hasTermios(f)
}

// progress is the reporter of one command.
type progress struct {
	w        io.Writer
	terminal bool
	start    time.Time
	every    time.Duration

	files, read atomic.Int64
	total       atomic.Int64 // campaign bytes; 0 while unknown
	mu          sync.Mutex
	stage       string
	last        time.Time
	stop, done  chan struct{}
}

// startProgress starts reporting on w; dir is the campaign directory
// ("" for an embedded example), sized in the background for the ETA.
func startProgress(w io.Writer, dir string) *progress {
	p := &progress{w: w, terminal: isTerminal(w), start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	p.every = 2 * time.Second
	if p.terminal {
		p.every = 250 * time.Millisecond
	}
	if dir != "" {
		go func() { p.total.Store(dirBytes(dir)) }()
	}
	go p.loop()
	return p
}

func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func (p *progress) loop() {
	defer close(p.done)
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.print(false)
		}
	}
}

// Stage records the stage now running (stages.Options.Progress).
func (p *progress) Stage(name string) {
	p.mu.Lock()
	p.stage = name
	p.last = time.Time{} // a new stage is always shown
	p.mu.Unlock()
	p.print(false)
}

// Finish stops reporting and prints the final line.
func (p *progress) Finish() {
	close(p.stop)
	<-p.done
	p.print(true)
}

func (p *progress) print(final bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if !final && !p.terminal && now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	elapsed := now.Sub(p.start)
	files, read, total := p.files.Load(), p.read.Load(), p.total.Load()
	line := fmt.Sprintf("evalgate: %s · %d files opened · %s read", p.stage, files, mib(read))
	if total > 0 {
		// Some files are read more than once, so the ETA is of the
		// first pass over the campaign's bytes.
		line += " of a " + mib(total) + " campaign"
		if !final && read > 0 && read < total {
			eta := time.Duration(float64(elapsed) * float64(total-read) / float64(read))
			line += " · reading ETA " + eta.Round(time.Second).String()
		}
	}
	line += " · " + elapsed.Round(100*time.Millisecond).String()
	if final {
		line = fmt.Sprintf("evalgate: done in %s · %d files opened · %s read", elapsed.Round(100*time.Millisecond), files, mib(read))
	}
	switch {
	case p.terminal && final:
		fmt.Fprintf(p.w, "\r%s\x1b[K\n", line)
	case p.terminal:
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	default:
		fmt.Fprintln(p.w, line)
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// FS wraps fsys so that every file opened and byte read is counted.
func (p *progress) FS(fsys fs.FS) fs.FS { return countingFS{fsys, p} }

type countingFS struct {
	fs.FS
	p *progress
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	c.p.files.Add(1)
	return countingFile{f, c.p}, nil
}

func (c countingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

type countingFile struct {
	fs.File
	p *progress
}

func (f countingFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.p.read.Add(int64(n))
	return n, err
}

func (f countingFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := f.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	return nil, &fs.PathError{Op: "readdir", Path: "", Err: fs.ErrInvalid}
}

// watch starts a reporter for a campaign read from fsys when on, and
// returns the file system to read through and the stage hook to set in
// stages.Options; finish (never nil) stops it.
func watch(on bool, stderr io.Writer, args []string, fsys fs.FS) (watched fs.FS, stage func(string), finish func()) {
	if !on {
		return fsys, nil, func() {}
	}
	dir := ""
	if len(args) == 1 {
		dir = args[0]
	}
	p := startProgress(stderr, dir)
	var once sync.Once
	return p.FS(fsys), p.Stage, func() { once.Do(p.Finish) }
}
