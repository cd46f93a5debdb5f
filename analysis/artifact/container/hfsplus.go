package container

import (
	"encoding/binary"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"unicode/utf16"

	"rea/abi"
	"rea/analysis/artifact/artpath"
	"rea/analysis/artifact/inventory"
)

// HFS+ and HFSX as Apple's Technical Note TN1150 describes them
// (big-endian throughout): a 512-byte volume header at byte 1024 of the
// partition names the allocation block size and the extents of the
// special files; the catalog file is a B-tree whose leaf records are the
// folders and files (keyed by parent folder ID and UTF-16 name), each
// file with the eight first extents of its data fork; a fork with more
// extents continues in the extents-overflow B-tree. rea reads both trees
// leaf by leaf through the leaf chain, never trusting a link or an offset,
// and holds what the chain gave against the header's count of leaf
// records: a catalog cut short is listed as far as it goes and said, and
// records whose folder the root does not reach are counted and said.
const (
	hfsHeaderSize = 512
	// hfsRootParentID is the parent ID of the root folder's record.
	hfsRootParentID = 1
	hfsRootID       = 2
	hfsExtentsID    = 3
	hfsCatalogID    = 4
	hfsMaxNodeSize  = 32768
	// hfsPrivateDir holds the files that hard links name (iNode<n>);
	// hfsDirLinkDir the targets of directory hard links. macOS hides both.
	hfsPrivateDir = "\x00\x00\x00\x00HFS+ Private Data"
	hfsDirLinkDir = ".HFS+ Private Directory Data\r"
	// hfsUFCompressed (ownerFlags) marks a file whose bytes decmpfs keeps
	// compressed in an extended attribute or the resource fork.
	hfsUFCompressed = 0x20
	// hfsJournaled is the volume attribute of a journaled volume, whose
	// journal files macOS hides.
	hfsJournaled = 0x2000
)

// File type bits of an HFS+ BSD mode.
const (
	hfsIFMT  = 0o170000
	hfsIFREG = 0o100000
	hfsIFDIR = 0o040000
	hfsIFLNK = 0o120000
)

type hfsExtent struct{ start, count uint32 }

// hfsFork is a fork's logical size and its first eight extents.
type hfsFork struct {
	logical int64
	blocks  uint32
	ext     [8]hfsExtent
}

func parseFork(b []byte) hfsFork {
	be := binary.BigEndian
	f := hfsFork{logical: int64(be.Uint64(b) & (1<<62 - 1)), blocks: be.Uint32(b[12:])}
	if be.Uint64(b) >= 1<<62 {
		f.logical = -1
	}
	for i := range f.ext {
		f.ext[i] = hfsExtent{be.Uint32(b[16+8*i:]), be.Uint32(b[20+8*i:])}
	}
	return f
}

// hfsRun is a run of a fork's bytes: n bytes at off of the partition.
type hfsRun struct{ off, n int64 }

// hfsRecord is a folder or file record of the catalog.
type hfsRecord struct {
	name          []uint16
	folder        bool
	id            uint32
	mode          uint16
	ownerFlags    uint8
	fdType, fdCrt string
	special       uint32
	data          hfsFork
	rsrcBytes     int64 // the resource fork's logical size, which rea does not read
}

// hfsVolume reads one HFS+/HFSX volume through its partition's reader.
type hfsVolume struct {
	s          *scope
	r          *udifReader
	img        *udifImage
	file       string
	blockSize  int64
	blocks     int64
	journaled  bool
	extents    hfsFork
	overflow   map[uint32][]hfsOverflow // by file ID, data forks only; nil until read
	children   map[uint32][]hfsRecord
	records    int
	seen       map[uint32]bool
	private    uint32 // the hard-link folder's ID, 0 when absent
	inodes     map[string]hfsRecord
	skipped    []string
	skippedWhy map[string]int
	// forked names the files listed by their data fork whose resource
	// fork holds bytes rea does not read.
	forked []string
}

// hfsOverflow is one extents-overflow record: extents continuing a fork
// from its allocation block start.
type hfsOverflow struct {
	start uint32
	ext   [8]hfsExtent
}

