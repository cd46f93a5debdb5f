package query

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"rea/abi"
	"rea/analysis/native/executable"
	"rea/analysis/native/nativewire"
)

// Depth operations: debug information and navigation. Each answers one
// bounded page; searches stop at MaxSearchHits and say so.

// isDepthOp says op is one of the depth operations.
func isDepthOp(op string) bool {
	for _, o := range nativewire.DepthOperations() {
		if o == op {
			return true
		}
	}
	return false
}

// runDepthFile answers the depth operations that need no inventory.
func runDepthFile(op string, f *executable.File, p Params) (any, bool, error) {
	switch op {
	case nativewire.OpTypes:
		r, err := listTypes(f, p)
		return r, true, err
	case nativewire.OpType:
		r, err := readType(f, p)
		return r, true, err
	}
	return nil, false, nil
}

// runDepth answers the depth operations over an inventory.
func runDepth(op string, a *executable.Analysis, p Params, progress func(done, total int64)) (any, error) {
	switch op {
	case nativewire.OpCodeForString:
		return codeForString(a, p)
	case nativewire.OpXrefsToName:
		return xrefsToName(a, p)
	case nativewire.OpCallGraph:
		return callGraph(a, p)
	case nativewire.OpCallPath:
		return callPath(a, p)
	case nativewire.OpSearchBytes:
		return searchBytes(a, p, progress)
	case nativewire.OpSearchConstant, nativewire.OpSearchSequence:
		return searchInstructions(a, op, p, progress)
	}
	return nil, abi.Errorf(abi.CodeInvalidRequest, "unknown operation %q", op)
}

func noDWARF(err error) error {
	if errors.Is(err, executable.ErrNoDWARF) {
		return abi.Errorf(abi.CodeCapabilityUnavailable, "the binary carries no DWARF debug information (it was built without -g or stripped); types and source lines are unavailable").
			WithDetail("reason", "no_debug_info")
	}
	return err
}

func listTypes(f *executable.File, p Params) (*nativewire.Types, error) {
	var keep func(string) bool
	if p.Pattern != "" {
		m, err := matcher(p)
		if err != nil {
			return nil, err
		}
		keep = m
	}
	if err := p.NormaliseDepth(nativewire.OpTypes); err != nil {
		return nil, err
	}
	all, dup, err := f.Types()
	if err != nil {
		return nil, noDWARF(err)
	}
	if keep != nil {
		var hits []executable.TypeSummary
		for _, t := range all {
			if keep(t.Name) {
				hits = append(hits, t)
			}
		}
		all = hits
	}
	return &nativewire.Types{Target: targetOf(f), Pattern: p.Pattern, Types: abi.PageOf(all, p.Offset, p.Limit), Duplicates: dup, Limitations: []string{}}, nil
}

func readType(f *executable.File, p Params) (*nativewire.TypeDetail, error) {
	if err := p.NormaliseDepth(nativewire.OpType); err != nil {
		return nil, err
	}
	t, err := f.ReadType(p.TypeName)
	if err != nil {
		return nil, noDWARF(err)
	}
	out := &nativewire.TypeDetail{Target: targetOf(f), Type: t.Summary, Declaration: t.Declaration, Underlying: t.Underlying,
		Members: abi.PageOf(t.Members, p.Offset, p.Limit), Candidates: t.Candidates, Limitations: []string{}}
	if t.Truncated {
		out.Limitations = append(out.Limitations, fmt.Sprintf("the type has more members or a longer declaration than rea lists (%d members, %d characters)", nativewire.MaxTypeMembers, 8000))
	}
	return out, nil
}

// sourceFacet is analyze_function's DWARF facet for one procedure.
func sourceFacet(f *executable.File, pr *executable.Procedure) *nativewire.SourceFacet {
	x, err := f.Lines()
	if err != nil {
		reason := err.Error()
		if errors.Is(err, executable.ErrNoDWARF) {
			reason = "the binary carries no DWARF line table"
		}
		return &nativewire.SourceFacet{Status: "unavailable", Reason: reason}
	}
	fc := &nativewire.SourceFacet{Status: "available", Entry: x.At(pr.Address)}
	fc.Lines = x.Rows(pr.Address, pr.End(), MaxLimit+1)
	if len(fc.Lines) > MaxLimit {
		fc.Lines, fc.Truncated = fc.Lines[:MaxLimit], true
	}
	if fc.Entry == nil && len(fc.Lines) == 0 {
		fc.Status, fc.Reason, fc.Lines = "unavailable", "no line table row covers the procedure", nil
	}
	return fc
}

