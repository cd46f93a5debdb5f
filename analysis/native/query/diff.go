package query

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io/fs"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"rea/abi"
	"rea/analysis/native/executable"
	"rea/analysis/native/nativewire"
)

// Whole-binary diff: every function of two builds matched unique-only —
// by name (when both sides name it once and the name is not a synthetic
// sub_…), then by a hash of its instructions with addresses normalised,
// then by a fingerprint of CFG shape, referenced strings and named
// callees. A fingerprint several functions share matches nothing: those
// are ambiguous, never guessed.

// features are one function's comparable facts, kept compact: a large
// binary has tens of thousands of functions and the first side's features
// stay while the second side is analysed. Strings and callee names are
// kept as sorted 64-bit hashes, the fingerprint as one hash.
type features struct {
	fn      nativewire.DiffFunction
	ops     []executable.OpCount
	strings []uint64
	callees []uint64
	edges   int
	print   [16]byte
}

// synthetic says a name was made up by rea rather than read from the file.
func synthetic(name string) bool { return strings.HasPrefix(name, "sub_") || name == "entry" }

// hash64 names one string or callee in a feature set.
func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// sortedSet sorts and deduplicates a set of hashes.
func sortedSet(s []uint64) []uint64 {
	slices.Sort(s)
	return slices.Compact(s)
}

func sideFeatures(a *executable.Analysis, progress func(done, total int64), base, total int64) ([]*features, error) {
	var out []*features
	for i := range a.Procedures {
		pr := &a.Procedures[i]
		if pr.Kind != executable.KindFunction || pr.External {
			continue
		}
		// The digest is taken while decoding: no text, no instruction list.
		d, err := a.DigestOf(pr)
		if err != nil {
			continue
		}
		f := &features{ops: d.Ops, edges: d.Edges}
		for _, m := range d.Memory {
			if s := cstringAt(a.File, m); s != "" {
				f.strings = append(f.strings, hash64(s))
			}
		}
		for _, c := range a.Callees(pr.Address) {
			if n := a.NameAt(c.Callee); n != "" && !synthetic(n) {
				f.callees = append(f.callees, hash64(n))
			} else {
				f.callees = append(f.callees, hash64("?"))
			}
		}
		f.strings, f.callees = sortedSet(f.strings), sortedSet(f.callees)
		f.fn = nativewire.DiffFunction{Address: pr.Address, Name: pr.Name, Demangled: pr.Demangled, Instructions: d.Instructions, Blocks: d.Blocks,
			Hash: hex.EncodeToString(d.Hash[:8])}
		ph := sha256.New()
		fmt.Fprintf(ph, "%d/%d/%d|", d.Blocks, d.Edges, d.Instructions/8)
		for _, set := range [][]uint64{f.strings, f.callees} {
			for _, v := range set {
				ph.Write(binary.LittleEndian.AppendUint64(nil, v))
			}
			ph.Write([]byte{'|'})
		}
		copy(f.print[:], ph.Sum(nil))
		out = append(out, f)
		if progress != nil && i%512 == 0 {
			progress(base+int64(i), total)
		}
		// wasm runs one thread and never preempts, so the collector's mark
		// workers run only when this loop yields. Without it the first
		// side's decode garbage (x86asm boxes one struct per instruction)
		// piled up to 860 MiB on a 15 MB binary with numgc stuck at 1, and
		// rea's own 100 MB binary ran out of the 1 GiB sandbox (a 2 MB one
		// collected fine; see docs/notes.md, session 7).
		if i%32 == 0 {
			runtime.Gosched()
		}
	}
	return out, nil
}

// cstringAt is the printable NUL-terminated text (4 to 64 bytes) at an
// address, "" when there is none.
func cstringAt(f *executable.File, at executable.Addr) string {
	b, err := f.ReadAt(at, 65)
	if err != nil {
		return ""
	}
	for i, c := range b {
		if c == 0 {
			if i < 4 {
				return ""
			}
			return string(b[:i])
		}
		if c < 0x20 || c > 0x7e {
			return ""
		}
	}
	return ""
}

