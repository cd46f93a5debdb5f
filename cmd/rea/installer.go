package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"rea/abi"
	"rea/host/app"
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
	found, err := a.LocateInstallerApplication(cmd.Context(), app.ArtifactRequest{InputPath: input})
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
	if c.format == "text" {
		fmt.Fprint(c.stdout, note)
	} else {
		fmt.Fprint(c.stderr, note) // stdout carries only the report
	}
	return js.RunE(js, []string{found.ChosenPath})
}