func ref(a *executable.Analysis, addr executable.Addr) *nativewire.ProcedureRef {
	if pr := a.Containing(addr); pr != nil {
		return &nativewire.ProcedureRef{Address: pr.Address, Name: pr.Name, Demangled: pr.Demangled}
	}
	return nil
}

func refOf(pr *executable.Procedure) nativewire.ProcedureRef {
	return nativewire.ProcedureRef{Address: pr.Address, Name: pr.Name, Demangled: pr.Demangled}
}

// maxUsesPerString bounds the code uses listed for one string.
const maxUsesPerString = 50

func codeForString(a *executable.Analysis, p Params) (*nativewire.CodeForString, error) {
	m, err := matcher(p)
	if err != nil {
		return nil, err
	}
	if err := p.NormaliseDepth(nativewire.OpCodeForString); err != nil {
		return nil, err
	}
	out := &nativewire.CodeForString{Target: targetOf(a.File), Pattern: p.Pattern, Mode: p.Mode, Limitations: limitations(a)}
	var hits []nativewire.StringUses
	for _, s := range a.Strings {
		v, err := a.FullValue(s)
		if err != nil {
			return nil, err
		}
		if !m(v) {
			continue
		}
		refs := a.ReferencesTo(s.Address)
		if len(refs) == 0 {
			out.Unreferenced++
			continue
		}
		su := nativewire.StringUses{String: s, Uses: []nativewire.CodeUse{}}
		procs := map[executable.Addr]bool{}
		for _, r := range refs {
			pr := ref(a, r.From)
			if pr != nil {
				procs[pr.Address] = true
			}
			if len(su.Uses) < maxUsesPerString {
				su.Uses = append(su.Uses, nativewire.CodeUse{From: r.From, Kind: r.Kind, Procedure: pr})
			}
		}
		su.Procedures = len(procs)
		hits = append(hits, su)
	}
	if a.StringsTruncated {
		out.Limitations = append(out.Limitations, "the string list was cut at its limit; strings past it were not searched")
	}
	out.Strings = abi.PageOf(hits, p.Offset, p.Limit)
	return out, nil
}

func xrefsToName(a *executable.Analysis, p Params) (*nativewire.XrefsToName, error) {
	name := strings.TrimSpace(p.Name)
	if name == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the symbol or procedure (exact name, demangled name or name@plt)").WithDetail("field", "name")
	}
	if err := p.NormaliseDepth(nativewire.OpXrefsToName); err != nil {
		return nil, err
	}
	out := &nativewire.XrefsToName{Target: targetOf(a.File), Name: name, Resolved: []nativewire.NameTarget{}, Limitations: limitations(a)}
	seen := map[executable.Addr]bool{}
	addT := func(addr executable.Addr, n, kind, source string) {
		if !seen[addr] {
			seen[addr] = true
			out.Resolved = append(out.Resolved, nativewire.NameTarget{Address: addr, Name: n, Kind: kind, Source: source})
		}
	}
	for _, pr := range a.Procedures {
		hit := pr.Name == name || pr.Demangled == name || pr.Target == name
		for _, al := range pr.Aliases {
			hit = hit || al == name
		}
		if hit {
			addT(pr.Address, pr.Name, pr.Kind, pr.Source)
		}
	}
	for _, n := range a.Names {
		if n.Name == name {
			addT(n.Address, n.Name, n.Kind, n.Source)
		}
	}
	for _, im := range a.File.Imports {
		if im.Name == name && im.Slot != nil {
			addT(*im.Slot, im.Name, "import-slot", "import")
		}
	}
	if len(out.Resolved) == 0 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "no procedure, symbol or import is named %q; search_procedures or list_names shows what exists", name).
			WithDetail("field", "name").WithDetail("reason", "name_not_found")
	}
	sort.Slice(out.Resolved, func(i, j int) bool { return out.Resolved[i].Address < out.Resolved[j].Address })
	var uses []nativewire.CodeUse
	for _, t := range out.Resolved {
		for _, r := range a.ReferencesTo(t.Address) {
			uses = append(uses, nativewire.CodeUse{From: r.From, Kind: r.Kind, Procedure: ref(a, r.From)})
		}
	}
	sort.SliceStable(uses, func(i, j int) bool { return uses[i].From < uses[j].From })
	out.References = abi.PageOf(uses, p.Offset, p.Limit)
	return out, nil
}