// similarity weighs instructions (mnemonic multiset), CFG shape, strings
// and callees.
func similarity(l, r *features) float64 {
	if l.fn.Hash == r.fn.Hash {
		return 1
	}
	inter, union := 0, 0
	i, j := 0, 0
	for i < len(l.ops) || j < len(r.ops) {
		switch {
		case j == len(r.ops) || i < len(l.ops) && l.ops[i].Op < r.ops[j].Op:
			union += int(l.ops[i].N)
			i++
		case i == len(l.ops) || r.ops[j].Op < l.ops[i].Op:
			union += int(r.ops[j].N)
			j++
		default:
			inter += int(min(l.ops[i].N, r.ops[j].N))
			union += int(max(l.ops[i].N, r.ops[j].N))
			i, j = i+1, j+1
		}
	}
	ins := ratio(inter, union)
	shape := (ratio(min(l.fn.Blocks, r.fn.Blocks), max(l.fn.Blocks, r.fn.Blocks)) + ratio(min(l.edges, r.edges), max(l.edges, r.edges))) / 2
	s := 0.5*ins + 0.2*shape + 0.15*jaccard(l.strings, r.strings) + 0.15*jaccard(l.callees, r.callees)
	return float64(int(s*1000)) / 1000
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// jaccard of two sorted, deduplicated sets.
func jaccard(a, b []uint64) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			inter, i, j = inter+1, i+1, j+1
		}
	}
	return ratio(inter, len(a)+len(b)-inter)
}

