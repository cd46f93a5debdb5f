package query

import (
	"encoding/hex"
	"sort"

	"rea/abi"
	"rea/analysis/native/executable"
)

func layout(f *executable.File, p Params) (*Layout, error) {
	if err := p.Page(DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for _, s := range f.Symbols {
		counts[s.Table]++
	}
	return &Layout{Image: &f.Image, SymbolCounts: counts, Symbols: abi.PageOf(f.Symbols, p.Offset, p.Limit)}, nil
}

func overview(a *executable.Analysis, p Params) (*Overview, error) {
	if err := p.Page(DefaultOverviewLimit, MaxOverviewLimit); err != nil {
		return nil, err
	}
	o := &Overview{Target: targetOf(a.File), Procedures: len(a.Procedures), Strings: a.StringCount, StringsTruncated: a.StringsTruncated,
		Names: len(a.Names), CallEdges: len(a.Calls), References: a.ReferenceCount, Instructions: a.Instructions, CodeBytes: a.CodeBytes,
		Segments: abi.PageOf(a.File.Segments, p.Offset, p.Limit), Mitigations: a.File.Mitigations, Limitations: limitations(a)}
	for _, pr := range a.Procedures {
		switch pr.Kind {
		case executable.KindFunction:
			o.Functions++
		case executable.KindThunk:
			o.Thunks++
		case executable.KindExternal:
			o.Externals++
		}
	}
	return o, nil
}

func limitations(a *executable.Analysis) []string {
	return append(append([]string{}, a.File.Limitations...), a.Limitations...)
}

func procedures(a *executable.Analysis, p Params) (*Procedures, error) {
	max := MaxLimit
	var keep func(string) bool
	if p.Pattern != "" || p.Mode != "" {
		max = MaxSearchLimit
		m, err := matcher(p)
		if err != nil {
			return nil, err
		}
		keep = m
	}
	if err := p.Page(DefaultLimit, max); err != nil {
		return nil, err
	}
	all := a.Procedures
	if keep != nil {
		all = nil
		for _, pr := range a.Procedures {
			hit := keep(pr.Name) || pr.Demangled != "" && keep(pr.Demangled)
			for _, al := range pr.Aliases {
				hit = hit || keep(al)
			}
			if hit {
				all = append(all, pr)
			}
		}
	}
	return &Procedures{Target: targetOf(a.File), Pattern: p.Pattern, Mode: p.Mode, Procedures: abi.PageOf(all, p.Offset, p.Limit)}, nil
}

func stringsPage(a *executable.Analysis, p Params) (*Strings, error) {
	max := MaxLimit
	var keep func(string) bool
	if p.Pattern != "" || p.Mode != "" {
		max = MaxSearchLimit
		m, err := matcher(p)
		if err != nil {
			return nil, err
		}
		keep = m
	}
	if err := p.Page(DefaultLimit, max); err != nil {
		return nil, err
	}
	all := a.Strings
	if p.Address != nil {
		all = nil
		if s := a.StringAt(*p.Address); s != nil {
			all = append(all, *s)
		}
	}
	if keep != nil {
		var hits []executable.String
		for _, s := range all {
			v, err := a.FullValue(s)
			if err != nil {
				return nil, err
			}
			if keep(v) {
				hits = append(hits, s)
			}
		}
		all = hits
	}
	return &Strings{Target: targetOf(a.File), Pattern: p.Pattern, Mode: p.Mode, Truncated: a.StringsTruncated, Strings: abi.PageOf(all, p.Offset, p.Limit)}, nil
}

func names(a *executable.Analysis, p Params) (*Names, error) {
	if err := p.Page(DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	all := a.Names
	if p.Address != nil {
		all = nil
		for _, n := range a.Names {
			if n.Address == *p.Address {
				all = append(all, n)
			}
		}
	}
	return &Names{Target: targetOf(a.File), Names: abi.PageOf(all, p.Offset, p.Limit)}, nil
}

func named(a *executable.Analysis, es []executable.CallEdge) []Call {
	out := make([]Call, 0, len(es))
	for _, e := range es {
		out = append(out, Call{CallEdge: e, CallerName: a.NameAt(e.Caller), CalleeName: a.NameAt(e.Callee)})
	}
	return out
}

func calls(a *executable.Analysis, p Params, callers bool) (*Calls, error) {
	if err := p.Page(DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	pr, err := a.Resolve(p.Procedure)
	if err != nil {
		return nil, err
	}
	c := &Calls{Target: targetOf(a.File), Procedure: *pr}
	if callers {
		c.Direction, c.Calls = "callers", abi.PageOf(named(a, a.Callers(pr.Address)), p.Offset, p.Limit)
	} else {
		c.Direction, c.Calls = "callees", abi.PageOf(named(a, a.Callees(pr.Address)), p.Offset, p.Limit)
	}
	return c, nil
}

func xrefs(a *executable.Analysis, p Params) (*Xrefs, error) {
	if p.Address == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "xrefs needs an explicit address").WithDetail("field", "address")
	}
	if err := p.Page(DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	return &Xrefs{Target: targetOf(a.File), Address: *p.Address, Name: a.NameAt(*p.Address), References: abi.PageOf(a.ReferencesTo(*p.Address), p.Offset, p.Limit)}, nil
}

func resolve(a *executable.Analysis, p Params) (*Resolution, error) {
	if p.Address == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the address to resolve").WithDetail("field", "address")
	}
	r := &Resolution{Target: targetOf(a.File), Address: *p.Address, Status: "outside-segment"}
	for _, s := range a.File.Sections {
		if s.Loaded && *p.Address >= s.Address && *p.Address < s.End() {
			r.Status, r.Section = "not-in-procedure", s.Name
		}
	}
	if pr := a.Containing(*p.Address); pr != nil {
		c := *pr
		r.Status, r.Procedure = "in-procedure", &c
	}
	if x, err := a.File.Lines(); err == nil {
		r.SourceLine = x.At(*p.Address)
	}
	return r, nil
}

func fileOffset(f *executable.File, p Params) (*FileOffset, error) {
	if p.Address == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the address to map").WithDetail("field", "address")
	}
	off, s, err := f.FileOffset(*p.Address)
	if err != nil {
		return nil, err
	}
	return &FileOffset{Target: targetOf(f), Address: *p.Address, FileOffset: off, Section: s.Name}, nil
}