// edgeIndex lists call edges by caller or by callee, collapsed per pair.
type edgeIndex map[executable.Addr][]nativewire.GraphEdge

func buildEdges(a *executable.Analysis, byCallee bool) edgeIndex {
	type pair struct{ from, to executable.Addr }
	count := map[pair]*nativewire.GraphEdge{}
	var order []pair
	for _, e := range a.Calls {
		k := pair{e.Caller, e.Callee}
		if g, ok := count[k]; ok {
			g.Sites++
			continue
		}
		count[k] = &nativewire.GraphEdge{Caller: e.Caller, Callee: e.Callee, Sites: 1, Kind: e.Kind.String()}
		order = append(order, k)
	}
	idx := edgeIndex{}
	for _, k := range order {
		g := *count[k]
		if byCallee {
			idx[k.to] = append(idx[k.to], g)
		} else {
			idx[k.from] = append(idx[k.from], g)
		}
	}
	return idx
}

func (a *queryNames) node(addr executable.Addr) nativewire.ProcedureRef {
	i := sort.Search(len(a.Procedures), func(i int) bool { return a.Procedures[i].Address >= addr })
	if i < len(a.Procedures) && a.Procedures[i].Address == addr {
		return refOf(&a.Procedures[i])
	}
	return nativewire.ProcedureRef{Address: addr, Name: a.NameAt(addr)}
}

type queryNames struct{ *executable.Analysis }

func callGraph(a *executable.Analysis, p Params) (*nativewire.CallGraph, error) {
	if err := p.NormaliseDepth(nativewire.OpCallGraph); err != nil {
		return nil, err
	}
	root, err := a.Resolve(p.Procedure)
	if err != nil {
		return nil, err
	}
	q := queryNames{a}
	callers := p.Direction == "backward"
	idx := buildEdges(a, callers)
	out := &nativewire.CallGraph{Target: targetOf(a.File), Root: refOf(root), Direction: p.Direction, Depth: p.Depth, Limitations: limitations(a)}
	depth := map[executable.Addr]int{root.Address: 0}
	queue := []executable.Addr{root.Address}
	var edges []nativewire.GraphEdge
	expanded := map[executable.Addr]bool{}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if depth[cur] >= p.Depth {
			continue
		}
		expanded[cur] = true
		for _, e := range idx[cur] {
			next := e.Callee
			if callers {
				next = e.Caller
			}
			if _, ok := depth[next]; !ok {
				if len(depth) >= p.MaxNodes {
					out.Truncated = true
					continue
				}
				depth[next] = depth[cur] + 1
				queue = append(queue, next)
			}
			edges = append(edges, e)
		}
	}
	for addr, d := range depth {
		n := nativewire.GraphNode{ProcedureRef: q.node(addr), Depth: d, Expanded: expanded[addr]}
		if pr, err := a.Resolve(addr.String()); err == nil {
			n.External = pr.External
		}
		out.Nodes = append(out.Nodes, n)
	}
	sort.Slice(out.Nodes, func(i, j int) bool {
		if out.Nodes[i].Depth != out.Nodes[j].Depth {
			return out.Nodes[i].Depth < out.Nodes[j].Depth
		}
		return out.Nodes[i].Address < out.Nodes[j].Address
	})
	sort.SliceStable(edges, func(i, j int) bool {
		if edges[i].Caller != edges[j].Caller {
			return edges[i].Caller < edges[j].Caller
		}
		return edges[i].Callee < edges[j].Callee
	})
	out.Edges = abi.PageOf(edges, p.Offset, p.Limit)
	if out.Truncated {
		out.Limitations = append(out.Limitations, fmt.Sprintf("the walk stopped at max_nodes (%d); raise it or start from a node with expanded false", p.MaxNodes))
	}
	return out, nil
}

