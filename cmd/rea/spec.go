package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"rea/host/operation"
)

// wrapperAnnotation marks a flag a command borrows from another command it
// hands some inputs to (analyze's application flags): no flag of its spec.
const wrapperAnnotation = "rea/wrapper-of"

// deprecatedAnnotation marks a hidden flag of an older form kept for one
// release, with what to use instead.
const deprecatedAnnotation = "rea/deprecated"

// targets binds a spec's flag parameters (by dotted path, "cli." for the
// CLI's own) to the request fields the command fills.
type targets map[string]any

// fromSpec completes a command from its operation spec: usage line, short
// help, the positional argument count, and every flag with its name, help
// and default. A flag parameter without a target, a target without a flag
// parameter, or a target of the wrong type is a programming error that every
// test of the CLI catches.
func fromSpec(cmd *cobra.Command, sp operation.Spec, to targets) *cobra.Command {
	if sp.CLI == nil {
		panic(fmt.Sprintf("rea: operation %s has no CLI command", sp.Name))
	}
	cmd.Use, cmd.Short = sp.CLI.Use(), sp.CLI.Short
	cmd.Args = cobra.ExactArgs(len(sp.CLI.Args))
	if len(sp.CLI.Args) == 0 {
		cmd.Args = cobra.NoArgs // names a stray word as an unknown command
	}
	f := cmd.Flags()
	bound := map[string]bool{}
	for _, fp := range sp.Flags() {
		p, target := fp.Param, to[fp.Path]
		bound[fp.Path] = true
		ok := false
		switch p.Type {
		case operation.String:
			if v, is := target.(*string); is {
				f.StringVar(v, p.Flag.Name, p.FlagDefault().(string), p.Help())
				ok = true
			}
		case operation.Integer:
			switch v := target.(type) {
			case *int:
				f.IntVar(v, p.Flag.Name, p.FlagDefault().(int), p.Help())
				ok = true
			case *int64:
				f.Int64Var(v, p.Flag.Name, int64(p.FlagDefault().(int)), p.Help())
				ok = true
			}
		case operation.Array:
			// A repeatable flag of strings.
			if v, is := target.(*[]string); is && p.Items != nil && p.Items.Type == operation.String {
				f.StringArrayVar(v, p.Flag.Name, nil, p.Help())
				ok = true
			}
		case operation.Boolean:
			if v, is := target.(*bool); is {
				f.BoolVar(v, p.Flag.Name, p.FlagDefault().(bool), p.Help())
				ok = true
			}
		}
		if !ok {
			panic(fmt.Sprintf("rea: %s: flag --%s (%s %s) has target %T", sp.Name, p.Flag.Name, fp.Path, p.Type, target))
		}
		if p.Flag.Required {
			_ = cmd.MarkFlagRequired(p.Flag.Name)
		}
	}
	for path := range to {
		if !bound[path] {
			panic(fmt.Sprintf("rea: %s: target %s is no flag of the spec", sp.Name, path))
		}
	}
	return cmd
}