// isHFSPlusSignature reports whether the 4 bytes at offset 1024 of a
// volume are HFS+'s ("H+", version 4) or HFSX's ("HX", version 5).
func isHFSPlusSignature(sig string) bool { return sig == "H+\x00\x04" || sig == "HX\x00\x05" }

// listHFSPlus lists the HFS+ volume r reads: its folders, files (as the
// image's chunks holding their data forks) and symbolic links.
func listHFSPlus(s *scope, r *udifReader, img *udifImage, file string) error {
	v := &hfsVolume{s: s, r: r, img: img, file: file, children: map[uint32][]hfsRecord{}, seen: map[uint32]bool{}, skippedWhy: map[string]int{}}
	catalog, err := v.readHeader()
	if err != nil {
		return err
	}
	runs, err := v.forkRuns(catalog, hfsCatalogID, "the catalog file")
	if err != nil {
		return err
	}
	t, err := v.openTree("catalog", runs, catalog.logical)
	if err != nil {
		return err
	}
	chain, err := v.leaves(t, v.catalogRecord)
	if err != nil {
		return err
	}
	for _, k := range v.children[hfsRootID] {
		if k.folder && string(utf16.Decode(k.name)) == hfsPrivateDir {
			v.private = k.id
		}
	}
	if err := v.walk(hfsRootID, "", 0); err != nil {
		return err
	}
	if why := chain.differs(t); why != "" {
		s.b.res.Limitations = append(s.b.res.Limitations, fmt.Sprintf(
			"the disk image's HFS+ catalog is cut short or inconsistent: %s; files and folders whose records the chain does not reach are not listed; check the volume with fsck_hfs or extract the image with 7-Zip (7z x) to compare",
			why))
	}
	if n, first := v.orphans(); n > 0 {
		s.b.res.Limitations = append(s.b.res.Limitations, fmt.Sprintf(
			"%d file(s) and folder(s) of the disk image's HFS+ catalog lie in folders the volume's root does not reach, and are not listed (first: %s); the catalog is damaged or was altered; check the volume with fsck_hfs or extract the image with 7-Zip (7z x) to compare",
			n, first))
	}
	if len(v.forked) > 0 {
		s.b.res.Limitations = append(s.b.res.Limitations, fmt.Sprintf(
			"%d file(s) of the disk image's HFS+ volume carry a resource fork, which rea does not read: each is listed and hashed by its data fork only (first: %s); extract the image with 7-Zip (7z x) to read the forks",
			len(v.forked), v.forked[0]))
	}
	if len(v.skipped) > 0 {
		var why []string
		for w, n := range v.skippedWhy {
			why = append(why, fmt.Sprintf("%d %s", n, w))
		}
		sort.Strings(why)
		s.b.res.Limitations = append(s.b.res.Limitations, fmt.Sprintf(
			"%d file(s) of the disk image's HFS+ volume were not listed because rea does not read them (%s; first: %s); extract the image with 7-Zip (7z x) to read them",
			len(v.skipped), strings.Join(why, ", "), v.skipped[0]))
	}
	return nil
}

// readHeader checks the volume header and returns the catalog's fork.
func (v *hfsVolume) readHeader() (hfsFork, error) {
	var h [hfsHeaderSize]byte
	if _, err := v.r.ReadAt(h[:], 1024); err != nil {
		return hfsFork{}, err
	}
	be := binary.BigEndian
	switch sig := string(h[:4]); {
	case isHFSPlusSignature(sig):
	case sig[:2] == "BD":
		return hfsFork{}, abi.Errorf(abi.CodeCapabilityUnavailable, "the disk image's volume is HFS (Mac OS Standard) or an HFS wrapper, not HFS+; rea reads HFS+ and HFSX volumes; extract it with 7z x").WithDetail("format", "dmg")
	default:
		return hfsFork{}, malformedf("the disk image's partition holds no HFS+ volume header (signature %q at byte 1024)", sig)
	}
	v.journaled = be.Uint32(h[4:])&hfsJournaled != 0
	v.blockSize, v.blocks = int64(be.Uint32(h[40:])), int64(be.Uint32(h[44:]))
	if v.blockSize < 512 || v.blockSize > 1<<20 || v.blockSize&(v.blockSize-1) != 0 {
		return hfsFork{}, malformedf("the HFS+ volume header declares allocation blocks of %d bytes", v.blockSize)
	}
	if v.blocks*v.blockSize > v.r.p.size {
		return hfsFork{}, malformedf("the HFS+ volume declares %d blocks of %d bytes, more than its %d-byte partition holds", v.blocks, v.blockSize, v.r.p.size)
	}
	v.extents = parseFork(h[192:])
	return parseFork(h[272:]), nil
}

