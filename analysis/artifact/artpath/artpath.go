// Package artpath turns the names an untrusted container declares into safe
// logical paths, and refuses the names that would make two entries land on
// the same file when extracted (exact, case-folded or file-versus-directory
// collisions). Every entry of every container goes through it before the
// host sees the entry, so extraction can trust what it is given.
package artpath

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"rea/abi"
)

// Defaults of the limits a path must stay within.
const (
	DefaultMaxPathBytes = 4096
	DefaultMaxDepth     = 20
)

// Limits bound a path. Zero values mean the defaults.
type Limits struct {
	// MaxBytes bounds the UTF-8 length of the normalised path.
	MaxBytes int
	// MaxDepth bounds the number of segments.
	MaxDepth int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxPathBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	return l
}

// Normalize validates a slash-separated relative path and returns its NFC
// form. Malformed paths fail with artifact_operation_failed (the container
// is malformed); paths over a limit fail with resource_constraint naming the
// limit.
func Normalize(p string, lim Limits) (string, error) {
	lim = lim.withDefaults()
	if p == "" {
		return "", malformed(p, "is empty")
	}
	if !utf8.ValidString(p) {
		return "", malformed(p, "is not valid UTF-8")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", malformed(p, "contains a NUL byte")
	}
	if strings.IndexByte(p, '\\') >= 0 {
		return "", malformed(p, "contains a backslash")
	}
	if p[0] == '/' {
		return "", malformed(p, "is absolute")
	}
	if hasDrivePrefix(p) {
		return "", malformed(p, "has a drive prefix")
	}
	// Bound the work before normalising: NFC can at most triple the bytes.
	if len(p) > 3*lim.MaxBytes+3 {
		return "", overLimit(p, "max_path_bytes", lim.MaxBytes, len(p))
	}
	n := norm.NFC.String(p)
	if len(n) > lim.MaxBytes {
		return "", overLimit(p, "max_path_bytes", lim.MaxBytes, len(n))
	}
	depth := 0
	for seg := range strings.SplitSeq(n, "/") {
		depth++
		switch seg {
		case "":
			return "", malformed(p, "has an empty segment")
		case ".", "..":
			return "", malformed(p, fmt.Sprintf("has a %q segment", seg))
		}
	}
	if depth > lim.MaxDepth {
		return "", overLimit(p, "max_depth", lim.MaxDepth, depth)
	}
	return n, nil
}

// ValidSegment reports whether name can be one segment of a path: a name
// that a container declares for one directory member.
func ValidSegment(name string) error {
	switch {
	case name == "":
		return malformed(name, "is an empty name")
	case name == "." || name == "..":
		return malformed(name, "is a relative name")
	case strings.IndexByte(name, '/') >= 0:
		return malformed(name, "contains a slash inside one name")
	case strings.IndexByte(name, '\\') >= 0:
		return malformed(name, "contains a backslash")
	case strings.IndexByte(name, 0) >= 0:
		return malformed(name, "contains a NUL byte")
	}
	return nil
}

// hasDrivePrefix reports a Windows drive ("C:") prefix. UNC prefixes start
// with a slash or backslash and are refused before this is asked.
func hasDrivePrefix(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0]
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func malformed(p, why string) *abi.Error {
	return abi.Errorf(abi.CodeArtifactOperationFailed,
		"container entry path %q %s; the container is malformed or hostile, and rea will not read it", clip(p), why).
		WithDetail("path", clip(p))
}

func overLimit(p, limit string, max, got int) *abi.Error {
	return abi.Errorf(abi.CodeResourceConstraint,
		"container entry path %q exceeds %s (%d > %d); raise %s if the container is trusted", clip(p), limit, got, max, limit).
		WithDetail("limit", limit).WithDetail("maximum", max).WithDetail("observed", got)
}

// clip keeps messages bounded whatever the input.
func clip(p string) string {
	const max = 200
	if len(p) <= max {
		return p
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "…"
}

// Registry refuses a path that would collide with one already registered:
// the same path twice, two paths equal after Unicode case folding, or a
// path that is both a file and a directory (prefix of another path).
// Directories may be registered more than once (containers often declare
// them both explicitly and implicitly).
type Registry struct {
	folder cases.Caser
	seen   map[string]registered // keyed by the case-folded path
}

type registered struct {
	path string
	dir  bool
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry {
	return &Registry{folder: cases.Fold(), seen: map[string]registered{}}
}

// Len counts registered paths, implicit parent directories included.
func (r *Registry) Len() int { return len(r.seen) }

// Add registers a normalised path as a file or a directory.
func (r *Registry) Add(p string, dir bool) error {
	folded := r.folder.String(p)
	// Ancestors are directories; none may be a file or a case variant.
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		if err := r.put(p[:i], foldedPrefix(folded, p, i, r.folder), true); err != nil {
			return err
		}
	}
	return r.put(p, folded, dir)
}

// foldedPrefix returns the folded form of p[:i]. Folding can change byte
// lengths, so the prefix is folded on its own unless folding kept the path
// byte-for-byte.
func foldedPrefix(folded, p string, i int, c cases.Caser) string {
	if folded == p {
		return p[:i]
	}
	return c.String(p[:i])
}

func (r *Registry) put(p, folded string, dir bool) error {
	prev, ok := r.seen[folded]
	if !ok {
		r.seen[folded] = registered{path: p, dir: dir}
		return nil
	}
	switch {
	case prev.path != p:
		return collision(p, prev.path, "differ only in letter case (they would overwrite each other on case-insensitive file systems)")
	case prev.dir && dir:
		return nil
	case prev.dir != dir:
		return collision(p, prev.path, "is declared both as a file and as a directory")
	default:
		return collision(p, prev.path, "is declared twice")
	}
}

func collision(p, prev, why string) *abi.Error {
	msg := fmt.Sprintf("container entry %q %s", clip(p), why)
	if prev != p {
		msg = fmt.Sprintf("container entries %q and %q %s", clip(prev), clip(p), why)
	}
	return abi.Errorf(abi.CodeArtifactOperationFailed, "%s; the container is ambiguous and rea will not pick one", msg).
		WithDetail("path", clip(p)).WithDetail("collides_with", clip(prev))
}
