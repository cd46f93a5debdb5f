package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
	"rea/host/evidence"
	"rea/host/notes"
	"rea/host/operation"
)

// Analyst notes in the CLI. A CLI invocation has no session, so notes live
// in an Evidence bundle file named with the global --notes flag: the
// set-*/unset-* commands read it (when it exists), record their mutation
// records and publish it again atomically; every native command given
// --notes shows its notes beside the results. The file is the bundle
// export_evidence_bundle writes, so an MCP session's export can be passed
// here and this file can be loaded into a session with
// import_evidence_bundle.

// notesLedger reads the --notes bundle; a file that does not exist yet is
// an empty ledger (the first set-* creates it).
func (c *cli) notesLedger() (*evidence.Ledger, error) {
	if c.notesLoaded != nil {
		return c.notesLoaded, nil
	}
	if c.notesPath == "" {
		return nil, nil
	}
	if _, err := os.Stat(c.notesPath); os.IsNotExist(err) {
		c.notesLoaded = evidence.NewLedger(evidence.DefaultLimits())
		return c.notesLoaded, nil
	}
	l, err := app.LoadBundleLedger(c.ctx, c.notesPath)
	if err != nil {
		if ae, ok := err.(*abi.Error); ok {
			ae.Details["field"] = "notes"
		}
		return nil, err
	}
	c.notesLoaded = l
	return l, nil
}

func (c *cli) cliActor() string {
	return notes.Actor("cli", os.Getenv("USER"), "")
}