// forkRuns maps the fork of file id to runs of partition bytes: its
// eight extents, then as many overflow extents as its size needs.
func (v *hfsVolume) forkRuns(f hfsFork, id uint32, what string) ([]hfsRun, error) {
	if f.logical < 0 {
		return nil, malformedf("%s declares an impossible size", what)
	}
	need := (f.logical + v.blockSize - 1) / v.blockSize
	var ext []hfsExtent
	var have int64
	for _, e := range f.ext {
		if have >= need {
			break
		}
		ext = append(ext, e)
		have += int64(e.count)
	}
	if have < need {
		if id == hfsExtentsID {
			return nil, malformedf("the extents-overflow file's own extents hold %d of its %d blocks", have, need)
		}
		more, err := v.overflowOf(id)
		if err != nil {
			return nil, err
		}
		for _, o := range more {
			if have >= need {
				break
			}
			if int64(o.start) != have {
				return nil, malformedf("the extents of %s continue at block %d where block %d comes next", what, o.start, have)
			}
			for _, e := range o.ext {
				ext = append(ext, e)
				have += int64(e.count)
			}
		}
	}
	if have < need {
		return nil, malformedf("%s declares %d bytes, but its extents hold %d blocks of %d bytes", what, f.logical, have, v.blockSize)
	}
	var runs []hfsRun
	left := f.logical
	for _, e := range ext {
		if left <= 0 {
			break
		}
		if e.count == 0 {
			continue
		}
		if int64(e.start)+int64(e.count) > v.blocks {
			return nil, malformedf("an extent of %s (%d blocks at block %d) lies outside the %d-block volume", what, e.count, e.start, v.blocks).
				WithDetail("extent_start", e.start)
		}
		n := min(left, int64(e.count)*v.blockSize)
		off := int64(e.start) * v.blockSize
		if k := len(runs) - 1; k >= 0 && runs[k].off+runs[k].n == off {
			runs[k].n += n
		} else {
			runs = append(runs, hfsRun{off, n})
		}
		left -= n
	}
	return runs, nil
}

// overflowOf returns the overflow extents of file id's data fork, in
// order, reading the extents-overflow B-tree once.
func (v *hfsVolume) overflowOf(id uint32) ([]hfsOverflow, error) {
	if v.overflow == nil {
		v.overflow = map[uint32][]hfsOverflow{}
		runs, err := v.forkRuns(v.extents, hfsExtentsID, "the extents-overflow file")
		if err != nil {
			return nil, err
		}
		t, err := v.openTree("extents-overflow", runs, v.extents.logical)
		if err != nil {
			return nil, err
		}
		chain, err := v.leaves(t, func(rec []byte) error {
			be := binary.BigEndian
			if len(rec) < 12+64 || be.Uint16(rec) != 10 {
				return malformedf("an extents-overflow record of %d bytes is malformed", len(rec))
			}
			if rec[2] != 0 { // resource forks are not listed
				return nil
			}
			o := hfsOverflow{start: be.Uint32(rec[8:])}
			for i := range o.ext {
				o.ext[i] = hfsExtent{be.Uint32(rec[12+8*i:]), be.Uint32(rec[16+8*i:])}
			}
			fid := be.Uint32(rec[4:])
			v.overflow[fid] = append(v.overflow[fid], o)
			return nil
		})
		if err != nil {
			return nil, err
		}
		// An overflow record the chain did not reach would leave a fork
		// short: the volume is refused, as a fork short of its size is.
		if why := chain.differs(t); why != "" {
			return nil, malformedf("the extents-overflow B-tree is inconsistent: %s", why)
		}
		for _, os := range v.overflow {
			sort.Slice(os, func(i, j int) bool { return os[i].start < os[j].start })
		}
	}
	return v.overflow[id], nil
}