func readBytes(f *executable.File, p Params) (*Bytes, error) {
	if p.Address == nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the address to read").WithDetail("field", "address")
	}
	if p.Length == 0 {
		p.Length = 16
	}
	if p.Length < 1 || p.Length > MaxReadBytes {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "length must be between 1 and %d, got %d", MaxReadBytes, p.Length).WithDetail("field", "length")
	}
	b, err := f.ReadAt(*p.Address, p.Length)
	if err != nil {
		return nil, err
	}
	if len(b) != p.Length {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "only %d of %d bytes at %s are backed by the file; read at most %d", len(b), p.Length, *p.Address, len(b)).
			WithDetail("field", "length").WithDetail("available", len(b))
	}
	return &Bytes{Target: targetOf(f), Address: *p.Address, Length: len(b), Hex: hex.EncodeToString(b)}, nil
}

func instructions(a *executable.Analysis, p Params) (*Instructions, error) {
	if p.Offset > MaxInstructionOffset {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "offset must be at most %d", MaxInstructionOffset).WithDetail("field", "offset")
	}
	if err := p.Page(DefaultInstructionLimit, MaxLimit); err != nil {
		return nil, err
	}
	pr, err := a.Resolve(p.Procedure)
	if err != nil {
		return nil, err
	}
	body, err := a.Decode(pr)
	if err != nil {
		return nil, err
	}
	return &Instructions{Target: targetOf(a.File), Procedure: *pr, Undecodable: body.Undecodable, Instructions: abi.PageOf(body.Instructions, p.Offset, p.Limit)}, nil
}

