// Package exports compares the shape of one JavaScript export across two
// versions of an application without running either: each module's source
// is parsed (never evaluated) and the export's value is abstracted into a
// bounded lattice — literal constants below their types, object members,
// array items, and a function's direct returns — which is then diffed at
// JSON Pointer paths. Pure computation; builds natively and inside the
// compare wasm module.
package exports

import (
	"encoding/json"
	"sort"
	"strconv"
)

// Shape kinds. Unknown is the lattice's top: nothing is claimed.
const (
	KindUnknown   = "unknown"
	KindUndefined = "undefined"
	KindNull      = "null"
	KindBoolean   = "boolean"
	KindNumber    = "number"
	KindString    = "string"
	KindObject    = "object"
	KindArray     = "array"
	KindFunction  = "function"
	KindUnion     = "union"
)

// Shape is one abstract value.
type Shape struct {
	Kind string `json:"kind"`
	// Const is the folded literal of a primitive, when known.
	Const any `json:"const,omitempty"`
	// HasConst distinguishes a folded false/0/"" from no constant.
	HasConst bool `json:"has_const,omitempty"`
	// Properties of an object, in source order (Keys) and by name.
	Keys  []string          `json:"keys,omitempty"`
	Props map[string]*Shape `json:"properties,omitempty"`
	// Open marks an object with members the lattice could not name
	// (spreads, computed keys): an absent key is then unknown, not absent.
	Open bool `json:"open,omitempty"`
	// Items of an array.
	Items []*Shape `json:"items,omitempty"`
	// Params and Returns of a function: its parameter count and the join
	// of its direct return values.
	Params  int    `json:"params,omitempty"`
	Rest    bool   `json:"rest,omitempty"`
	Async   bool   `json:"async,omitempty"`
	Returns *Shape `json:"returns,omitempty"`
	// Variants of a union (several direct returns of different shapes).
	Variants []*Shape `json:"variants,omitempty"`
	// Reason says why a shape is unknown.
	Reason string `json:"reason,omitempty"`
}

func unknown(reason string) *Shape { return &Shape{Kind: KindUnknown, Reason: reason} }

func constant(kind string, v any) *Shape { return &Shape{Kind: kind, Const: v, HasConst: true} }

// key is a canonical rendering used to compare and deduplicate shapes.
func (s *Shape) key() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Join is the least upper bound of two shapes: equal shapes stay, two
// constants of one type lose their constant, two functions join their
// returns, and otherwise the shapes become a union (bounded by
// maxVariants, beyond which the join is unknown).
func Join(a, b *Shape, maxVariants int) *Shape {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.key() == b.key():
		return a
	case a.Kind == KindUnknown:
		return a
	case b.Kind == KindUnknown:
		return b
	}
	if a.Kind == b.Kind {
		switch a.Kind {
		case KindBoolean, KindNumber, KindString:
			return &Shape{Kind: a.Kind}
		case KindFunction:
			return &Shape{Kind: KindFunction, Params: max(a.Params, b.Params), Rest: a.Rest || b.Rest, Async: a.Async && b.Async,
				Returns: Join(a.Returns, b.Returns, maxVariants)}
		}
	}
	var vs []*Shape
	for _, s := range []*Shape{a, b} {
		if s.Kind == KindUnion {
			vs = append(vs, s.Variants...)
		} else {
			vs = append(vs, s)
		}
	}
	seen := map[string]bool{}
	out := &Shape{Kind: KindUnion}
	for _, v := range vs {
		if k := v.key(); !seen[k] {
			seen[k] = true
			out.Variants = append(out.Variants, v)
		}
	}
	if len(out.Variants) > maxVariants {
		return unknown("more than " + strconv.Itoa(maxVariants) + " variants")
	}
	sort.SliceStable(out.Variants, func(i, j int) bool { return out.Variants[i].key() < out.Variants[j].key() })
	return out
}