// hfsTree is one B-tree file: its runs of bytes and header record.
type hfsTree struct {
	what       string
	runs       []hfsRun
	nodeSize   int64
	totalNodes int64
	firstLeaf  uint32
	// leafRecords and lastLeaf are what the header says the leaf chain
	// holds and where it ends, against which a chain cut short is told.
	leafRecords int64
	lastLeaf    uint32
}

// openTree reads a B-tree's header node.
func (v *hfsVolume) openTree(what string, runs []hfsRun, size int64) (*hfsTree, error) {
	t := &hfsTree{what: what, runs: runs, nodeSize: 512, totalNodes: 1}
	if size < 512 {
		return nil, malformedf("the %s B-tree is %d bytes, too small for its header node", what, size)
	}
	n, err := v.node(t, 0)
	if err != nil {
		return nil, err
	}
	be := binary.BigEndian
	if int8(n[8]) != 1 {
		return nil, malformedf("node 0 of the %s B-tree is not its header node (kind %d)", what, int8(n[8]))
	}
	hr := n[14:]
	t.leafRecords = int64(be.Uint32(hr[6:]))
	t.firstLeaf, t.lastLeaf = be.Uint32(hr[10:]), be.Uint32(hr[14:])
	t.nodeSize = int64(be.Uint16(hr[18:]))
	t.totalNodes = int64(be.Uint32(hr[22:]))
	if t.nodeSize < 512 || t.nodeSize > hfsMaxNodeSize || t.nodeSize&(t.nodeSize-1) != 0 {
		return nil, malformedf("the %s B-tree declares nodes of %d bytes", what, t.nodeSize)
	}
	if t.totalNodes > size/t.nodeSize {
		return nil, malformedf("the %s B-tree declares %d nodes of %d bytes in a %d-byte file", what, t.totalNodes, t.nodeSize, size)
	}
	return t, nil
}

// node reads node i of a B-tree, charging it to max_header_bytes (the
// image's one budget, which the property list was charged to first).
func (v *hfsVolume) node(t *hfsTree, i uint32) ([]byte, error) {
	if int64(i) >= t.totalNodes {
		return nil, malformedf("the %s B-tree links to node %d of its %d", t.what, i, t.totalNodes)
	}
	*v.r.budget -= t.nodeSize
	if *v.r.budget < 0 {
		lim := v.s.b.lim.MaxHeaderBytes
		return nil, limitError("max_header_bytes", lim, lim-*v.r.budget, "the disk image's property list and the nodes of its HFS+ catalog and extents B-trees read")
	}
	b := make([]byte, t.nodeSize)
	off := int64(i) * t.nodeSize
	for done := int64(0); done < t.nodeSize; {
		at, found := off+done, false
		for _, r := range t.runs {
			if at < r.n {
				k := min(r.n-at, t.nodeSize-done)
				if _, err := v.r.ReadAt(b[done:done+k], r.off+at); err != nil {
					return nil, err
				}
				done, found = done+k, true
				break
			}
			at -= r.n
		}
		if !found {
			return nil, malformedf("node %d of the %s B-tree lies past the end of its file", i, t.what)
		}
	}
	return b, nil
}

