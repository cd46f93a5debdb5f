package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"rea/host/app"
	"rea/host/operation"
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
		Example: `  rea unknowns list --bundle evidence.json --status open --status blocked`,
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
				return c.printWithReferences(page)
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
	fromSpec(list, operation.ListUnknowns(), targets{
		"unknown_id": &f.UnknownID, "status": &statuses, "severity": &severities, "domain": &f.Domain, "scope_digest": &f.ScopeDigest,
		"include_history": &f.History, "offset": &f.Offset, "limit": &f.Limit,
	})

	var candidates []string
	verify := &cobra.Command{
		Example: `  rea unknowns verify unk_… --bundle evidence.json --evidence-id ev_…`,
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
				return c.printWithReferences(check)
			}
			fmt.Fprintf(c.stdout, "%s r%d %s: %s\n", check.UnknownID, check.Revision, check.Status, check.Verdict)
			for _, q := range check.Candidates {
				fmt.Fprintf(c.stdout, "  %s qualifies=%t %v\n", q.EvidenceID, q.Qualifies, q.Reasons)
			}
			return nil
		},
	}
	fromSpec(verify, operation.VerifyUnknownResolution(), targets{"cli.evidence_id": &candidates})
	root.AddCommand(list, verify)
	return root
}
