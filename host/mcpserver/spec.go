package mcpserver

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/operation"
)

// fromSpec fills a tool's declared fields from its operation spec; a tool
// without one is returned as it is. The Run, Output and Modules stay the
// tool's own.
func fromSpec(t *Tool) *Tool {
	if t.Spec == nil {
		return t
	}
	sp := t.Spec
	t.Name, t.Title, t.Family, t.Description, t.Effects = sp.Name, sp.Title, sp.Family, sp.Description, sp.Effects
	t.Input = InputSchema(*sp)
	t.Examples = sp.Examples
	t.CLI, t.OneSidedReason = "", sp.OneSidedReason
	if sp.CLI != nil {
		t.CLI = sp.CLI.Name
	}
	return t
}

// InputSchema is the full-profile input schema of an operation, in rea's
// portable subset (schema.go); the compact profile is derived from it when
// the tool is advertised.
func InputSchema(sp operation.Spec) Schema {
	props, required := paramSchemas(sp.Params)
	return object(inputGroups(sp), props, required...)
}

func paramSchemas(ps []operation.Param) (map[string]Schema, []string) {
	props := make(map[string]Schema, len(ps))
	var required []string
	for _, p := range ps {
		props[p.Name] = paramSchema(p)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return props, required
}

func paramSchema(p operation.Param) Schema {
	var s Schema
	switch p.Type {
	case operation.String:
		if p.Nullable {
			s = Schema{"type": []string{"string", "null"}}
			if p.Description != "" {
				s["description"] = p.Description
			}
		} else if len(p.Enum) > 0 {
			s = enum(p.Description, p.Enum...)
		} else {
			s = str(p.Description)
		}
	case operation.Integer:
		s = integer(p.Description, p.Min, p.Max)
	case operation.Boolean:
		s = boolean(p.Description)
	case operation.Evidence:
		s = anyJSON(p.Description)
	case operation.Object:
		props, required := paramSchemas(p.Fields)
		s = object(p.Description, props, required...)
		if p.Nullable {
			s["type"] = []string{"object", "null"}
		}
	case operation.Map:
		s = Schema{"type": "object", "description": p.Description, "additionalProperties": Schema{"type": "string"}}
	case operation.Array:
		s = array(p.Description, paramSchema(*p.Items), p.MaxItems)
		if p.MinItems > 0 {
			s["minItems"] = p.MinItems
		}
	default:
		panic(fmt.Sprintf("mcpserver: parameter %q has no type", p.Name)) // a programming error caught by every test
	}
	if p.MaxLength > 0 {
		s["maxLength"] = p.MaxLength
	}
	if len(p.Examples) > 0 {
		s = withExamples(s, p.Examples...)
	}
	return s
}

// spec is the address of an operation spec, for Tool.Spec.
func spec(sp operation.Spec) *operation.Spec { return &sp }

// Advertised is a tool as tools/list shows it under the server's schema
// profile; nil when the tool is not in scope.
func (s *Server) Advertised(name string) *mcp.Tool {
	for _, t := range s.tools {
		if t.Name == name {
			return s.advertise(t)
		}
	}
	return nil
}
