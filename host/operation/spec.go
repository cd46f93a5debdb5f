// Package operation declares rea's operations once: name, family, effects,
// every parameter with its type, default, bounds, description and examples,
// and the CLI command's name and shape. The MCP server derives a tool's
// input schema (every profile) and the CLI derives a command's flags and
// their help from the same Spec, so the two surfaces cannot drift; a test
// holds both, and the defaults the service applies, to each spec.
//
// The package is plain data: it imports nothing of the MCP SDK or cobra, so
// both front ends (host/mcpserver and cmd/rea) can depend on it.
//
// A new operation is a Spec here (listed by All) and a service method in
// host/app: host/mcpserver's Tool sets Spec and writes only Run (and Output,
// Modules); cmd/rea builds its command with fromSpec, binding each flag
// parameter to the request field it fills, and writes only the rendering;
// cmd/rea's agreement test needs the operation's serviceDefaults entry.
package operation

import "strings"

// Type is the JSON type of a parameter.
type Type string

// Parameter types. Evidence is any JSON value: a retained reference or an
// inline record, which the server resolves.
const (
	String   Type = "string"
	Integer  Type = "integer"
	Boolean  Type = "boolean"
	Object   Type = "object"
	Array    Type = "array"
	Evidence Type = "evidence"
	// Map is an object of string values under any names (an environment,
	// a workflow's arguments).
	Map Type = "map"
)

// Spec is one operation: an MCP tool and, unless OneSidedReason says why
// not, the CLI command that runs the same service.
type Spec struct {
	Name        string
	Title       string
	Family      string
	Description string
	Effects     Effects
	// Params are the top-level properties of the MCP input, in any order;
	// the schema lists them by name.
	Params []Param
	// Examples are advertised, distinct, valid canonical inputs.
	Examples []map[string]any
	// CLI is the command sharing the tool's service; nil with
	// OneSidedReason when there is none.
	CLI            *Command
	OneSidedReason string
	// CLIFlags are flags of the command that are no MCP parameter (e.g.
	// how the CLI reads a positional input before calling the service).
	CLIFlags []Param
	// Aliases are older parameter names accepted for one release
	// (alias.go); they are no parameter of the schema.
	Aliases []Alias
}

// Param is one input parameter.
type Param struct {
	Name        string
	Type        Type
	Description string
	Required    bool
	// Enum lists the accepted strings.
	Enum []string
	// Min and Max bound an Integer.
	Min, Max int64
	// Default is what the service applies when the parameter is absent
	// (int, string or bool); nil when there is none. The description says
	// it in words, and a test checks the words, the CLI and the service.
	Default any
	// Examples are literal example values of the parameter.
	Examples []any
	// Fields are an Object's properties.
	Fields []Param
	// Items is an Array's element, MinItems and MaxItems its bounds.
	Items              *Param
	MinItems, MaxItems int
	// MaxLength bounds a String in bytes; 0 is no bound of its own.
	MaxLength int
	// Nullable admits null besides the type (a String or an Object): null
	// clears the field or means "any".
	Nullable bool
	// Flag is the parameter's CLI flag, nil when the CLI does not take it.
	Flag *Flag
}

// Flag is how a parameter appears on the command line.
type Flag struct {
	Name string
	// Help is the flag's usage line; "" uses the parameter's description.
	Help string
	// Default is the flag's own default when it differs from "let the
	// service decide" (zero for integers, the spec default for strings and
	// booleans), e.g. a CLI that pages more by default than MCP does.
	Default any
	// Required makes cobra refuse the command without the flag.
	Required bool
}

// Command is the CLI's name and shape of an operation.
type Command struct {
	// Name is the command path below rea, e.g. "trace-application-feature".
	Name string
	// Args are the positional arguments in order.
	Args []Arg
	// Synopsis follows the name in the usage line, e.g.
	// "EVIDENCE.json|APP --seed-kind KIND --seed VALUE".
	Synopsis string
	Short    string
}

// Arg is a positional argument; Param names the MCP parameter it stands
// for ("" when none does, e.g. a path the CLI inspects first).
type Arg struct {
	Name  string
	Param string
}

// Use is cobra's usage line: the command's own (last) word and the
// synopsis.
func (c *Command) Use() string {
	words := strings.Fields(c.Name)
	use := words[len(words)-1]
	if c.Synopsis == "" {
		return use
	}
	return use + " " + c.Synopsis
}

// Help is the flag's usage line: the flag's own, or the description in
// the CLI's style (lower-case start unless an acronym, no final period).
func (p Param) Help() string {
	if p.Flag != nil && p.Flag.Help != "" {
		return p.Flag.Help
	}
	h := strings.TrimSuffix(p.Description, ".")
	if len(h) > 1 && h[0] >= 'A' && h[0] <= 'Z' && !(h[1] >= 'A' && h[1] <= 'Z') {
		h = string(h[0]+'a'-'A') + h[1:]
	}
	return h
}

// FlagDefault is the default the CLI flag shows and passes.
func (p Param) FlagDefault() any {
	if p.Flag != nil && p.Flag.Default != nil {
		return p.Flag.Default
	}
	switch p.Type {
	case Integer:
		return 0
	case Boolean:
		b, _ := p.Default.(bool)
		return b
	case Array:
		return []string(nil)
	default:
		s, _ := p.Default.(string)
		return s
	}
}

// Walk calls fn for every parameter of the spec, nested ones included, with
// its dotted path ("limits.max_depth"); array items are not walked.
func (s Spec) Walk(fn func(path string, p Param)) {
	var walk func(prefix string, ps []Param)
	walk = func(prefix string, ps []Param) {
		for _, p := range ps {
			path := prefix + p.Name
			fn(path, p)
			if p.Type == Object {
				walk(path+".", p.Fields)
			}
		}
	}
	walk("", s.Params)
}

// Flags lists every parameter the CLI takes as a flag, with its path;
// CLI-only flags have paths starting with "cli.".
func (s Spec) Flags() []PathParam {
	var out []PathParam
	s.Walk(func(path string, p Param) {
		if p.Flag != nil {
			out = append(out, PathParam{path, p})
		}
	})
	for _, p := range s.CLIFlags {
		out = append(out, PathParam{"cli." + p.Name, p})
	}
	return out
}

// PathParam is a parameter with its dotted path.
type PathParam struct {
	Path  string
	Param Param
}

// Lookup finds a parameter by its dotted path.
func (s Spec) Lookup(path string) (Param, bool) {
	ps := s.Params
	if rest, ok := strings.CutPrefix(path, "cli."); ok {
		ps, path = s.CLIFlags, rest
	}
	for {
		head, rest, nested := strings.Cut(path, ".")
		var found *Param
		for i := range ps {
			if ps[i].Name == head {
				found = &ps[i]
			}
		}
		if found == nil {
			return Param{}, false
		}
		if !nested {
			return *found, true
		}
		ps, path = found.Fields, rest
	}
}
