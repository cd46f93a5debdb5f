package app

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sort"
	"sync"

	"golang.org/x/sys/unix"
)

// walkTreeFast is walkTree in fewer system calls, hashing files on every
// core: a warm hit of a 3,000-file application is mostly this walk. Every
// open is one openat2 from the mount directory that refuses to leave it or
// to pass through any link (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), where
// os.Root opens each path component in turn; a file is then fstat'ed
// (regular, its size and permission bits), read to its end and closed.
// It enters the same fields in the same order as walkTree, so the two
// give one key. ok is false when openat2 is not available (an old kernel,
// a seccomp filter): walkTree then walks.
func walkTreeFast(mountDir, dir string, w keyWriter, walk *inputWalk) (n int, ok bool, err error) {
	rootfd, err := unix.Open(mountDir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, true, &fs.PathError{Op: "open", Path: mountDir, Err: err}
	}
	defer unix.Close(rootfd)
	probe, err := openBeneath(rootfd, dir, unix.O_DIRECTORY)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return 0, false, nil
	}
	if err == nil {
		unix.Close(probe)
	}
	// Files are hashed while the tree is still being listed.
	h := newHasher(rootfd, walk)
	var entries []*walkEntry
	lerr := listWalkTree(rootfd, dir, &entries, h.jobs, walk)
	if herr := h.wait(); lerr == nil {
		lerr = herr
	}
	if lerr != nil {
		return 0, true, lerr
	}
	for _, e := range entries {
		switch e.kind {
		case 'd':
			walk.kinds[e.path] = 'd'
			w.field("d", e.path)
		case 'l':
			walk.kinds[e.path] = 'l'
			walk.links[e.path] = e.target
			w.field("l", e.path, e.target)
		case 'f':
			walk.kinds[e.path] = 'f'
			walk.files[e.path] = e.sum
			walk.sizes[e.path], walk.execs[e.path] = e.size, e.perm&0o111 != 0
			w.field("f", e.path, fmt.Sprint(e.size), e.perm.String(), e.sum)
		default:
			walk.kinds[e.path] = 's'
			w.field("s", e.path, e.typ.String())
		}
	}
	return len(entries), true, nil
}

// walkEntry is one entry of the walk, in walk order.
type walkEntry struct {
	path   string
	kind   byte // 'd', 'l', 'f' or 's'
	typ    fs.FileMode
	target string      // a link's
	size   int64       // a file's, from the descriptor that was read
	perm   fs.FileMode // a file's
	sum    string      // a file's SHA-256
}

// openBeneath opens name (slash-separated, relative to rootfd) without
// leaving rootfd's directory or following any link.
func openBeneath(rootfd int, name string, flags int) (int, error) {
	how := unix.OpenHow{
		Flags:   uint64(unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW | flags),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(rootfd, name, &how)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "openat2", Path: name, Err: err}
		}
		return fd, nil
	}
}

// listWalkTree appends dir's entries below it in fs.WalkDir's order (lexical,
// a directory before its contents), reading each link's target through
// its directory's descriptor.
func listWalkTree(rootfd int, dir string, out *[]*walkEntry, files chan<- *walkEntry, walk *inputWalk) error {
	fd, err := openBeneath(rootfd, dir, unix.O_DIRECTORY)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), dir)
	des, err := f.ReadDir(-1)
	if err != nil {
		f.Close()
		return err
	}
	sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
	level := make([]*walkEntry, 0, len(des))
	for _, d := range des {
		p := d.Name()
		if dir != "." {
			p = path.Join(dir, p)
		}
		t := d.Type()
		e := &walkEntry{path: p, typ: t}
		switch {
		case d.IsDir():
			e.kind = 'd'
		case t&fs.ModeSymlink != 0:
			target, err := readlinkAt(fd, d.Name())
			if err != nil {
				f.Close()
				return err
			}
			e.kind, e.target = 'l', target
		case t.IsRegular():
			e.kind = 'f'
		default:
			e.kind = 's'
		}
		level = append(level, e)
	}
	f.Close() // before the subdirectories: descriptors held do not grow with depth
	for _, e := range level {
		if err := walk.admitEntry(); err != nil {
			return err
		}
		*out = append(*out, e)
		switch e.kind {
		case 'f':
			files <- e // the lister does not touch e again
		case 'd':
			if err := listWalkTree(rootfd, e.path, out, files, walk); err != nil {
				return err
			}
		}
	}
	return nil
}

func readlinkAt(dirfd int, name string) (string, error) {
	for size := 256; ; size *= 2 {
		b := make([]byte, size)
		n, err := unix.Readlinkat(dirfd, name, b)
		if err != nil {
			return "", &fs.PathError{Op: "readlinkat", Path: name, Err: err}
		}
		if n < size {
			return string(b[:n]), nil
		}
	}
}

// hasher fills in the size, permission bits and digest of every file
// sent on jobs, on as many goroutines as there are cores; the first error
// wins and the rest are skipped.
type hasher struct {
	jobs  chan *walkEntry
	wg    sync.WaitGroup
	mu    sync.Mutex
	first error
}

func newHasher(rootfd int, walk *inputWalk) *hasher {
	h := &hasher{jobs: make(chan *walkEntry, 256)}
	for range min(runtime.GOMAXPROCS(0), 4) {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			buf := make([]byte, 128<<10)
			for e := range h.jobs {
				h.mu.Lock()
				failed := h.first != nil
				h.mu.Unlock()
				if failed {
					continue
				}
				if err := hashEntry(rootfd, e, buf, walk); err != nil {
					h.mu.Lock()
					if h.first == nil {
						h.first = err
					}
					h.mu.Unlock()
				}
			}
		}()
	}
	return h
}

// wait ends the jobs and returns the first error.
func (h *hasher) wait() error {
	close(h.jobs)
	h.wg.Wait()
	return h.first
}

// hashEntry opens, checks and hashes one regular file.
func hashEntry(rootfd int, e *walkEntry, buf []byte, walk *inputWalk) error {
	fd, err := openBeneath(rootfd, e.path, unix.O_NONBLOCK)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "fstat", Path: e.path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return &fs.PathError{Op: "open", Path: e.path, Err: errors.New("no longer a regular file")}
	}
	if err := walk.admitBytes(st.Size); err != nil {
		return err
	}
	h := sha256.New()
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "read", Path: e.path, Err: err}
		}
		if n == 0 {
			break
		}
		h.Write(buf[:n])
	}
	e.size = st.Size
	e.perm = fs.FileMode(st.Mode & 0o777)
	e.sum = hex.EncodeToString(h.Sum(nil))
	return nil
}
