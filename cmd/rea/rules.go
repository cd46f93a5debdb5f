package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"rea/jsengine/report"
)

// withListRules gives the named commands a --list-rules flag that prints
// the security rule table (each rule with its severity and its
// Electronegativity and Electron-checklist equivalents) instead of
// analysing anything; PATH is then not needed.
func (c *cli) withListRules(root *cobra.Command, names ...string) {
	for _, cmd := range root.Commands() {
		for _, n := range names {
			if cmd.Name() != n {
				continue
			}
			var list bool
			cmd.Flags().BoolVar(&list, "list-rules", false, "print the security rule table (ids, severities, Electronegativity and Electron-checklist equivalents) and exit")
			args, run := cmd.Args, cmd.RunE
			cmd.Args = func(cmd *cobra.Command, a []string) error {
				if list {
					return cobra.NoArgs(cmd, a)
				}
				if args == nil {
					return nil
				}
				return args(cmd, a)
			}
			cmd.RunE = func(cmd *cobra.Command, a []string) error {
				if !list {
					return run(cmd, a)
				}
				return c.printRules()
			}
		}
	}
}

func (c *cli) printRules() error {
	rules := report.Rules()
	if c.format == "json" {
		return c.printJSON(map[string]any{"rules": rules, "electron_checklist": report.ChecklistItems})
	}
	w := c.stdout
	for _, r := range rules {
		var eng, list []string
		for _, e := range r.Equivalents {
			if e.Kind == report.Electronegativity {
				eng = append(eng, e.ID)
			} else {
				list = append(list, "#"+e.ID)
			}
		}
		fmt.Fprintf(w, "%-38s %-6s %s\n", r.ID, r.Severity, r.Title)
		if len(eng) > 0 {
			fmt.Fprintf(w, "  electronegativity: %s\n", strings.Join(eng, ", "))
		}
		if len(list) > 0 {
			fmt.Fprintf(w, "  electron checklist: %s\n", strings.Join(list, ", "))
		}
	}
	fmt.Fprintf(w, "\n%d rules. Suppress a finding with // rea-disable RULE[,RULE] -- reason on its line or the line before;\nElectronegativity's /* eng-disable CHECK */ is honoured through these equivalents.\n", len(rules))
	return nil
}
