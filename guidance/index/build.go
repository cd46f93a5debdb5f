package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"rea/abi"
	"rea/guidance/markdown"
)

// Admission limits, checked before any section text is materialised. A bundle
// beyond any of them is refused whole with abi.CodeBundleUnavailable.
const (
	MaxFileBytes   = 1 << 20 // per markdown file
	MaxBundleBytes = 4 << 20 // all markdown files together
	MaxSections    = 4096
	// MaxExpandedUnits bounds the sum, over every section, of the UTF-16
	// code units Read would return for it. Nesting makes a byte count
	// several times over (a level-6 section is inside five ancestors), so
	// this is what bounds the work and memory of reads and excerpts.
	MaxExpandedUnits = 25_165_824
)

// Reasons of a bundle_unavailable error (details.reason).
const (
	ReasonUnreadable       = "unreadable"
	ReasonNotRegularFile   = "not_regular_file"
	ReasonInvalidUTF8      = "invalid_utf8"
	ReasonFileTooLarge     = "file_too_large"
	ReasonBundleTooLarge   = "bundle_too_large"
	ReasonTooManySections  = "too_many_sections"
	ReasonExpandedTooLarge = "expanded_too_large"
	ReasonEmptyBundle      = "empty_bundle"
)

// Index is an immutable search index over one guidance bundle. Search and
// Read only read it, so one Index may serve concurrent callers; a host that
// keeps one must rebuild it when the bundle digest changes.
type Index struct {
	digest   [32]byte
	docs     []document
	sections []section
	// postings maps a normalised word to the indices of the sections whose
	// own text holds it, ascending. An index opened from a snapshot keeps
	// them in terms instead and resolves a search's words on demand.
	postings map[string][]int32
	terms    *termTable
}

type document struct {
	path string
	src  string
}

type section struct {
	doc     int
	level   int
	heading string
	// start, ownEnd and end are byte offsets into the document: the content
	// Read returns is src[start:end]; the own text is src[start:ownEnd].
	start, ownEnd, end int
	parent             int // -1 for a top section
	children           []int
	// last is the index of the last section in this section's subtree, so
	// the subtree is sections[i : last+1].
	last  int
	units int // UTF-16 length of src[start:end]
	hash  [32]byte
}

// posting collects, while building, the sections whose own text holds word.
type posting struct {
	word     string
	sections []int32
}

// pending is a section located by the admission pass, before its text is
// turned into strings and terms.
type pending struct {
	level          int
	heading        string
	start, ownEnd  int
	end            int
	parent         int
	unitsFromBytes int
}

// Build indexes every "*.md" file under the root of fsys. Files are visited in
// lexical path order, so the same bundle always yields the same index.
func Build(fsys fs.FS) (*Index, error) {
	files, err := readBundle(fsys)
	if err != nil {
		return nil, err
	}
	ix := &Index{}
	// Pass 1 (admission): locate sections and count the expanded size
	// without creating any section string.
	var plans [][]pending
	sections, expanded := 0, 0
	for _, f := range files {
		p := locateSections(f.src)
		sections += len(p)
		if sections > MaxSections {
			return nil, unavailable(ReasonTooManySections,
				"the guidance bundle has more than %d sections", MaxSections).
				WithDetail("limit", MaxSections).WithDetail("path", f.path)
		}
		var bounds []int
		for _, s := range p {
			bounds = append(bounds, s.start, s.end)
		}
		units := unitsAt(f.src, bounds)
		for i := range p {
			p[i].unitsFromBytes = units[p[i].end] - units[p[i].start]
			expanded += p[i].unitsFromBytes
		}
		if expanded > MaxExpandedUnits {
			return nil, unavailable(ReasonExpandedTooLarge,
				"the guidance bundle's sections expand to more than %d UTF-16 code units", MaxExpandedUnits).
				WithDetail("limit", MaxExpandedUnits).WithDetail("path", f.path)
		}
		plans = append(plans, p)
	}
	if sections == 0 {
		return nil, unavailable(ReasonEmptyBundle, "the guidance bundle holds no markdown sections")
	}
	// Pass 2: materialise.
	bundle := sha256.New()
	norm := newNormaliser()
	postings := map[string]*posting{}
	for d, f := range files {
		src := string(f.src)
		ix.docs = append(ix.docs, document{path: f.path, src: src})
		fileDigest := sha256.Sum256(f.src)
		writeField(bundle, f.path)
		bundle.Write(fileDigest[:])
		base := len(ix.sections)
		for _, p := range plans[d] {
			s := section{
				doc: d, level: p.level, heading: p.heading,
				start: p.start, ownEnd: p.ownEnd, end: p.end,
				parent: -1, units: p.unitsFromBytes,
			}
			if p.parent >= 0 {
				s.parent = base + p.parent
				parent := &ix.sections[s.parent]
				parent.children = append(parent.children, len(ix.sections))
			}
			i := int32(len(ix.sections))
			norm.eachWord(src[p.start:p.ownEnd], func(w []byte) {
				post, ok := postings[string(w)]
				if !ok {
					post = &posting{word: string(w)}
					postings[post.word] = post
				}
				// Sections are visited in order, so a repeated word
				// of this section is the last one appended.
				if n := len(post.sections); n == 0 || post.sections[n-1] != i {
					post.sections = append(post.sections, i)
				}
			})
			ix.sections = append(ix.sections, s)
		}
	}
	ix.postings = make(map[string][]int32, len(postings))
	for w, p := range postings {
		ix.postings[w] = p.sections
	}
	copy(ix.digest[:], bundle.Sum(nil))
	// Subtree bounds and hashes, children before parents.
	for i := len(ix.sections) - 1; i >= 0; i-- {
		s := &ix.sections[i]
		s.last = i
		if n := len(s.children); n > 0 {
			s.last = ix.sections[s.children[n-1]].last
		}
		s.hash = ix.sectionHash(i)
	}
	return ix, nil
}

