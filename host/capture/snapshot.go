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
	// limits.file_bytes or unreadable (HashSkipped says which).
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
	// Truncated names the limit that cut the listing short: files or depth.
	Truncated []string `json:"truncated"`
}

// snapshotRoots lists every root under the limits. The file limit is
// shared by all roots of one checkpoint.
func snapshotRoots(ctx context.Context, roots []string, l Limits) ([]RootSnapshot, error) {
	out := make([]RootSnapshot, 0, len(roots))
	budget := l.Files
	for _, root := range roots {
		rs := RootSnapshot{Root: root, Status: "present", Files: []FileEntry{}, Truncated: []string{}}
		if _, err := os.Lstat(root); err != nil {
			rs.Status = "missing"
			if !errors.Is(err, fs.ErrNotExist) {
				rs.Status = "unreadable"
			}
			out = append(out, rs)
			continue
		}
		truncated := map[string]bool{}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
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
				} else if sum, herr := hashFile(path); herr != nil {
					e.HashSkipped = "unreadable"
				} else {
					e.SHA256 = &sum
				}
			case info.IsDir():
				e.Kind, e.Size = "directory", 0
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

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
