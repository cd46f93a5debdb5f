package exports

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"rea/abi"
)

const replayAdvice = "controlled replay: observe the export's value at run time (reconcile_javascript_runtime or capture_process_scenario) where the static shape is unknown"

// resolve selects the module and export of one side.
func resolve(s Side, lim Limits) SideResult {
	out := SideResult{EvidenceID: s.EvidenceID, ModulePath: s.ModulePath, ExportName: s.ExportName}
	var found *Module
	for i := range s.Modules {
		if s.Modules[i].Path == s.ModulePath {
			found = &s.Modules[i]
			break
		}
	}
	if found == nil {
		out.Status = "missing-module"
		base := path.Base(s.ModulePath)
		for _, m := range s.Modules {
			if path.Base(m.Path) == base || strings.HasSuffix(m.Path, "/"+s.ModulePath) {
				out.Candidates = append(out.Candidates, m.Path)
			}
		}
		out.Reason = "the analysis has no module at this exact path"
		return out
	}
	out.ModuleSHA256 = found.SHA256
	if s.Source == nil {
		out.Status, out.Reason = "source-unavailable", s.SourceUnavailable
		if out.Reason == "" {
			out.Reason = "the module's source was not supplied"
		}
		return out
	}
	ex := Extract(*s.Source, s.ExportName, lim)
	switch {
	case ex.Shape == nil && ex.Assignments == 0 && strings.HasPrefix(ex.Reason, "the module does not parse"):
		out.Status, out.Reason = "unparsed", ex.Reason
	case ex.Assignments > 1:
		out.Status, out.Reason = "duplicate-export", fmt.Sprintf("the export is assigned %d times; which one holds is a run-time question", ex.Assignments)
		out.Candidates = ex.Names
	case ex.Shape == nil:
		out.Status, out.Reason, out.Candidates = "missing-export", ex.Reason, ex.Names
	default:
		out.Status, out.Shape = "resolved", ex.Shape
	}
	return out
}

// Compare abstracts both exports and diffs their shapes.
func Compare(ctx context.Context, req *Request) (*Result, error) {
	res := &Result{SchemaVersion: 1, Limits: req.Limits, Changes: []Change{}, Recommendations: []string{},
		Limitations: []string{"shapes are abstracted from CommonJS exports without running code: direct returns only, calls and constructed values are unknown"}}
	res.Left, res.Right = resolve(req.Left, req.Limits), resolve(req.Right, req.Limits)
	if ctx.Err() != nil {
		return nil, abi.Errorf(abi.CodeCancelled, "compare_javascript_export_shapes was cancelled")
	}
	if res.Left.Shape == nil || res.Right.Shape == nil {
		res.Status = StatusUnknown
		for _, s := range []SideResult{res.Left, res.Right} {
			if s.Shape == nil {
				res.Limitations = append(res.Limitations, fmt.Sprintf("%s %s#%s: %s — %s", s.EvidenceID, s.ModulePath, s.ExportName, s.Status, s.Reason))
			}
		}
		res.Recommendations = append(res.Recommendations, replayAdvice)
	} else {
		d := differ{lim: req.Limits}
		d.diff("", res.Left.Shape, res.Right.Shape)
		res.Changes = d.out
		for _, c := range res.Changes {
			switch c.Kind {
			case ChangeAdded:
				res.Summary.Added++
			case ChangeRemoved:
				res.Summary.Removed++
			case ChangeChanged:
				res.Summary.Changed++
			case ChangeUnknown:
				res.Summary.Unknown++
			}
		}
		switch {
		case res.Summary.Added+res.Summary.Removed+res.Summary.Changed > 0:
			res.Status = StatusChanged
		case res.Summary.Unknown > 0:
			res.Status = StatusUnknown
		default:
			res.Status = StatusUnchanged
		}
		if res.Summary.Unknown > 0 {
			res.Recommendations = append(res.Recommendations, replayAdvice)
		}
	}
	b, _ := json.Marshal(struct {
		L, R SideResult
		C    []Change
	}{res.Left, res.Right, res.Changes})
	sum := sha256.Sum256(b)
	res.ComparisonID = "jxsc_" + hex.EncodeToString(sum[:])
	return res, nil
}

type differ struct {
	lim Limits
	out []Change
}

func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func summary(s *Shape) *Shape {
	if s == nil {
		return nil
	}
	c := &Shape{Kind: s.Kind, Const: s.Const, HasConst: s.HasConst, Reason: s.Reason, Params: s.Params, Rest: s.Rest, Async: s.Async}
	return c
}

func (d *differ) add(c Change) { d.out = append(d.out, c) }