func function(a *executable.Analysis, p Params) (*Dossier, error) {
	if err := p.Page(DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	if p.AssemblyLimit == 0 {
		p.AssemblyLimit = DefaultInstructionLimit
	}
	if p.AssemblyOffset < 0 || p.AssemblyOffset > MaxInstructionOffset || p.AssemblyLimit < 1 || p.AssemblyLimit > MaxLimit {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "assembly_offset must be 0..%d and assembly_limit 1..%d", MaxInstructionOffset, MaxLimit).WithDetail("field", "assembly_limit")
	}
	pr, err := a.Resolve(p.Procedure)
	if err != nil {
		return nil, err
	}
	body, err := a.Decode(pr)
	if err != nil {
		return nil, err
	}
	var strs []executable.String
	var nms []executable.Name
	seenS, seenN := map[executable.Addr]bool{}, map[executable.Addr]bool{}
	for _, r := range body.Out {
		if s := a.StringAt(r.To); s != nil && !seenS[s.Address] {
			seenS[s.Address] = true
			strs = append(strs, *s)
		}
		if n := a.NameAt(r.To); n != "" && !seenN[r.To] {
			seenN[r.To] = true
			nms = append(nms, executable.Name{Address: r.To, Name: n, Kind: "reference-target", Source: "native-lite"})
		}
	}
	sort.Slice(strs, func(i, j int) bool { return strs[i].Address < strs[j].Address })
	sort.Slice(nms, func(i, j int) bool { return nms[i].Address < nms[j].Address })
	return &Dossier{
		Target: targetOf(a.File), Procedure: *pr,
		Pseudocode:        Facet{Status: "unavailable", Reason: "native-lite has no decompiler; Ghidra and Hopper are not available on this host"},
		ValueFlow:         Facet{Status: "unavailable", Reason: "native-lite has no decompiler, so no high-pcode value flow"},
		Assembly:          abi.PageOf(body.Instructions, p.AssemblyOffset, p.AssemblyLimit),
		Undecodable:       body.Undecodable,
		Blocks:            abi.PageOf(body.Blocks, p.Offset, p.Limit),
		Callers:           abi.PageOf(named(a, a.Callers(pr.Address)), p.Offset, p.Limit),
		Callees:           abi.PageOf(named(a, a.Callees(pr.Address)), p.Offset, p.Limit),
		References:        abi.PageOf(body.Out, p.Offset, p.Limit),
		ReferencedStrings: abi.PageOf(strs, p.Offset, p.Limit),
		ReferencedNames:   abi.PageOf(nms, p.Offset, p.Limit),
		Source:            sourceFacet(a.File, pr),
		Limitations:       limitations(a),
	}, nil
}

func procedureReferences(a *executable.Analysis, p Params) (*References, error) {
	if err := p.Page(DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	if p.MaxInstructions == 0 {
		p.MaxInstructions = DefaultMaxInstructions
	}
	if p.MaxInstructions < 1 || p.MaxInstructions > MaxMaxInstructions {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "max_instructions must be between 1 and %d", MaxMaxInstructions).WithDetail("field", "max_instructions")
	}
	pr, err := a.Resolve(p.Procedure)
	if err != nil {
		return nil, err
	}
	r := &References{Target: targetOf(a.File), Procedure: *pr, Direction: p.Direction}
	switch p.Direction {
	case "in":
		r.References = abi.PageOf(a.ReferencesTo(pr.Address), p.Offset, p.Limit)
	case "", "out":
		r.Direction = "out"
		body, err := a.Decode(pr)
		if err != nil {
			return nil, err
		}
		r.InstructionsScanned = min(len(body.Instructions), p.MaxInstructions)
		var out []executable.Reference
		if r.InstructionsScanned > 0 {
			limit := executable.Addr(0)
			if r.InstructionsScanned < len(body.Instructions) {
				limit = body.Instructions[r.InstructionsScanned].Address
				r.Truncated = true
			}
			for _, ref := range body.Out {
				if limit == 0 || ref.From < limit {
					out = append(out, ref)
				}
			}
		}
		r.References = abi.PageOf(out, p.Offset, p.Limit)
	default:
		return nil, abi.Errorf(abi.CodeInvalidRequest, "direction must be in or out, got %q", p.Direction).WithDetail("field", "direction")
	}
	return r, nil
}