// noteWrite records changes in the --notes bundle and publishes it.
func (c *cli) noteWrite(cmd *cobra.Command, op, binary, field string, changes []notes.Change) error {
	if c.notesPath == "" {
		return abi.Errorf(abi.CodeInvalidRequest, "name the notes file with --notes NOTES.json (an Evidence bundle; created when missing)").WithDetail("field", "notes")
	}
	l, err := c.notesLedger()
	if err != nil {
		return err
	}
	a, err := c.application()
	if err != nil {
		return err
	}
	res, err := a.WriteNotes(cmd.Context(), app.NoteWriteRequest{InputPath: binary, Ledger: l, Operation: op, Actor: c.cliActor(), Changes: changes, Field: field},
		c.progressPrinter(cmd.Name()))
	c.endProgress()
	if err != nil {
		return err
	}
	exp, err := evidence.Export(cmd.Context(), l, c.notesPath, true)
	if err != nil {
		return err
	}
	if c.format == "json" {
		return c.printJSON(map[string]any{"action": res.Action, "mutations": res.Mutations, "mutation_evidence_id": res.EvidenceID, "notes": exp})
	}
	for _, m := range res.Mutations {
		v := "(removed)"
		if m.Value != nil {
			v = fmt.Sprintf("%q", *m.Value)
		}
		fmt.Fprintf(c.stdout, "%s %s %s  readback match %t  evidence %s\n", m.Address, m.Kind, v, m.ReadbackMatch, m.EvidenceID)
	}
	fmt.Fprintf(c.stdout, "notes: %s (%d records, sha256 %s)\n", exp.Path, exp.Records, exp.SHA256)
	return nil
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (c *cli) noteCommands() []*cobra.Command {
	setOne := func(sp operation.Spec, kind string) *cobra.Command {
		cmd := &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
			return c.noteWrite(cmd, sp.Name, args[0], "address", []notes.Change{{Kind: kind, Address: args[1], Value: nilIfEmpty(args[2])}})
		}}
		return fromSpec(cmd, sp, targets{})
	}
	var names []string
	setNames := &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
		var changes []notes.Change
		for _, n := range names {
			addr, name, ok := strings.Cut(n, "=")
			if !ok {
				return abi.Errorf(abi.CodeInvalidRequest, "--name %q is not ADDRESS=NAME", n).WithDetail("field", "name")
			}
			changes = append(changes, notes.Change{Kind: notes.KindName, Address: addr, Value: nilIfEmpty(name)})
		}
		return c.noteWrite(cmd, "set_addresses_names", args[0], "names", changes)
	}}
	fromSpec(setNames, operation.SetAddressesNames(), targets{"cli.name": &names})
	var bookmark string
	setBookmark := &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
		name := bookmark
		if name == "" {
			name = args[1]
		}
		return c.noteWrite(cmd, "set_bookmark", args[0], "address", []notes.Change{{Kind: notes.KindBookmark, Address: args[1], Value: &name}})
	}}
	fromSpec(setBookmark, operation.SetBookmark(), targets{"name": &bookmark})
	unset := &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
		return c.noteWrite(cmd, "unset_bookmark", args[0], "address", []notes.Change{{Kind: notes.KindBookmark, Address: args[1]}})
	}}
	fromSpec(unset, operation.UnsetBookmark(), targets{})

	var offset, limit int
	bookmarks := &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
		l, err := c.notesLedger()
		if err != nil {
			return err
		}
		return runCommand(c, func(a *app.App) (*app.Bookmarks, error) {
			return a.ListBookmarks(cmd.Context(), app.NoteReadRequest{InputPath: args[0], Ledger: l, Offset: offset, Limit: limit})
		}, itself[*app.Bookmarks], func(b *app.Bookmarks) error {
			for _, n := range b.Bookmarks.Items {
				fmt.Fprintf(c.stdout, "%18s  %s  (%s, %s)\n", n.Address, n.Value, n.Actor, n.RecordedAt)
			}
			for _, cf := range b.Conflicts {
				fmt.Fprintf(c.stdout, "conflict %s %s: %s %v\n", cf.Address, cf.Kind, cf.Reason, cf.EvidenceIDs)
			}
			c.pageLine(len(b.Bookmarks.Items), b.Bookmarks.Total, b.Bookmarks.NextOffset, "bookmarks")
			return nil
		})
	}}
	fromSpec(bookmarks, operation.ListBookmarks(), targets{"offset": &offset, "limit": &limit})

	read := func(sp operation.Spec, kind string) *cobra.Command {
		cmd := &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
			l, err := c.notesLedger()
			if err != nil {
				return err
			}
			return runCommand(c, func(a *app.App) (*app.NoteRead, error) {
				return a.ReadNote(cmd.Context(), kind, app.NoteReadRequest{InputPath: args[0], Ledger: l, Address: args[1]}, c.progressPrinter(cmd.Name()))
			}, itself[*app.NoteRead], func(r *app.NoteRead) error {
				if r.Value == nil {
					fmt.Fprintf(c.stdout, "%s: no %s\n", r.Address, strings.ReplaceAll(kind, "_", " "))
					return nil
				}
				fmt.Fprintf(c.stdout, "%s: %s\n  (%s, %s, evidence %s)\n", r.Address, *r.Value, r.Note.Actor, r.Note.RecordedAt, r.Note.EvidenceID)
				return nil
			})
		}}
		return fromSpec(cmd, sp, targets{})
	}
	addressName := &cobra.Command{RunE: func(cmd *cobra.Command, args []string) error {
		return runCommand(c, func(a *app.App) (evidence.Record, error) {
			return a.AddressNameOf(cmd.Context(), args[0], args[1], c.progressPrinter(cmd.Name()))
		}, itself[evidence.Record], func(r evidence.Record) error {
			fmt.Fprintf(c.stdout, "%s\n\nevidence %s\n", r.NormalizedResult, r.EvidenceID)
			return nil
		})
	}}
	fromSpec(addressName, operation.AddressName(), targets{})
	return []*cobra.Command{
		setOne(operation.SetAddressName(), notes.KindName), setNames, setOne(operation.SetComment(), notes.KindComment),
		setOne(operation.SetInlineComment(), notes.KindInlineComment), setBookmark, unset, bookmarks,
		read(operation.ReadComment(), notes.KindComment), read(operation.ReadInlineComment(), notes.KindInlineComment), addressName,
	}
}