func (d *differ) diff(ptr string, l, r *Shape) {
	switch {
	case l.Kind == KindUnknown || r.Kind == KindUnknown:
		if l.Key() != r.Key() || l.Kind == KindUnknown {
			reason := l.Reason
			if r.Kind == KindUnknown {
				reason = r.Reason
			}
			d.add(Change{Pointer: ptr, Kind: ChangeUnknown, Left: summary(l), Right: summary(r), Reason: reason})
		}
		return
	case l.Kind != r.Kind:
		d.add(Change{Pointer: ptr, Kind: ChangeChanged, Left: summary(l), Right: summary(r), Reason: "kind " + l.Kind + " → " + r.Kind})
		return
	}
	switch l.Kind {
	case KindBoolean, KindNumber, KindString:
		if l.HasConst != r.HasConst || fmt.Sprint(l.Const) != fmt.Sprint(r.Const) {
			d.add(Change{Pointer: ptr, Kind: ChangeChanged, Left: summary(l), Right: summary(r)})
		}
	case KindObject:
		keys := append([]string{}, l.Keys...)
		for _, k := range r.Keys {
			if _, ok := l.Props[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			p := ptr + "/" + escape(k)
			lv, lok := l.Props[k]
			rv, rok := r.Props[k]
			switch {
			case lok && rok:
				d.diff(p, lv, rv)
			case lok && r.Open:
				d.add(Change{Pointer: p, Kind: ChangeUnknown, Left: summary(lv), Reason: "the right object has members the lattice cannot name"})
			case lok:
				d.add(Change{Pointer: p, Kind: ChangeRemoved, Left: summary(lv)})
			case l.Open:
				d.add(Change{Pointer: p, Kind: ChangeUnknown, Right: summary(rv), Reason: "the left object has members the lattice cannot name"})
			default:
				d.add(Change{Pointer: p, Kind: ChangeAdded, Right: summary(rv)})
			}
		}
	case KindArray:
		n := max(len(l.Items), len(r.Items))
		for i := 0; i < n; i++ {
			p := fmt.Sprintf("%s/%d", ptr, i)
			switch {
			case i < len(l.Items) && i < len(r.Items):
				d.diff(p, l.Items[i], r.Items[i])
			case i < len(l.Items):
				d.add(Change{Pointer: p, Kind: ChangeRemoved, Left: summary(l.Items[i])})
			default:
				d.add(Change{Pointer: p, Kind: ChangeAdded, Right: summary(r.Items[i])})
			}
		}
	case KindFunction:
		if l.Params != r.Params || l.Rest != r.Rest || l.Async != r.Async {
			d.add(Change{Pointer: ptr + "/$params", Kind: ChangeChanged, Left: summary(l), Right: summary(r)})
		}
		switch {
		case l.Returns == nil && r.Returns == nil:
		case l.Returns == nil || r.Returns == nil:
			d.add(Change{Pointer: ptr + "/$returns", Kind: ChangeUnknown, Reason: "a side's returns were not abstracted"})
		default:
			d.diff(ptr+"/$returns", l.Returns, r.Returns)
		}
	case KindUnion:
		d.union(ptr, l, r)
	}
}

// union pairs the variants of two unions by a reciprocal unique literal
// discriminant: a member every object variant of both sides has, with a
// string constant unique within its side. Unpaired variants are removed
// or added; without a discriminant, only identical unions are unchanged.
func (d *differ) union(ptr string, l, r *Shape) {
	if key, ok := discriminant(l, r); ok {
		lv, rv := byDiscriminant(l, key), byDiscriminant(r, key)
		var vals []string
		for v := range lv {
			vals = append(vals, v)
		}
		for v := range rv {
			if _, ok := lv[v]; !ok {
				vals = append(vals, v)
			}
		}
		sort.Strings(vals)
		for _, v := range vals {
			p := ptr + "/$variant/" + escape(key+"="+v)
			a, aok := lv[v]
			b, bok := rv[v]
			switch {
			case aok && bok:
				d.diff(p, a, b)
			case aok:
				d.add(Change{Pointer: p, Kind: ChangeRemoved, Left: summary(a)})
			default:
				d.add(Change{Pointer: p, Kind: ChangeAdded, Right: summary(b)})
			}
		}
		// Non-object variants compare as a set.
		d.scalarVariants(ptr, l, r)
		return
	}
	if l.Key() != r.Key() {
		d.add(Change{Pointer: ptr, Kind: ChangeUnknown, Left: summary(l), Right: summary(r), Reason: "the variants differ and no unique literal discriminant pairs them"})
	}
}

func (d *differ) scalarVariants(ptr string, l, r *Shape) {
	set := func(s *Shape) map[string]*Shape {
		out := map[string]*Shape{}
		for _, v := range s.Variants {
			if v.Kind != KindObject {
				out[v.Key()] = v
			}
		}
		return out
	}
	ls, rs := set(l), set(r)
	var keys []string
	for k := range ls {
		keys = append(keys, k)
	}
	for k := range rs {
		if _, ok := ls[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		a, aok := ls[k]
		b, bok := rs[k]
		switch {
		case aok && !bok:
			d.add(Change{Pointer: ptr + "/$variant", Kind: ChangeRemoved, Left: summary(a)})
		case bok && !aok:
			d.add(Change{Pointer: ptr + "/$variant", Kind: ChangeAdded, Right: summary(b)})
		}
	}
}

func discriminant(l, r *Shape) (string, bool) {
	candidates := func(s *Shape) map[string]bool {
		var objs []*Shape
		for _, v := range s.Variants {
			if v.Kind == KindObject {
				objs = append(objs, v)
			}
		}
		out := map[string]bool{}
		if len(objs) == 0 {
			return out
		}
		for _, k := range objs[0].Keys {
			seen := map[string]bool{}
			ok := true
			for _, o := range objs {
				p, has := o.Props[k]
				if !has || p.Kind != KindString || !p.HasConst || seen[p.Const.(string)] {
					ok = false
					break
				}
				seen[p.Const.(string)] = true
			}
			if ok {
				out[k] = true
			}
		}
		return out
	}
	lc, rc := candidates(l), candidates(r)
	var both []string
	for k := range lc {
		if rc[k] {
			both = append(both, k)
		}
	}
	if len(both) == 0 {
		return "", false
	}
	sort.Strings(both)
	return both[0], true
}

func byDiscriminant(s *Shape, key string) map[string]*Shape {
	out := map[string]*Shape{}
	for _, v := range s.Variants {
		if v.Kind == KindObject {
			out[v.Props[key].Const.(string)] = v
		}
	}
	return out
}
