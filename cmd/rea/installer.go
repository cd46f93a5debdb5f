package main

import (
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
	"rea/jsengine/report"
)

// analyzeInstaller is `rea analyze PACKAGE`: extract the package with the
// artifact service, pick the Electron application inside, say which one
// and which others were seen, and hand it to the application analysis.
func (c *cli) analyzeInstaller(cmd *cobra.Command, input string) error {
	js, _, err := cmd.Root().Find([]string{"analyze-javascript-application"})
	if err != nil || js == nil || js == cmd.Root() || js.RunE == nil {
		return abi.Errorf(abi.CodeCapabilityUnavailable, "%s is a package; this rea has no analyze-javascript-application command to analyse the application inside", input).
			WithDetail("field", "input_path")
	}
	a, err := c.application()
	if err != nil {
		return err
	}
	req, err := installerRequest(cmd, input)
	if err != nil {
		return err
	}
	found, err := a.LocateInstallerApplication(cmd.Context(), req)
	if err != nil {
		return err
	}
	defer os.RemoveAll(found.OutputDir)
	others := "none"
	if len(found.Others) > 0 {
		others = strings.Join(found.Others, ", ")
	}
	note := fmt.Sprintf("package %s: analysing %s (extraction evidence %s); other application roots seen: %s\n",
		input, found.Chosen, found.Extraction.EvidenceID, others)
	note += c.shippedElectronNote(cmd, a, found)
	note += asarIntegrityNote(cmd, a, found)
	if c.format == "text" {
		fmt.Fprint(c.stdout, note)
	} else {
		fmt.Fprint(c.stderr, note) // stdout carries only the report
	}
	return js.RunE(js, []string{found.ChosenPath})
}

// installerRequest is the package's extraction request under the artifact
// flags the user gave analyze (--max-compression-ratio, --max-entries, …,
// --integrity-policy): they bound the package as they bound any container,
// so a package the defaults refuse can be let in the same way.
func installerRequest(cmd *cobra.Command, input string) (app.ArtifactRequest, error) {
	req := app.ArtifactRequest{InputPath: input}
	fl := cmd.Flags()
	var entries, ratio, depth, pathBytes, totalBytes, entryBytes, mismatches int64
	ints := map[string]*int64{
		"max-entries": &entries, "max-compression-ratio": &ratio, "max-depth": &depth, "max-path-bytes": &pathBytes,
		"max-total-bytes": &totalBytes, "max-entry-bytes": &entryBytes, "max-integrity-mismatches": &mismatches,
	}
	for name, dst := range ints {
		f := fl.Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		v, err := strconv.ParseInt(f.Value.String(), 10, 64)
		if err != nil {
			return req, abi.Errorf(abi.CodeInvalidRequest, "--%s %q is not a whole number", name, f.Value.String()).WithDetail("field", strings.ReplaceAll(name, "-", "_"))
		}
		*dst = v
	}
	req.MaxEntries, req.MaxCompressionRatio, req.MaxDepth, req.MaxPathBytes = int(entries), int(ratio), int(depth), int(pathBytes)
	req.MaxTotalBytes, req.MaxEntryBytes, req.MaxIntegrityMismatches = totalBytes, entryBytes, int(mismatches)
	if f := fl.Lookup("integrity-policy"); f != nil && f.Changed {
		req.IntegrityPolicy = f.Value.String()
	}
	return req, nil
}

// shippedElectronNote reads the Electron executable shipped beside the
// chosen root (fuse wire and versions, in the native module's sandbox) and
// hands its Electron version to the application analysis, whose
// version-aware rules then judge by the runtime that actually ships. The
// note says what was found, or why no version is used.
func (c *cli) shippedElectronNote(cmd *cobra.Command, a *app.App, found *app.InstallerApplication) string {
	if found.Binary == "" {
		return "no Electron executable beside it; version-aware rules use the version the application declares\n"
	}
	res, err := a.InspectElectronBinary(cmd.Context(), app.NativeRequest{InputPath: found.BinaryPath}, nil)
	if err != nil {
		return fmt.Sprintf("Electron executable %s could not be read (%v); version-aware rules use the version the application declares\n", found.Binary, err)
	}
	facts := res.Result.ElectronFacts
	fuses := fmt.Sprintf("%d fuse wire(s), %d fuse finding(s)", len(facts.Wires), len(facts.Findings))
	if facts.ElectronVersion == "" {
		return fmt.Sprintf("Electron executable %s: no Electron version string, %s (evidence %s); version-aware rules use the version the application declares\n",
			found.Binary, fuses, res.Evidence.EvidenceID)
	}
	c.shippedElectron = &report.ShippedElectron{Version: facts.ElectronVersion, Binary: found.Binary}
	if len(facts.Wires) > 0 {
		// The executable's wire wins over fuses a build config declares.
		c.shippedElectron.Fuses = map[string]string{}
		for _, f := range facts.Wires[0].Fuses {
			c.shippedElectron.Fuses[f.Name] = f.State
		}
	}
	return fmt.Sprintf("Electron executable %s: Electron %s, %s (evidence %s); version-aware rules judge by Electron %s\n",
		found.Binary, facts.ElectronVersion, fuses, res.Evidence.EvidenceID, facts.ElectronVersion)
}

// asarIntegrityNote checks, for a macOS bundle, the ElectronAsarIntegrity
// its Info.plist declares against the archives' header hashes.
func asarIntegrityNote(cmd *cobra.Command, a *app.App, found *app.InstallerApplication) string {
	i := strings.LastIndex(found.Chosen, "/Contents/Resources/")
	if i < 0 || !strings.HasSuffix(found.Chosen, ".asar") {
		return ""
	}
	contents := found.Chosen[:i+len("/Contents")]
	res, err := a.CheckASARIntegrity(cmd.Context(), found.ExtractDir, contents)
	if err != nil {
		return fmt.Sprintf("ASAR integrity of %s could not be checked: %v\n", contents, err)
	}
	var b strings.Builder
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "ASAR integrity (%s): %s\n", path.Join(contents, "Info.plist"), n)
	}
	for _, c := range res.Checks {
		fmt.Fprintf(&b, "ASAR integrity (%s): %s declared %s %s, header hashes to %s: %s", path.Join(contents, "Info.plist"), c.Archive, c.Algorithm, c.Declared, orNothing(c.Observed), c.Status)
		if c.Detail != "" {
			fmt.Fprintf(&b, " (%s)", c.Detail)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}