// maxPathExplored bounds the procedures one path search visits.
const maxPathExplored = 200_000

func callPath(a *executable.Analysis, p Params) (*nativewire.CallPath, error) {
	if err := p.NormaliseDepth(nativewire.OpCallPath); err != nil {
		return nil, err
	}
	from, err := a.Resolve(p.Procedure)
	if err != nil {
		return nil, err
	}
	toRef := p.To
	to, err := a.Resolve(toRef)
	if err != nil {
		var ae *abi.Error
		if errors.As(err, &ae) {
			ae.Details["field"] = "to"
		}
		return nil, err
	}
	q := queryNames{a}
	backward := p.Direction == "backward"
	idx := buildEdges(a, backward)
	out := &nativewire.CallPath{Target: targetOf(a.File), From: refOf(from), To: refOf(to), Paths: [][]nativewire.ProcedureRef{}, Limitations: limitations(a)}
	// Breadth-first by levels, keeping every parent on a shortest path.
	parents := map[executable.Addr][]executable.Addr{from.Address: nil}
	level := []executable.Addr{from.Address}
	exhausted := true
	for d := 0; d < p.Depth && len(level) > 0 && !out.Found; d++ {
		var next []executable.Addr
		newly := map[executable.Addr]bool{}
		for _, cur := range level {
			for _, e := range idx[cur] {
				nx := e.Callee
				if backward {
					nx = e.Caller
				}
				if _, seen := parents[nx]; seen && !newly[nx] {
					continue
				}
				if !newly[nx] {
					if len(parents) >= maxPathExplored {
						exhausted = false
						continue
					}
					newly[nx] = true
					next = append(next, nx)
				}
				parents[nx] = append(parents[nx], cur)
				if nx == to.Address {
					out.Found = true
				}
			}
		}
		sort.Slice(next, func(i, j int) bool { return next[i] < next[j] })
		level = next
		if d == p.Depth-1 && len(level) > 0 && !out.Found {
			exhausted = false
		}
	}
	out.Explored, out.Exhausted = len(parents), exhausted || out.Found
	if out.Found && from.Address != to.Address {
		var walk func(at executable.Addr, suffix []nativewire.ProcedureRef)
		walk = func(at executable.Addr, suffix []nativewire.ProcedureRef) {
			if len(out.Paths) >= nativewire.MaxPaths {
				return
			}
			path := append([]nativewire.ProcedureRef{q.node(at)}, suffix...)
			if at == from.Address {
				out.Paths = append(out.Paths, path)
				return
			}
			ps := append([]executable.Addr{}, parents[at]...)
			sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
			for _, pa := range ps {
				walk(pa, path)
			}
		}
		walk(to.Address, nil)
	}
	if !out.Found {
		why := "no chain of direct calls within max_depth " + strconv.Itoa(p.Depth)
		if !out.Exhausted {
			why += " (the search stopped before covering everything reachable: raise max_depth)"
		}
		out.Limitations = append(out.Limitations, why+"; indirect calls (through pointers or tables) are not followed")
	}
	return out, nil
}

