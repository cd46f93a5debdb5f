package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"rea/analysis/native/nativewire"
	"rea/host/app"
	"rea/host/operation"
)

// inspectElectronBinaryCommand is inspect_electron_binary on the CLI.
func (c *cli) inspectElectronBinaryCommand() *cobra.Command {
	var req app.NativeRequest
	cmd := &cobra.Command{
		Long: `inspect-electron-binary scans an Electron executable in the sandbox without
running it: the fuse wire after the @electron/fuses sentinel (each fuse
enabled, disabled or removed), the Electron and Chromium versions its strings
state, and a finding for each fuse that lets the app be run as Node.js
(RunAsNode), fed code through NODE_OPTIONS or --inspect, or load code that is
not the integrity-checked app.asar. A Windows executable's embedded ASAR
integrity (PE resource INTEGRITY/ELECTRONASAR) is checked against the header
hash of resources\app.asar (and any other archive it names) beside it. On macOS pass
X.app/Contents/Frameworks/Electron Framework.framework/Electron Framework.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.InputPath = args[0]
			return runNative(c, cmd, "inspect-electron-binary", func(a *app.App) (*app.NativeResult[nativewire.ElectronBinary], error) {
				return a.InspectElectronBinary(cmd.Context(), req, c.progressPrinter("inspect-electron-binary"))
			}, c.printElectronBinary)
		},
	}
	return nativeCommand(cmd, operation.InspectElectronBinary(), &req)
}

func (c *cli) printElectronBinary(e *nativewire.ElectronBinary) {
	w := c.stdout
	fmt.Fprintf(w, "%s %s, %d bytes\n", e.Target.Format, e.Target.Architecture, e.FileSize)
	version := func(v string) string {
		if v == "" {
			return "not stated"
		}
		return v
	}
	fmt.Fprintf(w, "electron %s  chromium %s\n", version(e.ElectronVersion), version(e.ChromiumVersion))
	fmt.Fprintf(w, "fuse sentinels %d\n", e.SentinelCount)
	for _, wire := range e.Wires {
		fmt.Fprintf(w, "wire at 0x%x: version %d, %d fuses%s\n", wire.Offset, wire.Version, wire.Length, map[bool]string{true: " (truncated)"}[wire.Truncated])
		for _, f := range wire.Fuses {
			fmt.Fprintf(w, "  %-40s %s\n", f.Name, f.State)
		}
	}
	if in := e.AsarIntegrity; in != nil {
		fmt.Fprintf(w, "asar integrity (%s at 0x%x): %d entries", in.Source, in.Offset, len(in.Entries))
		if in.Skipped > 0 {
			fmt.Fprintf(w, ", %d skipped as Electron skips them", in.Skipped)
		}
		fmt.Fprintln(w)
		for _, c := range in.Checks {
			fmt.Fprintf(w, "  %-10s %s  declared %s", c.Status, c.File, c.Declared)
			if c.Observed != "" && c.Observed != c.Declared {
				fmt.Fprintf(w, ", header hashes to %s", c.Observed)
			}
			if c.Detail != "" {
				fmt.Fprintf(w, " (%s)", c.Detail)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "findings %d\n", len(e.Findings))
	for _, f := range e.Findings {
		fmt.Fprintf(w, "  [%s] %s: %s\n    %s\n", f.Severity, f.RuleID, f.Message, f.Consequence)
	}
	if len(e.Limitations) > 0 {
		fmt.Fprintf(w, "limitations: %s\n", strings.Join(e.Limitations, "; "))
	}
}
