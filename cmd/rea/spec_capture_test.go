package main

import (
	"maps"
	"os/exec"
	"testing"

	"rea/host/capture"
)

// captureServiceDefaults fill a scenario the way a capture run validates it
// (capture.Filled runs the same validation Run does) and return it in the
// MCP input's shape; the executable is a real one, as a run needs.
func captureServiceDefaults(t *testing.T) map[string]func(map[string]any) (map[string]any, error) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("capture_process_scenario's defaults need a shell to name as the executable: %v (apt-get install dash)", err)
	}
	return map[string]func(map[string]any) (map[string]any, error){
		"capture_process_scenario": func(p map[string]any) (map[string]any, error) {
			in := map[string]any{"executable": sh}
			maps.Copy(in, p)
			var s capture.Scenario
			if err := remarshal(in, &s); err != nil {
				return nil, err
			}
			filled, err := capture.Filled(s)
			if err != nil {
				return nil, err
			}
			return asMap(filled)
		},
	}
}