func searchBytes(a *executable.Analysis, p Params, progress func(done, total int64)) (*nativewire.Search, error) {
	pat, mask, err := nativewire.ParseBytePattern(p.Pattern)
	if err != nil {
		return nil, err
	}
	if err := p.NormaliseDepth(nativewire.OpSearchBytes); err != nil {
		return nil, err
	}
	out := &nativewire.Search{Target: targetOf(a.File), Query: p.Pattern, Limitations: limitations(a)}
	var hits []nativewire.SearchHit
	// The longest run of fixed bytes anchors the scan (bytes.Index), the
	// rest is checked against the mask.
	aStart, aLen := 0, 0
	for i := 0; i < len(mask); {
		if !mask[i] {
			i++
			continue
		}
		j := i
		for j < len(mask) && mask[j] {
			j++
		}
		if j-i > aLen {
			aStart, aLen = i, j-i
		}
		i = j
	}
	anchor := pat[aStart : aStart+aLen]
	var total int64
	for _, s := range a.File.Sections {
		if s.Loaded && s.FileSize > 0 {
			total += s.FileSize
		}
	}
	const window = 4 << 20
	buf := make([]byte, 0, window+len(pat))
	for _, s := range a.File.Sections {
		if !s.Loaded || s.FileSize <= 0 || out.Truncated {
			continue
		}
		for start := int64(0); start < s.FileSize && !out.Truncated; start += window {
			n := min(s.FileSize-start, int64(window+len(pat)-1))
			b, err := a.File.ReadAt(s.Address+executable.Addr(start), int(n))
			if err != nil {
				return nil, err
			}
			buf = append(buf[:0], b...)
			limit := int(min(s.FileSize-start, window)) // matches must start in this window
			for off := 0; off < len(buf); {
				i := bytes.Index(buf[off:], anchor)
				if i < 0 {
					break
				}
				at := off + i - aStart
				off += i + 1
				if at < 0 || at >= limit || at+len(pat) > len(buf) {
					continue
				}
				if matchMasked(buf[at:at+len(pat)], pat, mask) {
					addr := s.Address + executable.Addr(start) + executable.Addr(at)
					if len(hits) >= nativewire.MaxSearchHits {
						out.Truncated = true
						break
					}
					hits = append(hits, nativewire.SearchHit{Address: addr, Section: s.Name, Procedure: ref(a, addr), Text: fmt.Sprintf("%x", buf[at:at+len(pat)])})
				}
			}
			out.Scanned += int64(limit)
			if progress != nil {
				progress(out.Scanned, total)
			}
		}
	}
	if out.Truncated {
		out.Limitations = append(out.Limitations, fmt.Sprintf("the search stopped at %d hits; make the pattern more specific", nativewire.MaxSearchHits))
	}
	out.Hits = abi.PageOf(hits, p.Offset, p.Limit)
	return out, nil
}

func matchMasked(b, pat []byte, mask []bool) bool {
	for i := range pat {
		if mask[i] && b[i] != pat[i] {
			return false
		}
	}
	return true
}

// maxScanInstructions bounds the instructions one constant or sequence
// search decodes.
const maxScanInstructions = 20_000_000

func searchInstructions(a *executable.Analysis, op string, p Params, progress func(done, total int64)) (*nativewire.Search, error) {
	if err := p.NormaliseDepth(op); err != nil {
		return nil, err
	}
	var match func(ins []executable.Instruction, i int) int // instructions matched at i, 0 for none
	query := ""
	switch op {
	case nativewire.OpSearchConstant:
		toks, err := constantTokens(p.Value)
		if err != nil {
			return nil, err
		}
		query = p.Value
		match = func(ins []executable.Instruction, i int) int {
			if hasToken(ins[i].Text, toks) {
				return 1
			}
			return 0
		}
	default:
		seq, err := sequence(p.Sequence)
		if err != nil {
			return nil, err
		}
		query = strings.Join(p.Sequence, "; ")
		match = func(ins []executable.Instruction, i int) int {
			if i+len(seq) > len(ins) {
				return 0
			}
			for k, want := range seq {
				if !seqMatch(ins[i+k].Text, want) {
					return 0
				}
			}
			return len(seq)
		}
	}
	out := &nativewire.Search{Target: targetOf(a.File), Query: query, Limitations: limitations(a)}
	var hits []nativewire.SearchHit
	total := int64(len(a.Procedures))
	for pi := range a.Procedures {
		pr := &a.Procedures[pi]
		if pr.Kind == executable.KindExternal || out.Truncated {
			continue
		}
		if out.Scanned >= maxScanInstructions {
			out.Truncated = true
			out.Limitations = append(out.Limitations, fmt.Sprintf("the search stopped after %d instructions; procedures from %s on were not searched", maxScanInstructions, pr.Address))
			break
		}
		body, err := a.Decode(pr)
		if err != nil {
			continue
		}
		out.Scanned += int64(len(body.Instructions))
		for i := 0; i < len(body.Instructions); i++ {
			n := match(body.Instructions, i)
			if n == 0 {
				continue
			}
			if len(hits) >= nativewire.MaxSearchHits {
				out.Truncated = true
				out.Limitations = append(out.Limitations, fmt.Sprintf("the search stopped at %d hits", nativewire.MaxSearchHits))
				break
			}
			var text []string
			for _, in := range body.Instructions[i : i+n] {
				text = append(text, in.Text)
			}
			r := refOf(pr)
			hits = append(hits, nativewire.SearchHit{Address: body.Instructions[i].Address, Section: pr.Section, Procedure: &r, Text: strings.Join(text, "; ")})
			i += n - 1
		}
		if progress != nil && pi%256 == 0 {
			progress(int64(pi), total)
		}
	}
	out.Hits = abi.PageOf(hits, p.Offset, p.Limit)
	return out, nil
}

