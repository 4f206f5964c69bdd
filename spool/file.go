package spool

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// FileAfter is how many encoded bytes a [Spool] keeps in memory, unless
// its [Config] says otherwise: once its chunks pass it, they are moved to a
// temporary file of the spool's own and every later chunk is appended
// there, so that a large table costs the merge's few buffers rather than
// its encoded size.
//
// The file is made by os.CreateTemp("", "evalgate-spool-*") and removed at
// once: where the system allows removing an open file (Linux, the BSDs,
// macOS) it has no name from then on, its space is freed when the spool is
// garbage collected (the *os.File's cleanup closes it) or the process
// ends, however it ends, and nothing is ever left behind. Where removing
// an open file fails (Windows), or the file cannot be created or written
// (no temporary directory, a full disk), the spool keeps its chunks in
// memory as it did before: the run is the same, only its memory larger.
// Reading a chunk back that was written can still fail (an I/O error of
// the disk); the spool then stops, its Err reports the failure, and a
// writer of its rows returns it. Where the temporary directory is a tmpfs
// (some systems mount /tmp so), the file's pages are still the machine's
// memory, though not the process's: TMPDIR on a disk keeps a large run
// off it.
const FileAfter int64 = 4 << 20

// Config tunes one spool (see [NewWith]); the zero Config, which [New]
// and the zero Spool use, is the default. Tests use it to send a small
// table through the codec, the file and a file that fails.
type Config struct {
	// ChunkRows is how many rows are held as Go values before they are
	// sorted and encoded as a chunk; 0 is [ChunkRows].
	ChunkRows int
	// FileAfter is how many encoded bytes stay in memory before the
	// chunks move to a file; 0 is [FileAfter], a negative value puts every
	// chunk on file.
	FileAfter int64
	// File makes the spool's file; nil is [TempFile]. An error keeps the
	// spool in memory.
	File func() (File, error)
}

func (c Config) chunkRows() int {
	if c.ChunkRows > 0 {
		return c.ChunkRows
	}
	return ChunkRows
}

func (c Config) fileAfter() int64 {
	switch {
	case c.FileAfter < 0:
		return 0
	case c.FileAfter == 0:
		return FileAfter
	}
	return c.FileAfter
}

// spoolReadAhead is how many bytes of a chunk on file the merge reads at a
// time (one buffer per chunk; more when one block is larger).
const spoolReadAhead = 64 << 10

// spoolChunk is one encoded chunk: in memory, or at off in the file.
type spoolChunk struct {
	onFile bool
	mem    []byte // in memory: the chunk
	off    int64  // on file: where it starts
	size   int64
}

// File is where a spool's chunks go past its FileAfter: read and written
// at offsets only, from several goroutines at once (an *os.File is).
type File interface {
	io.ReaderAt
	io.WriterAt
}

// TempFile makes a spool's file: a temporary file without a name (see
// [FileAfter]).
func TempFile() (File, error) {
	f, err := os.CreateTemp("", "evalgate-spool-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil { // an open file cannot lose its name here: never leave one behind
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// spoolStore holds a spool's encoded chunks.
type spoolStore struct {
	chunks  []spoolChunk
	bytes   int64 // encoded bytes of every chunk
	cfg     Config
	file    File  // nil until the chunks pass the config's FileAfter
	end     int64 // bytes written to file
	memOnly bool  // the file could not be made or written: chunks stay in memory
}

// add stores an encoded chunk; chunk is the encoder's scratch, copied.
func (st *spoolStore) add(chunk []byte) {
	st.bytes += int64(len(chunk))
	if st.file == nil && !st.memOnly && st.bytes > st.cfg.fileAfter() {
		st.open()
	}
	if st.file != nil && !st.memOnly {
		if c, ok := st.write(chunk); ok {
			st.chunks = append(st.chunks, c)
			return
		}
	}
	st.chunks = append(st.chunks, spoolChunk{mem: bytes.Clone(chunk), size: int64(len(chunk))}) // exact size: a chunk lives until the run ends
}

// open makes the spool's file and moves the chunks in memory to it; any
// failure leaves the chunks where they are and the spool in memory.
func (st *spoolStore) open() {
	open := st.cfg.File
	if open == nil {
		open = TempFile
	}
	f, err := open()
	if err != nil {
		st.memOnly = true
		return
	}
	st.file = f
	for i, c := range st.chunks {
		if c.onFile {
			continue
		}
		moved, ok := st.write(c.mem)
		if !ok {
			return
		}
		st.chunks[i] = moved
	}
}

// write appends chunk to the file; false, and the spool in memory from
// then on, when it cannot.
func (st *spoolStore) write(chunk []byte) (spoolChunk, bool) {
	if n, err := st.file.WriteAt(chunk, st.end); err != nil || n != len(chunk) {
		st.memOnly = true
		return spoolChunk{}, false
	}
	c := spoolChunk{onFile: true, off: st.end, size: int64(len(chunk))}
	st.end += c.size
	return c, true
}

// decoder returns a decoder of chunk c's blocks.
func (st *spoolStore) decoder(c spoolChunk) *blockDecoder {
	if !c.onFile {
		return &blockDecoder{chunk: c.mem}
	}
	return &blockDecoder{file: st.file, pos: c.off, end: c.off + c.size}
}

// fill makes d.chunk hold the next whole block (its length and its packed
// bytes) of a chunk on file, reading ahead from the file; a chunk in
// memory already holds every block.
func (d *blockDecoder) fill() {
	for d.file != nil && d.pos < d.end && d.err == nil {
		need := binary.MaxVarintLen64
		if size, n := binary.Uvarint(d.chunk); n > 0 {
			if size > uint64(len(d.chunk)-n)+uint64(d.end-d.pos) {
				return // longer than the chunk: decodeSpoolBlock reports it
			}
			need = n + int(size)
		}
		if len(d.chunk) >= need {
			return
		}
		if cap(d.window) < need {
			w := make([]byte, max(need, min(spoolReadAhead, int(d.end-d.pos)+len(d.chunk))))
			d.window = w[:0]
		}
		window := d.window[:cap(d.window)]
		kept := copy(window, d.chunk) // the rest of the last read, to the front
		read := int(min(int64(len(window)-kept), d.end-d.pos))
		if n, err := d.file.ReadAt(window[kept:kept+read], d.pos); n < read {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			d.err = fmt.Errorf("spool: reading a spool's temporary file: %w", err)
			return
		}
		d.pos += int64(read)
		d.chunk = window[:kept+read]
	}
}