// records splits a B-tree node into its records, checking the offsets
// table at its end.
func (t *hfsTree) records(n []byte, i uint32) ([][]byte, error) {
	be := binary.BigEndian
	count := int64(be.Uint16(n[10:]))
	table := t.nodeSize - 2*(count+1)
	if table < 14 {
		return nil, malformedf("node %d of the %s B-tree declares %d records, more than it can hold", i, t.what, count)
	}
	out := make([][]byte, 0, count)
	prev := int64(be.Uint16(n[t.nodeSize-2:]))
	for k := int64(1); k <= count; k++ {
		next := int64(be.Uint16(n[t.nodeSize-2*(k+1):]))
		if prev < 14 || next < prev || next > table {
			return nil, malformedf("record %d of node %d of the %s B-tree lies at offsets %d–%d, outside the node's %d bytes of records", k-1, i, t.what, prev, next, table)
		}
		out = append(out, n[prev:next])
		prev = next
	}
	return out, nil
}

// hfsChain is what a walk of a leaf chain read, beside what the tree's
// header says it holds.
type hfsChain struct {
	records int64  // leaf records read
	last    uint32 // the last leaf node read, 0 when none
}

// differs says how the chain read disagrees with its tree's header (a
// chain cut short holds fewer records, or ends early), or "" when it
// holds exactly the records the header declares and ends at its last
// leaf node.
func (c hfsChain) differs(t *hfsTree) string {
	switch {
	case c.records != t.leafRecords:
		return fmt.Sprintf("its leaf chain holds %d records where its header declares %d", c.records, t.leafRecords)
	case c.last != t.lastLeaf:
		return fmt.Sprintf("its leaf chain ends at node %d where its header names node %d", c.last, t.lastLeaf)
	}
	return ""
}

// leaves calls fn on every leaf record, following the leaf chain from
// the first leaf; a node reached twice is a cycle and refused. The
// caller compares what was read with the header (hfsChain.differs): a
// chain cut short ends without an error.
func (v *hfsVolume) leaves(t *hfsTree, fn func(rec []byte) error) (hfsChain, error) {
	var c hfsChain
	visited := map[uint32]bool{}
	for i := t.firstLeaf; i != 0; {
		if visited[i] {
			return c, malformedf("the leaf chain of the %s B-tree returns to node %d (a cycle)", t.what, i).WithDetail("node", i)
		}
		visited[i] = true
		n, err := v.node(t, i)
		if err != nil {
			return c, err
		}
		if int8(n[8]) != -1 {
			return c, malformedf("node %d of the %s B-tree's leaf chain is not a leaf node (kind %d)", i, t.what, int8(n[8]))
		}
		recs, err := t.records(n, i)
		if err != nil {
			return c, err
		}
		for _, rec := range recs {
			if err := fn(rec); err != nil {
				return c, err
			}
		}
		c.records += int64(len(recs))
		c.last = i
		i = binary.BigEndian.Uint32(n)
	}
	return c, nil
}

// catalogRecord files one catalog leaf record under its parent folder.
func (v *hfsVolume) catalogRecord(rec []byte) error {
	be := binary.BigEndian
	if len(rec) < 8 {
		return malformedf("a catalog record of %d bytes is too short for its key", len(rec))
	}
	keyLen := int(be.Uint16(rec))
	nameLen := int(be.Uint16(rec[6:]))
	if keyLen < 6 || 2+keyLen > len(rec) || 6+2*nameLen > keyLen || nameLen > 255 {
		return malformedf("a catalog key (%d bytes, a %d-character name) runs past its %d-byte record", keyLen, nameLen, len(rec))
	}
	parent := be.Uint32(rec[2:])
	name := make([]uint16, nameLen)
	for i := range name {
		name[i] = be.Uint16(rec[8+2*i:])
	}
	if 2+keyLen+keyLen%2+2 > len(rec) {
		return malformedf("a catalog record has no data after its key")
	}
	data := rec[2+keyLen+keyLen%2:]
	r := hfsRecord{name: name}
	switch be.Uint16(data) {
	case 1: // folder
		if len(data) < 88 {
			return malformedf("a catalog folder record of %d bytes is too short", len(data))
		}
		r.folder, r.id, r.mode = true, be.Uint32(data[8:]), be.Uint16(data[42:])
	case 2: // file
		if len(data) < 248 {
			return malformedf("a catalog file record of %d bytes is too short", len(data))
		}
		r.id, r.ownerFlags, r.mode, r.special = be.Uint32(data[8:]), data[41], be.Uint16(data[42:]), be.Uint32(data[44:])
		r.fdType, r.fdCrt = string(data[48:52]), string(data[52:56])
		r.data = parseFork(data[88:])
		r.rsrcBytes = parseFork(data[168:]).logical
	case 3, 4: // threads: the same names, keyed by ID
		return nil
	default:
		return malformedf("a catalog record has type %d (HFS+ knows 1–4)", be.Uint16(data))
	}
	if v.records++; v.records > 2*v.s.b.lim.MaxEntries+1024 {
		return limitError("max_entries", int64(v.s.b.lim.MaxEntries), int64(v.records), "the HFS+ catalog holds at least this many files and folders")
	}
	v.children[parent] = append(v.children[parent], r)
	return nil
}

