package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"rea/analysis/artifact/inventory"
	"rea/host/evidence"
	"rea/host/regularfile"
)

// The application result cache answers a repeated
// analyze_javascript_application without loading any module: no
// inventory run, no jsapp run. Its key must commit to everything the
// result depends on before anything is parsed, so it is computed by the
// host from plain bytes and file metadata (hashing is not parsing):
//
//   - the input as the analysis can read it: for a directory, every entry
//     (walked without following links) with its kind, size, permission bits,
//     link target and the SHA-256 of a regular file's bytes; for an .asar
//     (or other file) the SHA-256 of its bytes, plus the same walk of its
//     NAME.unpacked companion (the host reads unpacked entries from there;
//     the module reads only the file itself);
//   - the resolved input path and the application root found in it (the
//     evidence names the local path; paths never reach the module runs'
//     cache, which is content-addressed, but this cache stores the whole
//     answer);
//   - the request with its defaults applied, and the sandbox limits;
//   - the code: the rea binary's Go build ID (a hash of the binary, so of
//     the host code and the embedded modules) and the digest of every
//     module loaded from a module directory instead.
//
// A change between the walk and the analysis must not store a result under
// the key of bytes the analysis did not read: the result is stored only
// when every file the inventory observed (and jsapp read: its tree refuses
// bytes that differ from the inventory's) has the walk's digest, and the
// walk and the inventory list the same entries. Anything the walk cannot
// read, or any disagreement, leaves the result uncached — never cached on
// a guess.

// appCacheVersion changes when the cached answer's layout changes.
const appCacheVersion = "rea-app-cache-2"

// inputWalk is what the key walk saw: the digest of every regular file by
// slash path relative to the mount directory, and the kind of every entry.
type inputWalk struct {
	files   map[string]string // path -> sha256 (hex)
	sizes   map[string]int64  // path -> a regular file's size
	execs   map[string]bool   // path -> a regular file has an execute bit
	kinds   map[string]byte   // path -> 'f', 'd', 'l' or 's' (special)
	links   map[string]string // path -> link target
	root    string            // the input's name in the mount ("." for a directory)
	entries int               // entries under the input directory (not counting it)
	fileSum string            // sha256 of an input file's bytes

	// The request's inventory limits bound the walk too (bound): it runs
	// before the inventory, so without them a directory of millions of
	// files or terabytes would be listed and hashed in full before the
	// inventory refused it.
	maxEntries int          // 0: unbounded
	seen       int          // entries listed so far
	bytesLeft  atomic.Int64 // of MaxTotalBytes, when bytesBound
	bytesBound bool
}

// errWalkOverLimits stops a key walk at the request's inventory limits; the
// inventory then refuses the input and names the limit.
var errWalkOverLimits = errors.New("the input is over its inventory limits")

// bound limits the walk to the request's inventory limits.
func (w *inputWalk) bound(l inventory.Limits) {
	l = l.WithDefaults()
	w.maxEntries, w.bytesBound = l.MaxEntries, true
	w.bytesLeft.Store(l.MaxTotalBytes)
}

// admitEntry counts one listed entry against the limit.
func (w *inputWalk) admitEntry() error {
	w.seen++
	if w.maxEntries > 0 && w.seen > w.maxEntries {
		return errWalkOverLimits
	}
	return nil
}

// admitBytes counts a file's size against the limit before it is read
// (safe from the hashing goroutines).
func (w *inputWalk) admitBytes(n int64) error {
	if w.bytesBound && w.bytesLeft.Add(-n) < 0 {
		return errWalkOverLimits
	}
	return nil
}

// A cache entry is the answer as it is returned, so a hit neither
// re-seals the record nor decodes the analysis it does not need:
//
//	rea-app-cache-2\n
//	{"record":N,"analysis":M,"analysis_sha256":"…","outcome":{…}}\n
//	the sealed record's canonical bytes (N)
//	the analysis's JSON (M)
//
// The record is reopened (evidence.Reopen: its id is recomputed over every
// payload byte) and must name the input's path; the analysis must match
// its digest and is decoded only when a caller asks for it.
type cachedApplicationHeader struct {
	Record         int                `json:"record"`
	Analysis       int                `json:"analysis"`
	AnalysisSHA256 string             `json:"analysis_sha256"`
	Outcome        ApplicationOutcome `json:"outcome"`
}

var (
	buildIDOnce sync.Once
	buildID     string
)

