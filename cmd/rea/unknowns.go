package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"rea/host/app"
	"rea/host/unknowns"
)

// unknownsCommand reads the residual-unknown registry of an exported
// bundle; recording and updating unknowns happens in an MCP session.
func (c *cli) unknownsCommand() *cobra.Command {
	var bundle string
	root := &cobra.Command{
		Use:   "unknowns",
		Short: "Read the residual unknowns of an exported Evidence bundle (list, verify)",
		Long: `Residual unknowns are recorded and updated in an MCP session (record_unknown,
update_unknown) and travel in exported bundles. These commands validate a
bundle's unknown histories and read them without a session.`,
	}
	root.PersistentFlags().StringVar(&bundle, "bundle", "", "exported Evidence bundle (required)")

	var f unknowns.Filter
	var statuses, severities []string
	list := &cobra.Command{
		Use:     "list --bundle BUNDLE.json",
		Short:   "List current unknowns (or every revision with --history), filtered and paged",
		Example: `  rea unknowns list --bundle evidence.json --status open --status blocked`,
		Args:    cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			ledger, err := app.LoadBundleLedger(c.ctx, bundle)
			if err != nil {
				return err
			}
			for _, s := range statuses {
				f.Statuses = append(f.Statuses, unknowns.Status(s))
			}
			for _, s := range severities {
				f.Severities = append(f.Severities, unknowns.Severity(s))
			}
			page, err := unknowns.New(ledger).List(f)
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(page)
			}
			fmt.Fprintf(c.stdout, "%d unknown(s) %v\n", page.Total, page.ByStatus)
			for _, u := range page.Unknowns {
				fmt.Fprintf(c.stdout, "  %s r%d %-13s %-8s [%s] %s\n", u.UnknownID, u.Revision, u.Status, u.Severity, u.Domain, u.Question)
			}
			if page.NextOffset != nil {
				fmt.Fprintf(c.stdout, "  … more: --offset %d\n", *page.NextOffset)
			}
			return nil
		},
	}
	lf := list.Flags()
	lf.StringVar(&f.UnknownID, "unknown-id", "", "exact unknown id")
	lf.StringArrayVar(&statuses, "status", nil, "status to include (repeatable): open, investigating, blocked, contradicted, resolved")
	lf.StringArrayVar(&severities, "severity", nil, "severity to include (repeatable): low, medium, high, critical")
	lf.StringVar(&f.Domain, "domain", "", "exact domain")
	lf.StringVar(&f.ScopeDigest, "scope-digest", "", "exact scope (target sha256)")
	lf.BoolVar(&f.History, "history", false, "list every revision, not only current heads")
	lf.IntVar(&f.Offset, "offset", 0, "first item")
	lf.IntVar(&f.Limit, "limit", 0, "items per page (default 50, at most 100)")

	var candidates []string
	verify := &cobra.Command{
		Use:     "verify UNKNOWN_ID --bundle BUNDLE.json",
		Short:   "Check whether retained Evidence qualifies to resolve an unknown",
		Example: `  rea unknowns verify unk_… --bundle evidence.json --evidence-id ev_…`,
		Args:    cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ledger, err := app.LoadBundleLedger(c.ctx, bundle)
			if err != nil {
				return err
			}
			check, err := unknowns.New(ledger).VerifyResolution(args[0], candidates)
			if err != nil {
				return err
			}
			if c.format == "json" {
				return c.printJSON(check)
			}
			fmt.Fprintf(c.stdout, "%s r%d %s: %s\n", check.UnknownID, check.Revision, check.Status, check.Verdict)
			for _, q := range check.Candidates {
				fmt.Fprintf(c.stdout, "  %s qualifies=%t %v\n", q.EvidenceID, q.Qualifies, q.Reasons)
			}
			return nil
		},
	}
	verify.Flags().StringArrayVar(&candidates, "evidence-id", nil, "candidate Evidence to check (repeatable; default the unknown's own)")
	root.AddCommand(list, verify)
	return root
}
