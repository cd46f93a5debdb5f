package query

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"regexp"
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

// features are one function's comparable facts.
type features struct {
	fn        nativewire.DiffFunction
	mnemonics map[string]int
	strings   map[string]bool
	callees   map[string]bool
	edges     int
	print     string
}

// hexToken finds the address-like operands normalised away (immediates
// below 0x1000 stay: they are constants more than addresses).
var hexToken = regexp.MustCompile(`0x[0-9a-f]{4,}`)

// synthetic says a name was made up by rea rather than read from the file.
func synthetic(name string) bool { return strings.HasPrefix(name, "sub_") || name == "entry" }

func sideFeatures(a *executable.Analysis, progress func(done, total int64), base, total int64) ([]*features, error) {
	var out []*features
	for i := range a.Procedures {
		pr := &a.Procedures[i]
		if pr.Kind != executable.KindFunction || pr.External {
			continue
		}
		body, err := a.Decode(pr)
		if err != nil {
			continue
		}
		f := &features{mnemonics: map[string]int{}, strings: map[string]bool{}, callees: map[string]bool{}}
		h := sha256.New()
		for _, in := range body.Instructions {
			m, _, _ := strings.Cut(in.Text, " ")
			f.mnemonics[m]++
			// Branch targets and call names move between builds: the
			// mnemonic stands for them.
			if in.Target != nil {
				h.Write([]byte(m + "\n"))
				continue
			}
			h.Write([]byte(hexToken.ReplaceAllString(in.Text, "A") + "\n"))
		}
		for _, b := range body.Blocks {
			f.edges += len(b.Successors)
		}
		for _, r := range body.Out {
			if s := a.StringAt(r.To); s != nil {
				f.strings[s.Value] = true
			}
		}
		for _, c := range a.Callees(pr.Address) {
			if n := a.NameAt(c.Callee); n != "" && !synthetic(n) {
				f.callees[n] = true
			} else {
				f.callees["?"] = true
			}
		}
		f.fn = nativewire.DiffFunction{Address: pr.Address, Name: pr.Name, Demangled: pr.Demangled, Instructions: len(body.Instructions), Blocks: len(body.Blocks),
			Hash: hex.EncodeToString(h.Sum(nil))[:16]}
		f.print = fmt.Sprintf("%d/%d/%d|%s|%s", len(body.Blocks), f.edges, len(body.Instructions)/8, joinSet(f.strings), joinSet(f.callees))
		out = append(out, f)
		if progress != nil && i%512 == 0 {
			progress(base+int64(i), total)
		}
	}
	return out, nil
}

func joinSet(m map[string]bool) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, "\x00")
}

// similarity weighs instructions (mnemonic multiset), CFG shape, strings
// and callees.
func similarity(l, r *features) float64 {
	if l.fn.Hash == r.fn.Hash {
		return 1
	}
	inter, union := 0, 0
	for m, n := range l.mnemonics {
		inter += min(n, r.mnemonics[m])
		union += max(n, r.mnemonics[m])
	}
	for m, n := range r.mnemonics {
		if _, ok := l.mnemonics[m]; !ok {
			union += n
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

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
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
	analyse := func(fsys fs.FS, q Params, side string) (*executable.Analysis, func(), error) {
		f, closeInput, err := open(fsys, q)
		if err != nil {
			if ae, ok := err.(*abi.Error); ok {
				ae.Details["side"] = side
			}
			return nil, nil, err
		}
		a, err := executable.Analyze(f, executable.AnalyzeOptions{References: true, Strings: true})
		if err != nil {
			closeInput()
			return nil, nil, err
		}
		return a, closeInput, nil
	}
	report := func(done, total int64) {
		if progress != nil {
			progress.Report(abi.Progress{Phase: "diff", Done: done, Total: total, Message: "fingerprinting functions"})
		}
	}
	la, closeL, err := analyse(left, p, "left")
	if err != nil {
		return nil, err
	}
	defer closeL()
	ra, closeR, err := analyse(right, other, "right")
	if err != nil {
		return nil, err
	}
	defer closeR()
	total := int64(len(la.Procedures) + len(ra.Procedures))
	lf, err := sideFeatures(la, report, 0, total)
	if err != nil {
		return nil, err
	}
	rf, err := sideFeatures(ra, report, int64(len(la.Procedures)), total)
	if err != nil {
		return nil, err
	}
	out := &nativewire.BinaryDiff{Left: targetOf(la.File), Right: targetOf(ra.File), Limitations: append(limitations(la), "functions are matched unique-only: by name, then by normalised instruction hash, then by CFG shape, strings and named callees; a fingerprint several functions share matches nothing (ambiguous)")}
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
		return f.fn.Name
	})
	tier("hash", func(f *features) string { return f.fn.Hash })
	tier("fingerprint", func(f *features) string { return f.print })
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
	prints := func(fs []*features, matched func(*features) bool) map[string]int {
		m := map[string]int{}
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