// hfsName turns a catalog name into a path segment as macOS shows it: a
// '/' (the Carbon separator's stand-in) reads as ':'.
func hfsName(u []uint16) (string, error) {
	name := strings.ReplaceAll(string(utf16.Decode(u)), "/", ":")
	if err := artpath.ValidSegment(name); err != nil {
		return "", err
	}
	return name, nil
}

// walk lists folder id's children under prefix.
func (v *hfsVolume) walk(id uint32, prefix string, depth int) error {
	if depth > v.s.b.lim.MaxDepth {
		return limitError("max_depth", int64(v.s.b.lim.MaxDepth), int64(depth), fmt.Sprintf("HFS+ folder %q is nested %d levels deep", prefix, depth))
	}
	if v.seen[id] {
		return malformedf("HFS+ folder %q is reached twice (a folder cycle)", prefix).WithDetail("path", prefix)
	}
	v.seen[id] = true
	for _, k := range v.children[id] {
		raw := string(utf16.Decode(k.name))
		if id == hfsRootID && (raw == hfsPrivateDir || raw == hfsDirLinkDir ||
			v.journaled && (raw == ".journal" || raw == ".journal_info_block")) {
			continue
		}
		name, err := hfsName(k.name)
		if err != nil {
			return malformedf("HFS+ folder %q holds an entry named %q", prefix, raw).WithDetail("path", prefix)
		}
		norm, err := v.s.normalize(path.Join(prefix, name))
		if err != nil {
			return err
		}
		if k.folder {
			if _, err := v.s.add(inventory.Entry{Path: norm, Kind: inventory.KindDirectory}); err != nil {
				return err
			}
			if err := v.walk(k.id, norm, depth+1); err != nil {
				return err
			}
			continue
		}
		if err := v.fileEntry(k, norm); err != nil {
			return err
		}
	}
	return nil
}

// orphans counts the catalog's file and folder records whose parent
// folder the root does not reach (the hidden private folders count as
// reached: their files are read through hard links), and names the
// first by its parent ID and name; the root folder's own record, under
// its parent ID 1, is not one.
func (v *hfsVolume) orphans() (int, string) {
	reached := map[uint32]bool{hfsRootID: true}
	for todo := []uint32{hfsRootID}; len(todo) > 0; {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, k := range v.children[id] {
			if k.folder && !reached[k.id] {
				reached[k.id] = true
				todo = append(todo, k.id)
			}
		}
	}
	parents := make([]uint32, 0, len(v.children))
	for p := range v.children {
		parents = append(parents, p)
	}
	sort.Slice(parents, func(i, j int) bool { return parents[i] < parents[j] })
	n, first := 0, ""
	for _, p := range parents {
		if reached[p] {
			continue
		}
		for _, k := range v.children[p] {
			if p == hfsRootParentID && k.folder && k.id == hfsRootID {
				continue
			}
			if n++; first == "" {
				first = fmt.Sprintf("%q in folder ID %d", string(utf16.Decode(k.name)), p)
			}
		}
	}
	return n, first
}