// constantTokens are the spellings of a constant in instruction text:
// hex (0x2a) and decimal, negative values also as their two's complement.
func constantTokens(v string) ([]string, error) {
	v = strings.TrimSpace(v)
	bad := abi.Errorf(abi.CodeInvalidRequest, "value %q is not an integer constant; write it as hex (0x2a) or decimal (42, -1)", v).WithDetail("field", "value")
	neg := strings.HasPrefix(v, "-")
	body := strings.TrimPrefix(v, "-")
	var n uint64
	var err error
	if h, ok := strings.CutPrefix(strings.ToLower(body), "0x"); ok {
		n, err = strconv.ParseUint(h, 16, 64)
	} else {
		n, err = strconv.ParseUint(body, 10, 64)
	}
	if err != nil || body == "" {
		return nil, bad
	}
	if neg {
		return []string{"-0x" + strconv.FormatUint(n, 16), "-" + strconv.FormatUint(n, 10), "0x" + strconv.FormatUint(-n, 16), "0x" + strconv.FormatUint(uint64(uint32(-int32(n))), 16)}, nil
	}
	return []string{"0x" + strconv.FormatUint(n, 16), strconv.FormatUint(n, 10)}, nil
}

// hasToken says text holds one of toks as a whole operand token.
func hasToken(text string, toks []string) bool {
	lower := strings.ToLower(text)
	// Skip the mnemonic: a constant is an operand.
	if sp := strings.IndexByte(lower, ' '); sp >= 0 {
		lower = lower[sp:]
	} else {
		return false
	}
	for _, t := range toks {
		for off := 0; ; {
			i := strings.Index(lower[off:], t)
			if i < 0 {
				break
			}
			s, e := off+i, off+i+len(t)
			before := s == 0 || !isWordByte(lower[s-1]) || lower[s-1] == '#'
			if s > 0 && lower[s-1] == '-' && !strings.HasPrefix(t, "-") {
				before = false
			}
			after := e == len(lower) || !isWordByte(lower[e])
			if before && after {
				return true
			}
			off = e
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '_' || c == '.'
}

func sequence(seq []string) ([]string, error) {
	if len(seq) == 0 || len(seq) > nativewire.MaxSequence {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "sequence must list 1 to %d instructions (mnemonics such as push, or text prefixes such as \"mov rbp, rsp\"; * for any)", nativewire.MaxSequence).WithDetail("field", "sequence")
	}
	out := make([]string, len(seq))
	for i, s := range seq {
		s = strings.ToLower(strings.Join(strings.Fields(s), " "))
		if s == "" {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "sequence item %d is empty", i).WithDetail("field", "sequence")
		}
		out[i] = s
	}
	return out, nil
}

// seqMatch: * is any instruction, a single word the mnemonic, more words a
// prefix of the whitespace-normalised text.
func seqMatch(text, want string) bool {
	if want == "*" {
		return true
	}
	t := strings.ToLower(strings.Join(strings.Fields(text), " "))
	if !strings.Contains(want, " ") {
		m, _, _ := strings.Cut(t, " ")
		return m == want
	}
	return strings.HasPrefix(t, want)
}
