// Package exportswire is the vocabulary of the compare module's
// compare_javascript_export_shapes operation: the request (two selected
// exports and the limits), the result, and the abstract shapes it reports.
// The host builds requests and reads results through it without linking
// the JavaScript parser that package exports runs inside the module.
package exportswire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"rea/abi"
)

// Statuses of a comparison and kinds of a change.
const (
	StatusUnchanged = "unchanged"
	StatusChanged   = "changed"
	StatusUnknown   = "unknown"
	ChangeAdded     = "added"
	ChangeRemoved   = "removed"
	ChangeChanged   = "changed"
	ChangeUnknown   = "unknown"
)

// Module is what the comparison reads of an analysed module.
type Module struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Side is one selected export: the analysis's modules, the selector, and
// the module's source when the host could read it (bytes matching the
// digest the analysis recorded), or why it could not.
type Side struct {
	EvidenceID        string   `json:"evidence_id"`
	Modules           []Module `json:"modules"`
	ModulePath        string   `json:"module_path"`
	ExportName        string   `json:"export_name"`
	Source            *string  `json:"source,omitempty"`
	SourceUnavailable string   `json:"source_unavailable,omitempty"`
}

// Request is the compare_javascript_export_shapes operation's input.
type Request struct {
	Left   Side   `json:"left"`
	Right  Side   `json:"right"`
	Limits Limits `json:"limits"`
}

// DecodeRequest decodes and validates the params.
func DecodeRequest(raw []byte) (*Request, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "params: %v", err)
	}
	return &req, req.Validate()
}

// Validate checks the selectors and limits.
func (r *Request) Validate() error {
	for _, s := range []struct {
		side *Side
		name string
	}{{&r.Left, "left"}, {&r.Right, "right"}} {
		if s.side.ModulePath == "" {
			return abi.Errorf(abi.CodeInvalidRequest, "%s.module_path: name the module (its exact path in the analysis)", s.name).WithDetail("field", s.name+".module_path")
		}
		if s.side.ExportName == "" {
			return abi.Errorf(abi.CodeInvalidRequest, "%s.export_name: name the export (default for module.exports itself)", s.name).WithDetail("field", s.name+".export_name")
		}
	}
	if err := r.Limits.Normalise(); err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "%v", err).WithDetail("field", "limits")
	}
	return nil
}

// Change is one difference at a JSON Pointer into the export's shape:
// members are /name, array items /index, a function's parameters
// /$params and its returns /$returns, a union variant /$variant/key=value.
type Change struct {
	Pointer string `json:"pointer"`
	Kind    string `json:"kind"`
	Left    *Shape `json:"left,omitempty"`
	Right   *Shape `json:"right,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// SideResult says what was found on one side.
type SideResult struct {
	EvidenceID   string   `json:"evidence_id"`
	ModulePath   string   `json:"module_path"`
	ExportName   string   `json:"export_name"`
	ModuleSHA256 string   `json:"module_sha256,omitempty"`
	Status       string   `json:"status"` // resolved | missing-module | missing-export | duplicate-export | source-unavailable | unparsed
	Shape        *Shape   `json:"shape,omitempty"`
	Candidates   []string `json:"candidates,omitempty"`
	Reason       string   `json:"reason,omitempty"`
}

// Result is the comparison.
type Result struct {
	SchemaVersion int        `json:"schema_version"`
	ComparisonID  string     `json:"comparison_id"`
	Status        string     `json:"status"`
	Left          SideResult `json:"left"`
	Right         SideResult `json:"right"`
	Changes       []Change   `json:"changes"`
	Summary       struct {
		Added, Removed, Changed, Unknown int
	} `json:"summary"`
	Limits          Limits   `json:"limits"`
	Recommendations []string `json:"recommendations"`
	Limitations     []string `json:"limitations"`
}

// Limits bound the abstraction.
type Limits struct {
	MaxDepth      int `json:"max_depth,omitempty"`
	MaxProperties int `json:"max_properties,omitempty"`
	MaxVariants   int `json:"max_variants,omitempty"`
}

// Normalise fills defaults and checks ranges.
func (l *Limits) Normalise() error {
	for _, c := range []struct {
		v        *int
		def, max int
		name     string
	}{{&l.MaxDepth, 8, 32, "limits.max_depth"}, {&l.MaxProperties, 200, 5000, "limits.max_properties"}, {&l.MaxVariants, 16, 256, "limits.max_variants"}} {
		if *c.v == 0 {
			*c.v = c.def
		}
		if *c.v < 1 || *c.v > c.max {
			return fmt.Errorf("%s must be between 1 and %d", c.name, c.max)
		}
	}
	return nil
}

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

// Key is a canonical rendering used to compare and deduplicate shapes.
func (s *Shape) Key() string {
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
	case a.Key() == b.Key():
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
		if k := v.Key(); !seen[k] {
			seen[k] = true
			out.Variants = append(out.Variants, v)
		}
	}
	if len(out.Variants) > maxVariants {
		return &Shape{Kind: KindUnknown, Reason: "more than " + strconv.Itoa(maxVariants) + " variants"}
	}
	sort.SliceStable(out.Variants, func(i, j int) bool { return out.Variants[i].Key() < out.Variants[j].Key() })
	return out
}