// fileEntry lists one file record: a hard link as the file it names, a
// symbolic link with its target, a file with the blocks of its data fork.
func (v *hfsVolume) fileEntry(k hfsRecord, norm string) error {
	if k.fdType == "hlnk" && k.fdCrt == "hfs+" {
		target, ok := v.inode(k.special)
		if !ok {
			return malformedf("HFS+ hard link %q names iNode%d, which the volume's private folder does not hold", norm, k.special).WithDetail("path", norm)
		}
		k = target
	}
	if k.fdType == "fdrp" && k.fdCrt == "MACS" {
		// A directory hard link: its folder lies in the private
		// directory-data folder, which rea does not follow.
		v.skip(norm, "a directory hard link")
		return nil
	}
	if k.ownerFlags&hfsUFCompressed != 0 {
		v.skip(norm, "compressed by the file system (decmpfs)")
		return nil
	}
	if k.rsrcBytes != 0 {
		v.forked = append(v.forked, norm)
	}
	switch k.mode & hfsIFMT {
	case 0, hfsIFREG, hfsIFLNK:
	default:
		return malformedf("HFS+ entry %q is a device, FIFO or socket (mode %#o); rea only inventories files, folders and links", norm, k.mode).WithDetail("path", norm)
	}
	runs, err := v.forkRuns(k.data, k.id, fmt.Sprintf("the data fork of %q", norm))
	if err != nil {
		return withDetail(err, "path", norm)
	}
	if k.mode&hfsIFMT == hfsIFLNK || k.fdType == "slnk" && k.fdCrt == "rhap" {
		if k.data.logical > int64(v.s.b.lim.MaxPathBytes) {
			return limitError("max_path_bytes", int64(v.s.b.lim.MaxPathBytes), k.data.logical, fmt.Sprintf("the target of HFS+ link %q is %d bytes", norm, k.data.logical))
		}
		for _, r := range runs {
			if bad := v.r.undecodable(r.off, r.n); bad != 0 {
				v.skip(norm, "in chunks compressed with "+udifChunkNames[bad])
				return nil
			}
		}
		target := make([]byte, 0, k.data.logical)
		for _, r := range runs {
			b := make([]byte, r.n)
			if _, err := v.r.ReadAt(b, r.off); err != nil {
				return withDetail(err, "path", norm)
			}
			target = append(target, b...)
		}
		_, err := v.s.add(inventory.Entry{Path: norm, Kind: inventory.KindLink, Link: inventory.NewLink(string(target), path.Dir(norm))})
		return err
	}
	if k.data.logical > v.s.b.lim.MaxEntryBytes {
		return limitError("max_entry_bytes", v.s.b.lim.MaxEntryBytes, k.data.logical, fmt.Sprintf("entry %q declares %d bytes", norm, k.data.logical))
	}
	var blocks []inventory.Block
	for _, r := range runs {
		b, bad := v.r.blocks(r.off, r.n)
		if bad != 0 {
			v.skip(norm, "in chunks compressed with "+udifChunkNames[bad])
			return nil
		}
		blocks = append(blocks, b...)
	}
	_, err = v.s.add(inventory.Entry{Path: norm, Kind: inventory.KindFile, Size: k.data.logical, Executable: k.mode&0o111 != 0,
		Data: &inventory.Range{File: v.file, Offset: v.img.forkOff, Length: v.img.forkLen, Compression: inventory.CompressionBlocks, Blocks: blocks}})
	return err
}

// inode finds the file a hard link names: iNode<n> in the private folder.
func (v *hfsVolume) inode(n uint32) (hfsRecord, bool) {
	if v.private == 0 {
		return hfsRecord{}, false
	}
	if v.inodes == nil {
		v.inodes = map[string]hfsRecord{}
		for _, k := range v.children[v.private] {
			if !k.folder && k.fdType != "hlnk" {
				v.inodes[string(utf16.Decode(k.name))] = k
			}
		}
	}
	k, ok := v.inodes[fmt.Sprintf("iNode%d", n)]
	return k, ok
}

// skip records a file that is not listed because its bytes cannot be
// decoded; the inventory then says it is partial.
func (v *hfsVolume) skip(norm, why string) {
	v.skipped = append(v.skipped, norm)
	v.skippedWhy[why]++
}

var _ io.ReaderAt = (*udifReader)(nil)
