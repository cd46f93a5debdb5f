package jsengine

import (
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
)

// kind classifies an abstract value produced by the bounded evaluator. The
// evaluator never runs analysed code: it folds literals, follows bindings,
// object literals, spreads, helper functions that return values and module
// exports, and gives up (unknown) on anything else.
type kind uint8

const (
	kUnknown kind = iota
	kString
	kNumber
	kBool
	kNull
	kUndefined
	kObject
	kFunction
	kModule   // an analysed module of the application
	kExternal // a member path of an external module, e.g. electron.ipcMain
	kInstance // an object created by an Electron constructor (a window) or its members
	kClass    // a class of the application (fn.node is its *ast.ClassLiteral)
	kObjectOf // an instance of an application class (fn.node is the class)
)

// value is one abstract value.
type value struct {
	kind kind
	str  string
	num  float64
	b    bool
	obj  *objValue
	fn   *funcValue
	mod  *moduleInfo
	ext  string   // external module name (kExternal) or class (kInstance)
	path []string // member path below ext or below the instance
	win  *windowRec

	// inferred is set when resolution crossed a module boundary or a
	// helper's return value; such facts are reported as inferred.
	inferred bool
	// fsPath marks strings computed from __dirname, path.join and friends.
	fsPath bool
	// at is where the value is written (literal or object).
	at *Location
	// via is the chain from use to definition, bounded.
	via []Step
	// expr renders an unknown value's expression.
	expr string
	// alts, on an unknown value, are the values it may take and when
	// (alternatives.go).
	alts []alt
}

type objValue struct {
	keys          []string
	props         map[string]value
	unknownSpread []string // rendered spreads whose source is unknown
	dynamicKeys   int
	isArray       bool
	// overridable names, per key, the unknown spread (or computed key)
	// written after the key that may replace its value: in
	// Object.assign({}, {link: 'https://a'}, input) link is not known.
	overridable map[string]string
}

type funcValue struct {
	node  ast.Node // *ast.FunctionLiteral or *ast.ArrowFunctionLiteral
	scope *scope
	mod   *moduleInfo
}

func unknown(expr string) value { return value{kind: kUnknown, expr: expr} }

func strVal(s string) value { return value{kind: kString, str: s} }

func (v value) known() bool { return v.kind != kUnknown }

// isElectron reports whether v is the electron module member at path p.
func (v value) isElectron(p ...string) bool {
	if v.kind != kExternal || v.ext != "electron" || len(v.path) != len(p) {
		return false
	}
	for i := range p {
		if v.path[i] != p[i] {
			return false
		}
	}
	return true
}

// jsonValue converts a primitive to its JSON form; ok is false otherwise.
func (v value) jsonValue() (any, bool) {
	switch v.kind {
	case kString:
		return v.str, true
	case kNumber:
		if math.IsNaN(v.num) || math.IsInf(v.num, 0) {
			return nil, false // not representable in JSON
		}
		return v.num, true
	case kBool:
		return v.b, true
	case kNull:
		return nil, true
	}
	return nil, false
}

// truthy reports JavaScript truthiness of a known primitive.
func (v value) truthy() (bool, bool) {
	switch v.kind {
	case kString:
		return v.str != "", true
	case kNumber:
		return v.num != 0, true
	case kBool:
		return v.b, true
	case kNull, kUndefined:
		return false, true
	case kExternal:
		// app.isPackaged and other is… properties are booleans known only
		// at run time; modules and their objects and functions are truthy.
		if n := len(v.path); n > 0 && (isFlagName(v.path[n-1]) || v.ext == "window") {
			return false, false // window.x may well be undefined
		}
		return true, true
	case kObject, kFunction, kModule, kInstance, kClass, kObjectOf:
		return true, true
	}
	return false, false
}

// toString renders a primitive as JavaScript string conversion would.
func (v value) toString() (string, bool) {
	switch v.kind {
	case kString:
		return v.str, true
	case kNumber:
		return strconv.FormatFloat(v.num, 'f', -1, 64), true
	case kBool:
		return strconv.FormatBool(v.b), true
	case kNull:
		return "null", true
	case kUndefined:
		return "undefined", true
	}
	return "", false
}

// render describes a value for reports.
func (v value) render() string {
	switch v.kind {
	case kString:
		return strconv.Quote(v.str)
	case kNumber, kBool, kNull, kUndefined:
		s, _ := v.toString()
		return s
	case kObject:
		return "{" + strings.Join(v.obj.keys, ", ") + "}"
	case kFunction:
		return "function"
	case kModule:
		return "module " + v.mod.path
	case kExternal:
		return strings.Join(append([]string{v.ext}, v.path...), ".")
	case kInstance:
		return strings.Join(append([]string{v.ext + " instance"}, v.path...), ".")
	case kClass:
		return "class " + className(v.fn)
	case kObjectOf:
		return className(v.fn) + " instance"
	}
	if v.expr != "" {
		return v.expr
	}
	return "unknown"
}

// withStep returns v with one more step at the front of its chain.
func (v value) withStep(s Step) value {
	if len(v.via) >= maxChain {
		return v
	}
	via := make([]Step, 0, len(v.via)+1)
	via = append(via, s)
	v.via = append(via, v.via...)
	return v
}

const maxChain = 12

func newObject() *objValue { return &objValue{props: map[string]value{}} }

func (o *objValue) set(k string, v value) {
	if _, ok := o.props[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.props[k] = v
	delete(o.overridable, k) // written after whatever could replace it
}

// mayOverride records that by, an unknown spread or computed key, is
// written after every key the object has so far.
func (o *objValue) mayOverride(by string) {
	if len(o.keys) == 0 {
		return
	}
	if o.overridable == nil {
		o.overridable = map[string]string{}
	}
	for _, k := range o.keys {
		o.overridable[k] = by
	}
}

// keepOverridable carries the keys of from that something unknown may
// replace into o (after o.set copied them).
func (o *objValue) keepOverridable(from *objValue) {
	for k, by := range from.overridable {
		if _, ok := o.props[k]; !ok {
			continue
		}
		if o.overridable == nil {
			o.overridable = map[string]string{}
		}
		o.overridable[k] = by
	}
}

func (o *objValue) get(k string) (value, bool) {
	v, ok := o.props[k]
	return v, ok
}

// isFlagName reports whether a property name reads as a boolean flag
// (isPackaged, isReady).
func isFlagName(n string) bool {
	return len(n) > 2 && n[0] == 'i' && n[1] == 's' && n[2] >= 'A' && n[2] <= 'Z'
}
