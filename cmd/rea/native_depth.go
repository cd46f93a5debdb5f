package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/app"
	"rea/host/operation"
)

// nativeDepthCommands are the debug-information and navigation commands,
// each built from its operation spec.
func (c *cli) nativeDepthCommands() []*cobra.Command {
	return []*cobra.Command{
		depthCommand(c, operation.ListTypes(), (*app.App).ListTypes, func(r *nativewire.Types) {
			for _, t := range r.Types.Items {
				fmt.Fprintf(c.stdout, "%-8s %-10s %6d bytes %4d members  %s\n", t.ID, t.Kind, t.ByteSize, t.Members, t.Name)
			}
			c.pageLine(len(r.Types.Items), r.Types.Total, r.Types.NextOffset, "types")
		}, func(req *app.NativeRequest) targets {
			return targets{"pattern": &req.Pattern, "mode": &req.Mode, "case_sensitive": &req.CaseSensitive}
		}),
		depthCommand(c, operation.ReadType(), (*app.App).ReadType, func(r *nativewire.TypeDetail) {
			fmt.Fprintf(c.stdout, "%s %s (%d bytes, id %s)\n", r.Type.Kind, r.Type.Name, r.Type.ByteSize, r.Type.ID)
			for _, m := range r.Members.Items {
				switch {
				case m.Value != nil:
					fmt.Fprintf(c.stdout, "  %-24s = %d\n", m.Name, *m.Value)
				case m.BitSize > 0:
					fmt.Fprintf(c.stdout, "  +%-5d %-24s %s : %d (bit %d)\n", m.ByteOffset, m.Name, m.Type, m.BitSize, m.BitOffset)
				default:
					fmt.Fprintf(c.stdout, "  +%-5d %-24s %s (%d bytes)\n", m.ByteOffset, m.Name, m.Type, m.ByteSize)
				}
			}
			if r.Underlying != "" {
				fmt.Fprintf(c.stdout, "  = %s\n", r.Underlying)
			}
			c.pageLine(len(r.Members.Items), r.Members.Total, r.Members.NextOffset, "members")
		}, nil),
		depthCommand(c, operation.FindCodeForString(), (*app.App).FindCodeForString, func(r *nativewire.CodeForString) {
			for _, s := range r.Strings.Items {
				fmt.Fprintf(c.stdout, "%s %q: %d procedures\n", s.String.Address, s.String.Value, s.Procedures)
				for _, u := range s.Uses {
					fmt.Fprintf(c.stdout, "  %s %-8s %s\n", u.From, u.Kind, procName(u.Procedure))
				}
			}
			c.pageLine(len(r.Strings.Items), r.Strings.Total, r.Strings.NextOffset, fmt.Sprintf("referenced strings (%d unreferenced)", r.Unreferenced))
		}, func(req *app.NativeRequest) targets {
			return targets{"mode": &req.Mode, "case_sensitive": &req.CaseSensitive}
		}),
		depthCommand(c, operation.FindXrefsToName(), (*app.App).FindXrefsToName, func(r *nativewire.XrefsToName) {
			for _, t := range r.Resolved {
				fmt.Fprintf(c.stdout, "%s %s (%s, %s)\n", t.Address, t.Name, t.Kind, t.Source)
			}
			for _, u := range r.References.Items {
				fmt.Fprintf(c.stdout, "  %s %-8s %s\n", u.From, u.Kind, procName(u.Procedure))
			}
			c.pageLine(len(r.References.Items), r.References.Total, r.References.NextOffset, "references")
		}, nil),
		depthCommand(c, operation.GetCallGraph(), (*app.App).GetCallGraph, func(r *nativewire.CallGraph) {
			for _, n := range r.Nodes {
				fmt.Fprintf(c.stdout, "%d %s %s\n", n.Depth, n.Address, label(n.ProcedureRef))
			}
			for _, e := range r.Edges.Items {
				fmt.Fprintf(c.stdout, "  %s -> %s (%d sites, %s)\n", e.Caller, e.Callee, e.Sites, e.Kind)
			}
			c.pageLine(len(r.Edges.Items), r.Edges.Total, r.Edges.NextOffset, "edges")
		}, func(req *app.NativeRequest) targets {
			return targets{"direction": &req.Direction, "depth": &req.Depth, "max_nodes": &req.MaxNodes}
		}),
		depthCommand(c, operation.TraceCallPath(), (*app.App).TraceCallPath, func(r *nativewire.CallPath) {
			if !r.Found {
				fmt.Fprintf(c.stdout, "no path from %s to %s (explored %d, exhausted %v)\n", label(r.From), label(r.To), r.Explored, r.Exhausted)
				return
			}
			for _, p := range r.Paths {
				var names []string
				for _, n := range p {
					names = append(names, label(n))
				}
				fmt.Fprintln(c.stdout, strings.Join(names, " -> "))
			}
		}, func(req *app.NativeRequest) targets {
			return targets{"direction": &req.Direction, "max_depth": &req.MaxDepth}
		}),
		depthCommand(c, operation.SearchBytes(), (*app.App).SearchBytes, c.printHits, nil),
		depthCommand(c, operation.SearchConstant(), (*app.App).SearchConstant, c.printHits, nil),
		depthCommand(c, operation.SearchInstructions(), (*app.App).SearchInstructions, c.printHits, func(req *app.NativeRequest) targets {
			return targets{"sequence": &req.Sequence}
		}),
		c.diffBinariesCommand(),
	}
}