// binaryBuildID is the running executable's Go build ID ("" when it cannot
// be read; the cache is then off). On Linux it is read through
// /proc/self/exe, the file this process runs even when its path was since
// replaced by a rebuild.
func binaryBuildID() string {
	buildIDOnce.Do(func() {
		exe := "/proc/self/exe"
		if runtime.GOOS != "linux" {
			var err error
			if exe, err = os.Executable(); err != nil {
				return
			}
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		head := make([]byte, 64<<10)
		n, _ := io.ReadFull(f, head)
		buildID = findBuildID(head[:n])
	})
	return buildID
}

// findBuildID finds the Go build ID in the first bytes of a Go executable:
// an ELF note (name "Go", type 4) or, in other formats, the linker's quoted
// marker. It reads rea's own binary, not input.
func findBuildID(b []byte) string {
	if bytes.HasPrefix(b, []byte("\x7fELF")) {
		for off := 0; ; {
			i := bytes.Index(b[off:], []byte("Go\x00\x00"))
			if i < 0 {
				break
			}
			at := off + i
			off = at + 4
			if at < 12 {
				continue
			}
			namesz := binary.LittleEndian.Uint32(b[at-12:])
			descsz := binary.LittleEndian.Uint32(b[at-8:])
			typ := binary.LittleEndian.Uint32(b[at-4:])
			if namesz == 4 && typ == 4 && descsz > 0 && descsz < 1024 && at+4+int(descsz) <= len(b) {
				return string(b[at+4 : at+4+int(descsz)])
			}
		}
	}
	marker := []byte("\xff Go build ID: \"")
	if i := bytes.Index(b, marker); i >= 0 {
		rest := b[i+len(marker):]
		if j := bytes.IndexByte(rest, '"'); j > 0 && j < 1024 {
			return string(rest[:j])
		}
	}
	return ""
}

// keyWriter writes length-prefixed fields, so no two field lists hash alike.
type keyWriter struct{ h hash.Hash }

func (w keyWriter) field(parts ...string) {
	for _, p := range parts {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		w.h.Write(n[:])
		w.h.Write([]byte(p))
	}
}

// applicationCacheKey derives the key of one analysis request, or "" when
// the answer must not be cached (the code cannot be identified, or the
// input cannot be walked). walk is what the key read of the input.
func (a *App) applicationCacheKey(in artifactInput, rel, format string, params AnalyzeApplicationRequest) (string, *inputWalk) {
	id := binaryBuildID()
	if id == "" {
		return "", nil
	}
	w := keyWriter{sha256.New()}
	w.field(appCacheVersion, id, runtime.GOARCH)
	for _, m := range []string{ArtifactModule, JSAppModule, NormaliseModule} {
		stamp, err := a.Runner.Catalog().Stamp(m)
		if err != nil {
			return "", nil
		}
		w.field(m, stamp)
	}
	lb, err := json.Marshal(a.Config.Limits.WithDefaults())
	if err != nil {
		return "", nil
	}
	pb, err := json.Marshal(params)
	if err != nil {
		return "", nil
	}
	w.field(string(lb), string(pb), in.abs, rel, format)
	walk, err := walkInput(in, w, params.Limits)
	if errors.Is(err, errWalkOverLimits) {
		a.log.Debug("application result cache not used: the input is over its inventory limits (the inventory names which)")
		return "", nil
	}
	if err != nil {
		a.log.Debug("application result cache not used: the input could not be walked", "error", err)
		return "", nil
	}
	return hex.EncodeToString(w.h.Sum(nil)), walk
}

func newInputWalk(root string) *inputWalk {
	return &inputWalk{files: map[string]string{}, sizes: map[string]int64{}, execs: map[string]bool{},
		kinds: map[string]byte{}, links: map[string]string{}, root: root}
}

// walkInput hashes what the analysis of in can read into w, within the
// request's inventory limits.
func walkInput(in artifactInput, w keyWriter, limits inventory.Limits) (*inputWalk, error) {
	root, err := os.OpenRoot(in.mountDir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	walk := newInputWalk(in.name)
	walk.bound(limits)
	if in.isDir {
		w.field("directory")
		n, err := walkTree(root, in.mountDir, ".", w, walk)
		walk.entries = n
		return walk, err
	}
	sum, err := hashFile(root, in.name)
	if err != nil {
		return nil, err
	}
	walk.fileSum = sum
	w.field("file", in.name, sum)
	companion := in.name + ".unpacked"
	st, err := root.Lstat(companion)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.field("no companion")
	case err != nil:
		return nil, err
	case st.IsDir():
		w.field("companion")
		if _, err := walkTree(root, in.mountDir, companion, w, walk); err != nil {
			return nil, err
		}
	default:
		// A link or a file: the analysis does not follow it (its unpacked
		// entries are then unavailable), so its kind is all it depends on.
		w.field("companion kind", st.Mode().Type().String())
	}
	return walk, nil
}

// walkTree walks dir inside root in lexical order without following links
// and returns how many entries it holds: walkTreeFast where the system
// offers what it needs, else walkTreeRoot.
func walkTree(root *os.Root, mountDir, dir string, w keyWriter, walk *inputWalk) (int, error) {
	if n, ok, err := walkTreeFast(mountDir, dir, w, walk); ok {
		return n, err
	}
	return walkTreeRoot(root, dir, w, walk)
}

// walkTreeRoot is walkTree through os.Root and fs.WalkDir.
func walkTreeRoot(root *os.Root, dir string, w keyWriter, walk *inputWalk) (int, error) {
	n := 0
	err := fs.WalkDir(root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		n++
		if err := walk.admitEntry(); err != nil {
			return err
		}
		t := d.Type()
		switch {
		case d.IsDir():
			walk.kinds[p] = 'd'
			w.field("d", p)
		case t&fs.ModeSymlink != 0:
			target, err := root.Readlink(p)
			if err != nil {
				return err
			}
			walk.kinds[p] = 'l'
			walk.links[p] = target
			w.field("l", p, target)
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			if err := walk.admitBytes(info.Size()); err != nil {
				return err
			}
			sum, err := hashFile(root, p)
			if err != nil {
				return err
			}
			walk.kinds[p] = 'f'
			walk.files[p] = sum
			walk.sizes[p], walk.execs[p] = info.Size(), info.Mode()&0o111 != 0
			w.field("f", p, fmt.Sprint(info.Size()), info.Mode().Perm().String(), sum)
		default:
			walk.kinds[p] = 's'
			w.field("s", p, t.String())
		}
		return nil
	})
	return n, err
}