// sectionHash binds the complete section: its document path, its position,
// its own text and, through their hashes, every subsection. Hashing children
// by digest keeps the total work linear in the bundle size.
func (ix *Index) sectionHash(i int) [32]byte {
	s := &ix.sections[i]
	doc := ix.docs[s.doc]
	h := sha256.New()
	h.Write([]byte("rea-guidance-section/1\x00"))
	writeField(h, doc.path)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(s.start))
	h.Write(n[:])
	own := sha256.Sum256([]byte(doc.src[s.start:s.ownEnd]))
	h.Write(own[:])
	for _, c := range s.children {
		h.Write(ix.sections[c].hash[:])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

func writeField(w io.Writer, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	w.Write(n[:])
	io.WriteString(w, s)
}

type bundleFile struct {
	path string
	src  []byte
}

// readBundle reads the markdown files, enforcing the byte limits while
// reading so an oversized or lying file is never held whole.
func readBundle(fsys fs.FS) ([]bundleFile, error) {
	var files []bundleFile
	total := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return unavailable(ReasonUnreadable, "cannot read the guidance bundle at %q: %v", p, err).WithDetail("path", p)
		}
		if d.IsDir() || !strings.EqualFold(path.Ext(p), ".md") {
			return nil
		}
		if !d.Type().IsRegular() {
			return unavailable(ReasonNotRegularFile, "guidance file %q is not a regular file (links are not followed)", p).WithDetail("path", p)
		}
		src, err := readLimited(fsys, p, MaxFileBytes)
		if err != nil {
			return err
		}
		total += len(src)
		if total > MaxBundleBytes {
			return unavailable(ReasonBundleTooLarge, "the guidance bundle exceeds %d bytes", MaxBundleBytes).
				WithDetail("limit", MaxBundleBytes).WithDetail("path", p)
		}
		if !utf8.Valid(src) {
			return unavailable(ReasonInvalidUTF8, "guidance file %q is not valid UTF-8", p).WithDetail("path", p)
		}
		files = append(files, bundleFile{path: p, src: src})
		return nil
	})
	if err != nil {
		var typed *abi.Error
		if errors.As(err, &typed) {
			return nil, typed
		}
		return nil, unavailable(ReasonUnreadable, "cannot read the guidance bundle: %v", err)
	}
	return files, nil
}

func readLimited(fsys fs.FS, p string, limit int) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, unavailable(ReasonUnreadable, "cannot open guidance file %q: %v", p, err).WithDetail("path", p)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > int64(limit) {
		return nil, tooLarge(p, limit)
	}
	src, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, unavailable(ReasonUnreadable, "cannot read guidance file %q: %v", p, err).WithDetail("path", p)
	}
	if len(src) > limit {
		return nil, tooLarge(p, limit)
	}
	return src, nil
}

