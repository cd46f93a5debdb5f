package app

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// treeFS is a read-only fs.FS built from an inventory the host validated:
// every file is a byte range of a file the host opened itself (an ASAR's
// data region, an unpacked companion), so the sandboxed analyzer reads
// exactly the bytes the inventory hashed and nothing else. Links are not
// present: they are recorded by the inventory, never followed.
type treeFS struct {
	nodes map[string]*treeNode

	mu       sync.Mutex
	tampered []string // files whose bytes changed since the inventory
}

type treeNode struct {
	name     string
	dir      bool
	size     int64
	mode     fs.FileMode
	children []string
	// open returns the file's bytes; expect is the sha256 the inventory
	// observed ("" when unknown), checked again as the analyzer reads.
	open   func() (io.ReaderAt, io.Closer, error)
	expect string
}

func newTreeFS() *treeFS {
	return &treeFS{nodes: map[string]*treeNode{".": {name: ".", dir: true, mode: fs.ModeDir | 0o555}}}
}

// addFile adds a file at the slash path p, creating parent directories.
func (t *treeFS) addFile(p string, size int64, exec bool, expect string, open func() (io.ReaderAt, io.Closer, error)) {
	mode := fs.FileMode(0o444)
	if exec {
		mode = 0o555
	}
	t.ensureDir(path.Dir(p))
	if _, exists := t.nodes[p]; !exists {
		t.link(p)
	}
	t.nodes[p] = &treeNode{name: path.Base(p), size: size, mode: mode, open: open, expect: expect}
}

func (t *treeFS) ensureDir(p string) {
	if p == "." || p == "/" || p == "" {
		return
	}
	if n, ok := t.nodes[p]; ok && n.dir {
		return
	}
	t.ensureDir(path.Dir(p))
	t.nodes[p] = &treeNode{name: path.Base(p), dir: true, mode: fs.ModeDir | 0o555}
	t.link(p)
}

func (t *treeFS) link(p string) {
	parent := t.nodes[path.Dir(p)]
	parent.children = append(parent.children, path.Base(p))
}

// seal sorts directory listings so the analyzer sees a deterministic tree.
func (t *treeFS) seal() {
	for _, n := range t.nodes {
		sort.Strings(n.children)
	}
}

// Tampered lists files whose bytes did not hash to the inventory's digest
// when the analyzer read them.
func (t *treeFS) Tampered() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.tampered...)
}

func (t *treeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	n, ok := t.nodes[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if n.dir {
		return &treeDir{fs: t, path: name, node: n}, nil
	}
	ra, closer, err := n.open()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	f := &treeFile{fs: t, path: name, node: n, sr: io.NewSectionReader(ra, 0, n.size), closer: closer}
	if n.expect != "" {
		f.h = sha256.New()
	}
	return f, nil
}

type treeInfo struct{ n *treeNode }

func (i treeInfo) Name() string       { return i.n.name }
func (i treeInfo) Size() int64        { return i.n.size }
func (i treeInfo) Mode() fs.FileMode  { return i.n.mode }
func (i treeInfo) ModTime() time.Time { return time.Time{} }
func (i treeInfo) IsDir() bool        { return i.n.dir }
func (i treeInfo) Sys() any           { return nil }

// treeFile re-hashes the bytes as they are read sequentially and compares
// the digest with the inventory's when the whole file has been read.
type treeFile struct {
	fs     *treeFS
	path   string
	node   *treeNode
	sr     *io.SectionReader
	closer io.Closer
	h      hash.Hash
	hashed int64 // bytes hashed in order from offset 0
}

func (f *treeFile) Stat() (fs.FileInfo, error) { return treeInfo{f.node}, nil }

func (f *treeFile) Read(p []byte) (int, error) {
	pos, _ := f.sr.Seek(0, io.SeekCurrent)
	n, err := f.sr.Read(p)
	f.observe(pos, p[:n])
	return n, err
}

func (f *treeFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.sr.ReadAt(p, off)
	f.observe(off, p[:n])
	return n, err
}

func (f *treeFile) Seek(off int64, whence int) (int64, error) { return f.sr.Seek(off, whence) }

func (f *treeFile) observe(at int64, b []byte) {
	if f.h == nil || at != f.hashed {
		return
	}
	f.h.Write(b)
	f.hashed += int64(len(b))
	if f.hashed == f.node.size {
		if got := hex.EncodeToString(f.h.Sum(nil)); got != f.node.expect {
			f.fs.mu.Lock()
			f.fs.tampered = append(f.fs.tampered, f.path)
			f.fs.mu.Unlock()
		}
		f.h = nil
	}
}

func (f *treeFile) Close() error {
	if f.closer != nil {
		return f.closer.Close()
	}
	return nil
}

type treeDir struct {
	fs   *treeFS
	path string
	node *treeNode
	pos  int
}

func (d *treeDir) Stat() (fs.FileInfo, error) { return treeInfo{d.node}, nil }
func (d *treeDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errors.New("is a directory")}
}
func (d *treeDir) Close() error { return nil }

func (d *treeDir) ReadDir(n int) ([]fs.DirEntry, error) {
	names := d.node.children[d.pos:]
	if n > 0 && len(names) > n {
		names = names[:n]
	}
	out := make([]fs.DirEntry, 0, len(names))
	for _, name := range names {
		child := d.fs.nodes[strings.TrimPrefix(path.Join(d.path, name), "./")]
		out = append(out, fs.FileInfoToDirEntry(treeInfo{child}))
	}
	d.pos += len(names)
	if n > 0 && len(out) == 0 {
		return nil, io.EOF
	}
	return out, nil
}

// same reports whether u serves the same tree as t: the same paths, each
// the same kind, size, mode and expected digest, directories listing the
// same children. Where the bytes come from is not compared: both trees
// read them from the host's own files and check them against the digest.
func (t *treeFS) same(u *treeFS) bool {
	if len(t.nodes) != len(u.nodes) {
		return false
	}
	for p, n := range t.nodes {
		m, ok := u.nodes[p]
		if !ok || n.name != m.name || n.dir != m.dir || n.size != m.size || n.mode != m.mode || n.expect != m.expect ||
			!slices.Equal(n.children, m.children) {
			return false
		}
	}
	return true
}

// contentKey is a digest of everything the tree serves (paths, kinds,
// sizes, modes, file digests): two trees with one key read alike.
func (t *treeFS) contentKey() string {
	paths := make([]string, 0, len(t.nodes))
	for p := range t.nodes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	w := keyWriter{sha256.New()}
	for _, p := range paths {
		n := t.nodes[p]
		kind := "f"
		if n.dir {
			kind = "d"
		}
		w.field(kind, p, strconv.FormatInt(n.size, 10), n.mode.String(), n.expect)
	}
	return hex.EncodeToString(w.h.Sum(nil))
}
