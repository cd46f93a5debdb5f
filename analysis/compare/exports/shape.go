// Package exports compares the shape of one JavaScript export across two
// versions of an application without running either: each module's source
// is parsed (never evaluated) and the export's value is abstracted into a
// bounded lattice — literal constants below their types, object members,
// array items, and a function's direct returns — which is then diffed at
// JSON Pointer paths. Pure computation; builds natively and inside the
// compare wasm module.
package exports

import "rea/analysis/compare/exports/exportswire"

// The vocabulary lives in exportswire so the host can use it without the
// parser; these names keep this package's code and its callers' short.
type (
	Module     = exportswire.Module
	Side       = exportswire.Side
	Request    = exportswire.Request
	Change     = exportswire.Change
	SideResult = exportswire.SideResult
	Result     = exportswire.Result
	Limits     = exportswire.Limits
	Shape      = exportswire.Shape
)

const (
	StatusUnchanged = exportswire.StatusUnchanged
	StatusChanged   = exportswire.StatusChanged
	StatusUnknown   = exportswire.StatusUnknown
	ChangeAdded     = exportswire.ChangeAdded
	ChangeRemoved   = exportswire.ChangeRemoved
	ChangeChanged   = exportswire.ChangeChanged
	ChangeUnknown   = exportswire.ChangeUnknown

	KindUnknown   = exportswire.KindUnknown
	KindUndefined = exportswire.KindUndefined
	KindNull      = exportswire.KindNull
	KindBoolean   = exportswire.KindBoolean
	KindNumber    = exportswire.KindNumber
	KindString    = exportswire.KindString
	KindObject    = exportswire.KindObject
	KindArray     = exportswire.KindArray
	KindFunction  = exportswire.KindFunction
	KindUnion     = exportswire.KindUnion
)

// Join is exportswire.Join.
func Join(a, b *Shape, maxVariants int) *Shape { return exportswire.Join(a, b, maxVariants) }

// DecodeRequest is exportswire.DecodeRequest.
func DecodeRequest(raw []byte) (*Request, error) { return exportswire.DecodeRequest(raw) }

func unknown(reason string) *Shape { return &Shape{Kind: KindUnknown, Reason: reason} }

func constant(kind string, v any) *Shape { return &Shape{Kind: kind, Const: v, HasConst: true} }