func tooLarge(p string, limit int) *abi.Error {
	return unavailable(ReasonFileTooLarge, "guidance file %q exceeds %d bytes", p, limit).
		WithDetail("limit", limit).WithDetail("path", p)
}

func unavailable(reason, format string, args ...any) *abi.Error {
	msg := fmt.Sprintf(format, args...) +
		"; no guidance was indexed. Reinstall the guidance bundle (`rea setup`) or use the packaged copy."
	return abi.Errorf(abi.CodeBundleUnavailable, "%s", msg).WithDetail("reason", reason)
}

// locateSections finds the sections of one file as byte ranges. YAML front
// matter (a first line "---" up to a closing "---" or "...") is metadata and
// belongs to no section. Text between it and the first heading that is not
// blank forms a level-0 preamble section whose subsections are all headings.
func locateSections(src []byte) []pending {
	doc := markdown.Scan(src)
	lines := doc.Lines
	bodyLine := frontMatterEnd(src, lines)
	bodyStart := len(src)
	if bodyLine < len(lines) {
		bodyStart = lines[bodyLine].Start
	}
	var out []pending
	// Heading starts after the front matter.
	type hd struct {
		level int
		text  string
		start int
	}
	var heads []hd
	for _, h := range doc.Headings {
		if h.Line < bodyLine {
			continue
		}
		heads = append(heads, hd{h.Level, h.Text, lines[h.Line].Start})
	}
	firstHead := len(src)
	if len(heads) > 0 {
		firstHead = heads[0].start
	}
	if strings.TrimSpace(string(src[bodyStart:firstHead])) != "" {
		out = append(out, pending{level: 0, start: bodyStart, ownEnd: firstHead, end: len(src), parent: -1})
	}
	// stack of indices into out of open sections
	var stack []int
	if len(out) == 1 {
		stack = append(stack, 0)
	}
	for i, h := range heads {
		for len(stack) > 0 && out[stack[len(stack)-1]].level >= h.level {
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		end := len(src)
		for _, later := range heads[i+1:] {
			if later.level <= h.level {
				end = later.start
				break
			}
		}
		ownEnd := end
		if i+1 < len(heads) && heads[i+1].level > h.level {
			ownEnd = heads[i+1].start
		}
		out = append(out, pending{level: h.level, heading: h.text, start: h.start, ownEnd: ownEnd, end: end, parent: parent})
		stack = append(stack, len(out)-1)
	}
	return out
}

// frontMatterEnd returns the index of the first line after YAML front matter,
// or 0 when the file has none.
func frontMatterEnd(src []byte, lines []markdown.Line) int {
	if len(lines) == 0 || strings.TrimRight(string(src[lines[0].Start:lines[0].End]), " \t") != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		l := strings.TrimRight(string(src[lines[i].Start:lines[i].End]), " \t")
		if l == "---" || l == "..." {
			return i + 1
		}
	}
	return 0
}

// unitsAt returns the UTF-16 code units of src[:b] for each offset b in
// offsets, in one pass over src. Offsets are rune boundaries (line starts or
// len(src)).
func unitsAt(src []byte, offsets []int) map[int]int {
	out := make(map[int]int, len(offsets))
	if isASCIIBytes(src) {
		for _, off := range offsets {
			out[off] = off
		}
		return out
	}
	sorted := slices.Clone(offsets)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	n, i := 0, 0
	for _, off := range sorted {
		for i < off && i < len(src) {
			r, size := utf8.DecodeRune(src[i:])
			n += runeUnits(r)
			i += size
		}
		out[off] = n
	}
	return out
}

func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// locator returns section i's locator.
func (ix *Index) locator(i int) string { return formatLocator(ix.digest, ix.sections[i].hash) }

// headingPath lists the headings from section i's document top down to i.
func (ix *Index) headingPath(i int) []string {
	depth := 0
	for j := i; j >= 0; j = ix.sections[j].parent {
		depth++
	}
	out := make([]string, depth)
	for j := i; j >= 0; j = ix.sections[j].parent {
		depth--
		out[depth] = ix.sections[j].heading
	}
	return out
}

// locatorPrefix versions the locator format.
const locatorPrefix = "g1"

// formatLocator encodes the first 128 bits of the bundle digest and of the
// section hash: fixed size whatever the heading, the path or the section.
func formatLocator(bundle, sec [32]byte) string {
	return locatorPrefix + "." + hex.EncodeToString(bundle[:16]) + "." + hex.EncodeToString(sec[:16])
}
