package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// FileEntry is one path under a filesystem root at a checkpoint.
type FileEntry struct {
	// Path is slash-separated and relative to the root ("." is the root).
	Path string `json:"path"`
	// Kind is file, directory, symlink or other. Links are never followed.
	Kind string `json:"kind"`
	Size int64  `json:"size"`
	Mode string `json:"mode"`
	// SHA256 of a regular file's bytes; null when the file is larger than
	// limits.file_bytes (by its size or by what reading it gave: files of
	// /proc say 0 bytes and are not), unreadable, or cut short by the
	// snapshot's deadline (HashSkipped says which: file_bytes, unreadable,
	// timeout). A directory on a pseudo-filesystem (proc, sysfs, devtmpfs,
	// cgroup, …) that is not itself a root is listed but not entered
	// (HashSkipped pseudo_filesystem:NAME).
	SHA256      *string `json:"sha256"`
	HashSkipped string  `json:"hash_skipped,omitempty"`
	// Target of a symlink.
	Target string `json:"target,omitempty"`
}

// RootSnapshot is one root at one checkpoint.
type RootSnapshot struct {
	Root string `json:"root"`
	// Status is present, missing or unreadable.
	Status string      `json:"status"`
	Files  []FileEntry `json:"files"`
	// Truncated names the limit that cut the listing short: files, depth
	// or timeout (the snapshot's deadline passed).
	Truncated []string `json:"truncated"`
}

// snapshotRoots lists every root under the limits, until deadline. The
// file limit is shared by all roots of one checkpoint. It returns an error
// only when ctx is cancelled.
func snapshotRoots(ctx context.Context, roots []string, l Limits, deadline time.Time) ([]RootSnapshot, error) {
	out := make([]RootSnapshot, 0, len(roots))
	budget := l.Files
	fsc := newFSClassifier()
	late := func() bool { return !time.Now().Before(deadline) }
	for _, root := range roots {
		rs := RootSnapshot{Root: root, Status: "present", Files: []FileEntry{}, Truncated: []string{}}
		rootInfo, err := os.Lstat(root)
		if err != nil {
			rs.Status = "missing"
			if !errors.Is(err, fs.ErrNotExist) {
				rs.Status = "unreadable"
			}
			out = append(out, rs)
			continue
		}
		truncated := map[string]bool{}
		if late() {
			rs.Truncated = []string{"timeout"}
			out = append(out, rs)
			continue
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if late() {
				truncated["timeout"] = true
				return fs.SkipAll
			}
			rel, rerr := filepath.Rel(root, path)
			if rerr != nil {
				return nil
			}
			rel = filepath.ToSlash(rel)
			depth := 0
			if rel != "." {
				depth = strings.Count(rel, "/") + 1
			}
			if depth > l.Depth {
				truncated["depth"] = true
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if budget <= 0 {
				truncated["files"] = true
				return fs.SkipAll
			}
			budget--
			e := FileEntry{Path: rel, Kind: "other"}
			if err != nil {
				e.HashSkipped = "unreadable"
				rs.Files = append(rs.Files, e)
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			info, ierr := d.Info()
			if ierr != nil {
				return nil // vanished
			}
			e.Size, e.Mode = info.Size(), info.Mode().String()
			switch {
			case info.Mode().IsRegular():
				e.Kind = "file"
				if info.Size() > l.FileBytes {
					e.HashSkipped = "file_bytes"
				} else if sum, why := hashFile(ctx, path, l.FileBytes, deadline); why != "" {
					e.HashSkipped = why
					if why == "timeout" {
						truncated["timeout"] = true
					}
				} else {
					e.SHA256 = &sum
				}
			case info.IsDir():
				e.Kind, e.Size = "directory", 0
				if rel != "." {
					if name := fsc.pseudo(path, info, rootInfo); name != "" {
						e.HashSkipped = "pseudo_filesystem:" + name
						rs.Files = append(rs.Files, e)
						return fs.SkipDir
					}
				}
			case info.Mode()&fs.ModeSymlink != 0:
				e.Kind = "symlink"
				e.Target, _ = os.Readlink(path)
			}
			rs.Files = append(rs.Files, e)
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			rs.Status = "unreadable"
		}
		for k := range truncated {
			rs.Truncated = append(rs.Truncated, k)
		}
		sort.Strings(rs.Truncated)
		out = append(out, rs)
	}
	return out, nil
}

// hashFile hashes at most limit bytes of a regular file, whatever its
// stat said, stopping when ctx is cancelled or deadline passes. It opens
// without blocking (a file that would block on open or read is
// unreadable). The second result is why no hash was made: file_bytes,
// unreadable or timeout.
func hashFile(ctx context.Context, path string, limit int64, deadline time.Time) (string, string) {
	f, err := openNonBlocking(path)
	if err != nil {
		return "", "unreadable"
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, 64<<10)
	var n int64
	for {
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			return "", "timeout"
		}
		k, err := f.Read(buf)
		n += int64(k)
		if n > limit {
			return "", "file_bytes"
		}
		h.Write(buf[:k])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", "unreadable"
		}
	}
	return hex.EncodeToString(h.Sum(nil)), ""
}

// readBounded reads at most limit bytes of a file.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// FilesystemChanges compares the before and after_settlement snapshots.
type FilesystemChanges struct {
	Created  []string `json:"created"`
	Modified []string `json:"modified"`
	Deleted  []string `json:"deleted"`
}

// diffSnapshots names paths as ROOT/PATH. A modification is a change of
// kind, size, mode, hash or link target.
func diffSnapshots(before, after []RootSnapshot) FilesystemChanges {
	index := func(ss []RootSnapshot) map[string]FileEntry {
		m := map[string]FileEntry{}
		for _, s := range ss {
			for _, f := range s.Files {
				m[filepath.Join(s.Root, f.Path)] = f
			}
		}
		return m
	}
	b, a := index(before), index(after)
	ch := FilesystemChanges{Created: []string{}, Modified: []string{}, Deleted: []string{}}
	for p, fa := range a {
		fb, ok := b[p]
		switch {
		case !ok:
			ch.Created = append(ch.Created, p)
		case fa.Kind != fb.Kind || fa.Size != fb.Size || fa.Mode != fb.Mode || fa.Target != fb.Target ||
			(fa.SHA256 == nil) != (fb.SHA256 == nil) || (fa.SHA256 != nil && *fa.SHA256 != *fb.SHA256):
			ch.Modified = append(ch.Modified, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			ch.Deleted = append(ch.Deleted, p)
		}
	}
	sort.Strings(ch.Created)
	sort.Strings(ch.Modified)
	sort.Strings(ch.Deleted)
	return ch
}
