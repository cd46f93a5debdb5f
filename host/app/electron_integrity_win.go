package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"rea/abi"
	"rea/analysis/artifact/inventory"
	"rea/analysis/native/nativewire"
	"rea/host/sandbox"
)

// checkEmbeddedIntegrity compares the ASAR integrity a Windows executable
// embeds (parsed by the native module) with the archives beside it: the
// artifact module hashes each archive's header, with the executable's
// directory mounted read-only. Each entry becomes a check, and a
// mismatch or an entry Electron cannot find a finding.
func (a *App) checkEmbeddedIntegrity(ctx context.Context, exe string, facts *nativewire.ElectronFacts) error {
	integ := facts.AsarIntegrity
	if integ == nil {
		return nil
	}
	if integ.Error != "" {
		facts.Limitations = append(facts.Limitations, "the executable's ASAR integrity resource could not be read: "+integ.Error)
		return nil
	}
	if len(integ.Entries) == 0 {
		return nil
	}
	declared := make([]inventory.DeclaredArchive, len(integ.Entries))
	for i, e := range integ.Entries {
		declared[i] = inventory.DeclaredArchive{Archive: strings.ReplaceAll(e.File, `\`, "/"), Algorithm: "SHA256", Hash: e.Value}
	}
	dir := filepath.Dir(exe)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return abi.Errorf(abi.CodeInvalidRequest, "cannot open %q: %v", dir, err)
	}
	defer root.Close()
	out, err := a.Runner.Run(ctx, sandbox.Call{
		Module:    ArtifactModule,
		Operation: inventory.IntegrityOperation,
		Params:    inventory.IntegrityRequest{Declared: declared},
		Mounts:    []sandbox.Mount{{GuestPath: inventory.DefaultMountPath, FS: sandbox.DirFS(root)}},
		Limits:    a.Config.Limits,
	})
	if err != nil {
		return err
	}
	var res inventory.IntegrityResult
	if err := json.Unmarshal(out.Result, &res); err != nil || len(res.Checks) != len(integ.Entries) {
		return abi.Errorf(abi.CodeModuleFailed, "the artifact module answered with an unreadable integrity check (%v)", err)
	}
	for i, c := range res.Checks {
		e := integ.Entries[i]
		check := nativewire.ASARIntegrityCheck{File: e.File, Archive: c.Archive, Declared: c.Declared, Observed: c.Observed, Status: c.Status, Detail: c.Detail}
		if c.Status == "missing" {
			check.Detail = "the declared archive is not beside the executable; inspect the installed application folder"
		}
		if strings.Contains(e.File, "/") {
			// Electron looks the archive up by its path relative to the
			// executable, Windows-style and lower-cased
			// (resources\app.asar): a path with forward slashes is never
			// found.
			facts.Findings = append(facts.Findings, nativewire.FuseFinding{RuleID: "electron-asar-integrity-unfindable", Severity: "medium", Confidence: "observed",
				Fuse: "EnableEmbeddedAsarIntegrityValidation", State: "unfindable",
				Message:     fmt.Sprintf("the embedded ASAR integrity names %q with forward slashes", e.File),
				Consequence: fmt.Sprintf(`Electron on Windows looks the archive up as %q (backslashes, lower case) and does not find this entry: with EnableEmbeddedAsarIntegrityValidation on, the app exits at start-up ("Failed to find file integrity info"); the hash protects nothing.`, strings.ToLower(strings.ReplaceAll(e.File, "/", `\`))),
				Remediation: "repackage on Windows or with a packager that writes the path with backslashes (the cross-build bug of @electron/packager / electron-builder)",
				Offset:      integ.Offset})
			if check.Status == "match" || check.Status == "mismatch" {
				check.Detail = strings.TrimSpace(check.Detail + " (Electron's lookup cannot find this entry: it uses backslashes)")
			}
		}
		if c.Status == "mismatch" {
			facts.Findings = append(facts.Findings, nativewire.FuseFinding{RuleID: "electron-asar-integrity-mismatch", Severity: "high", Confidence: "observed",
				Fuse: "EnableEmbeddedAsarIntegrityValidation", State: "mismatch",
				Message:     fmt.Sprintf("%s's header does not hash to the integrity the executable embeds (declared %s, observed %s)", c.Archive, c.Declared, c.Observed),
				Consequence: "the archive was changed after the executable was packaged: with EnableEmbeddedAsarIntegrityValidation on, Electron refuses to start; with it off, the modified code runs unchecked under the app's signed executable.",
				Remediation: "treat the installation as tampered, or rebuild so the executable embeds the shipped archive's header hash",
				Offset:      integ.Offset})
		}
		integ.Checks = append(integ.Checks, check)
	}
	return nil
}