// RunDiff analyses the binary under left and the one under right and
// matches their functions.
func RunDiff(p Params, left, right fs.FS, progress *abi.Reporter) (any, error) {
	if err := p.Page(DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	other := p
	other.Input = p.Other
	report := func(done, total int64) {
		if progress != nil {
			progress.Report(abi.Progress{Phase: "diff", Done: done, Total: total, Message: "fingerprinting functions"})
		}
	}
	// One side at a time: its inventory is dropped once its functions'
	// features are taken, so two large builds fit where two inventories
	// would not.
	side := func(fsys fs.FS, q Params, name string, half int64) ([]*features, Target, []string, error) {
		f, closeInput, err := open(fsys, q)
		if err != nil {
			if ae, ok := err.(*abi.Error); ok {
				ae.Details["side"] = name
			}
			return nil, Target{}, nil, err
		}
		defer closeInput()
		// No string inventory: a large binary's millions of strings would
		// not fit twice; referenced strings are read where they are.
		a, err := executable.Analyze(f, executable.AnalyzeOptions{})
		if err != nil {
			return nil, Target{}, nil, err
		}
		fs, err := sideFeatures(a, func(done, total int64) { report(half*total+done, 2*total) }, 0, int64(len(a.Procedures)))
		return fs, targetOf(f), limitations(a), err
	}
	// Two inventories one after the other: collect early, or the module's
	// lazy collector (see modules/native) lets the second outgrow memory.
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	lf, lt, lims, err := side(left, p, "left", 0)
	if err != nil {
		return nil, err
	}
	runtime.GC()
	rf, rt, _, err := side(right, other, "right", 1)
	if err != nil {
		return nil, err
	}
	out := &nativewire.BinaryDiff{Left: lt, Right: rt, Limitations: append(lims, "functions are matched unique-only: by name, then by normalised instruction hash, then by CFG shape, strings and named callees; a fingerprint several functions share matches nothing (ambiguous)")}
	out.Summary.LeftFunctions, out.Summary.RightFunctions = len(lf), len(rf)
	matchedL, matchedR := map[*features]*features{}, map[*features]bool{}
	by := map[*features]string{}
	tier := func(name string, key func(*features) string) {
		li, ri := map[string][]*features{}, map[string][]*features{}
		for _, f := range lf {
			if _, done := matchedL[f]; !done {
				if k := key(f); k != "" {
					li[k] = append(li[k], f)
				}
			}
		}
		for _, f := range rf {
			if !matchedR[f] {
				if k := key(f); k != "" {
					ri[k] = append(ri[k], f)
				}
			}
		}
		for k, ls := range li {
			if rs := ri[k]; len(ls) == 1 && len(rs) == 1 {
				matchedL[ls[0]], matchedR[rs[0]], by[ls[0]] = rs[0], true, name
			}
		}
	}
	tier("name", func(f *features) string {
		if synthetic(f.fn.Name) {
			return ""
		}
		// Go's symbol table marks assembly functions' ABI (.abi0); the
		// pclntab a stripped build keeps does not.
		return strings.TrimSuffix(f.fn.Name, ".abi0")
	})
	tier("hash", func(f *features) string { return f.fn.Hash })
	tier("fingerprint", func(f *features) string { return string(f.print[:]) })
	var changes []nativewire.DiffChange
	for _, l := range lf {
		r, ok := matchedL[l]
		if !ok {
			continue
		}
		switch by[l] {
		case "name":
			out.Summary.ByName++
		case "hash":
			out.Summary.ByHash++
		default:
			out.Summary.ByFingerprint++
		}
		sim := similarity(l, r)
		if l.fn.Hash == r.fn.Hash {
			out.Summary.Unchanged++
			continue
		}
		out.Summary.Changed++
		lfn, rfn := l.fn, r.fn
		changes = append(changes, nativewire.DiffChange{Status: nativewire.DiffChanged, Left: &lfn, Right: &rfn, MatchedBy: by[l], Similarity: sim})
	}
	// Unmatched functions whose fingerprint the other side's unmatched
	// functions share are ambiguous; the rest are added or removed.
	prints := func(fs []*features, matched func(*features) bool) map[[16]byte]int {
		m := map[[16]byte]int{}
		for _, f := range fs {
			if !matched(f) {
				m[f.print]++
			}
		}
		return m
	}
	lp := prints(lf, func(f *features) bool { _, ok := matchedL[f]; return ok })
	rp := prints(rf, func(f *features) bool { return matchedR[f] })
	for _, l := range lf {
		if _, ok := matchedL[l]; ok {
			continue
		}
		fn := l.fn
		if n := rp[l.print]; n > 0 {
			out.Summary.Ambiguous++
			changes = append(changes, nativewire.DiffChange{Status: nativewire.DiffAmbiguous, Left: &fn, Candidates: n})
			continue
		}
		out.Summary.Removed++
		changes = append(changes, nativewire.DiffChange{Status: nativewire.DiffRemoved, Left: &fn})
	}
	for _, r := range rf {
		if matchedR[r] {
			continue
		}
		fn := r.fn
		if n := lp[r.print]; n > 0 {
			out.Summary.Ambiguous++
			changes = append(changes, nativewire.DiffChange{Status: nativewire.DiffAmbiguous, Right: &fn, Candidates: n})
			continue
		}
		out.Summary.Added++
		changes = append(changes, nativewire.DiffChange{Status: nativewire.DiffAdded, Right: &fn})
	}
	order := map[string]int{nativewire.DiffChanged: 0, nativewire.DiffAdded: 1, nativewire.DiffRemoved: 2, nativewire.DiffAmbiguous: 3}
	addrOf := func(c nativewire.DiffChange) nativewire.Addr {
		if c.Left != nil {
			return c.Left.Address
		}
		return c.Right.Address
	}
	sort.SliceStable(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		if order[a.Status] != order[b.Status] {
			return order[a.Status] < order[b.Status]
		}
		if a.Similarity != b.Similarity {
			return a.Similarity < b.Similarity
		}
		return addrOf(a) < addrOf(b)
	})
	out.Changes = abi.PageOf(changes, p.Offset, p.Limit)
	return out, nil
}