func (c *cli) diffBinariesCommand() *cobra.Command {
	var req app.DiffBinariesRequest
	sp := operation.DiffBinaries()
	cmd := &cobra.Command{Long: sp.Description, RunE: func(cmd *cobra.Command, args []string) error {
		req.InputPath, req.OtherPath = args[0], args[1]
		return runNative(c, cmd, sp.CLI.Name, func(a *app.App) (*app.NativeResult[nativewire.BinaryDiff], error) {
			return a.DiffBinaries(cmd.Context(), req, c.progressPrinter(sp.CLI.Name))
		}, func(r *nativewire.BinaryDiff) {
			s := r.Summary
			fmt.Fprintf(c.stdout, "%d functions against %d: %d unchanged, %d changed, %d added, %d removed, %d ambiguous (by name %d, hash %d, fingerprint %d)\n",
				s.LeftFunctions, s.RightFunctions, s.Unchanged, s.Changed, s.Added, s.Removed, s.Ambiguous, s.ByName, s.ByHash, s.ByFingerprint)
			for _, ch := range r.Changes.Items {
				side := ch.Left
				if side == nil {
					side = ch.Right
				}
				other := ""
				if ch.Left != nil && ch.Right != nil {
					other = fmt.Sprintf(" -> %s %.3f (%s)", ch.Right.Address, ch.Similarity, ch.MatchedBy)
				}
				name := side.Name
				if side.Demangled != "" {
					name = side.Demangled
				}
				fmt.Fprintf(c.stdout, "%-9s %s %s%s\n", ch.Status, side.Address, name, other)
			}
			c.pageLine(len(r.Changes.Items), r.Changes.Total, r.Changes.NextOffset, "changes")
			if r.Comparison != nil {
				fmt.Fprintf(c.stdout, "compare_functions evidence %s\n", *r.Comparison)
			}
		})
	}}
	return fromSpec(cmd, sp, targets{"provider_id": &req.ProviderID, "architecture": &req.Architecture, "offset": &req.Offset, "limit": &req.Limit,
		"compare_changed": &req.CompareChanged})
}

func (c *cli) printHits(r *nativewire.Search) {
	for _, h := range r.Hits.Items {
		fmt.Fprintf(c.stdout, "%s %-10s %-32s %s\n", h.Address, h.Section, procName(h.Procedure), h.Text)
	}
	what := "hits"
	if r.Truncated {
		what += " (truncated)"
	}
	c.pageLine(len(r.Hits.Items), r.Hits.Total, r.Hits.NextOffset, what)
}

func procName(p *nativewire.ProcedureRef) string {
	if p == nil {
		return "-"
	}
	return label(*p)
}

func label(p nativewire.ProcedureRef) string {
	if p.Demangled != "" {
		return p.Demangled
	}
	return p.Name
}

// depthCommand builds one depth command: BINARY and the spec's other
// positional arguments fill the request in order, the common flags and
// the tool's own (more) are bound from the spec.
func depthCommand[T any](c *cli, sp operation.Spec, svc func(*app.App, context.Context, app.NativeRequest, func(abi.Progress)) (*app.NativeResult[T], error),
	text func(*T), more func(*app.NativeRequest) targets) *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{Long: sp.Description}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		req.InputPath = args[0]
		for i, a := range sp.CLI.Args[1:] {
			*positional(&req, a.Param) = args[i+1]
		}
		return runNative(c, cmd, sp.CLI.Name, func(a *app.App) (*app.NativeResult[T], error) {
			return svc(a, cmd.Context(), req, c.progressPrinter(sp.CLI.Name))
		}, text)
	}
	to := targets{"provider_id": &req.ProviderID, "architecture": &req.Architecture}
	if _, ok := sp.Lookup("offset"); ok {
		to["offset"], to["limit"] = &req.Offset, &req.Limit
	}
	if more != nil {
		for k, v := range more(&req) {
			to[k] = v
		}
	}
	return fromSpec(cmd, sp, to)
}

// positional is the request field a positional argument fills.
func positional(req *app.NativeRequest, param string) *string {
	switch param {
	case "type":
		return &req.Type
	case "query":
		return &req.Query
	case "name":
		return &req.Name
	case "address":
		return &req.Address
	case "start":
		return &req.Start
	case "goal":
		return &req.Goal
	case "pattern":
		return &req.Pattern
	case "value":
		return &req.Value
	}
	panic("rea: no request field for positional parameter " + param)
}