// hashFile returns the SHA-256 of a regular file's bytes.
func hashFile(root *os.Root, name string) (string, error) {
	f, err := regularfile.OpenIn(root, filepath.FromSlash(name))
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

// matchesWalk reports whether the inventory the analysis used saw exactly
// what the key's walk hashed (see the comment at the top); false when
// anything differs or cannot be compared.
func (s *artifactScan) matchesWalk(walk *inputWalk) bool {
	if walk == nil {
		return false
	}
	seen := 0
	for i, e := range s.res.Entries {
		if e.Container != 0 {
			continue // inside a container file whose bytes the walk hashed
		}
		var p string
		switch {
		case walk.root == ".":
			if e.Unpacked {
				return false
			}
			p = e.Path
			seen++
		case e.Unpacked && e.Kind == inventory.KindFile && e.Link == nil:
			// The host reads these bytes from the companion directory.
			p = path.Join(walk.root+".unpacked", e.Path)
		default:
			continue // described by the input file's bytes
		}
		switch {
		case e.Kind == inventory.KindDirectory:
			if walk.kinds[p] != 'd' {
				return false
			}
		case e.Link != nil:
			if walk.kinds[p] != 'l' || walk.links[p] != e.Link.Target {
				return false
			}
		default:
			sum, ok := walk.files[p]
			if !ok || walk.kinds[p] != 'f' || s.obs[i].sha256 != sum || s.obs[i].status == "unavailable" {
				return false
			}
		}
	}
	if walk.root == "." {
		return seen == walk.entries
	}
	return s.digest == walk.fileSum
}

// cachedApplicationResult is the answer stored under key, or nil.
func (a *App) cachedApplicationResult(key string, in artifactInput) *AnalyzeApplicationResult {
	b, ok := a.Runner.LookupResult(key)
	if !ok {
		return nil
	}
	rest, ok := bytes.CutPrefix(b, []byte(appCacheVersion+"\n"))
	if !ok {
		return nil
	}
	line := bytes.IndexByte(rest, '\n')
	if line < 0 {
		return nil
	}
	var h cachedApplicationHeader
	if json.Unmarshal(rest[:line], &h) != nil || h.Record <= 0 || h.Analysis <= 0 || len(rest)-line-1 != h.Record+h.Analysis {
		return nil
	}
	body := rest[line+1:]
	recBytes, encoded := body[:h.Record:h.Record], body[h.Record:]
	if sum := sha256.Sum256(encoded); hex.EncodeToString(sum[:]) != h.AnalysisSHA256 {
		return nil
	}
	rec, err := evidence.Reopen(recBytes)
	if err != nil || rec.Subject == nil || rec.Subject.LocalPath != in.abs || rec.Operation != "analyze_javascript_application" {
		return nil
	}
	return &AnalyzeApplicationResult{Evidence: rec, Outcome: h.Outcome, encoded: encoded}
}

// storeApplicationResult keeps an answer under key. The analysis's JSON
// is decoded once here, so a hit's lazy decoding of the same bytes by the
// same binary cannot fail.
func (a *App) storeApplicationResult(key string, rec evidence.Record, analysis *ApplicationAnalysis) {
	encoded, err := json.Marshal(analysis)
	if err != nil || json.Unmarshal(encoded, new(ApplicationAnalysis)) != nil {
		return
	}
	recBytes := rec.Canonical()
	sum := sha256.Sum256(encoded)
	header, err := json.Marshal(cachedApplicationHeader{Record: len(recBytes), Analysis: len(encoded),
		AnalysisSHA256: hex.EncodeToString(sum[:]), Outcome: analysis.outcome()})
	if err != nil || len(recBytes) == 0 {
		return
	}
	b := make([]byte, 0, len(appCacheVersion)+len(header)+len(recBytes)+len(encoded)+2)
	b = append(append(b, appCacheVersion...), '\n')
	b = append(append(b, header...), '\n')
	b = append(append(b, recBytes...), encoded...)
	a.Runner.StoreResult(key, b)
}
