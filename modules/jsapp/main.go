// Command jsapp is the WebAssembly module that analyses JavaScript/Electron
// applications. It is a thin shell: it decodes the request, opens the
// mounted application root and calls jsengine.Analyze. Analysed code is
// never executed.
package main

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"runtime/debug"
	"strings"

	"rea/jsengine"
	"rea/jsengine/report"
	"rea/modules/abi"
)

// Params is the request of the "analyze" operation (shared with the host
// through package report).
type Params = report.Params

func main() {
	abi.Serve(map[string]abi.Handler{"analyze": analyze})
}

func analyze(raw json.RawMessage, rep *abi.Reporter) (any, error) {
	var p Params
	if err := abi.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	tuneGC(p.MemoryLimitBytes)
	root, err := mountedRoot(p.Root)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(root)
	if err != nil || !info.IsDir() {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "root %q is not a directory inside the /in mount; pass the application directory", p.Root).
			WithDetail("field", "root")
	}
	return jsengine.Analyze(context.Background(), os.DirFS(root), p.Limits, progressTo(rep))
}

// mountedRoot validates that root stays inside /in.
func mountedRoot(root string) (string, error) {
	if root == "" {
		return "/in", nil
	}
	clean := path.Clean(root)
	if clean != root && clean+"/" != root || strings.Contains(root, "\x00") || (clean != "/in" && !strings.HasPrefix(clean, "/in/")) {
		return "", abi.Errorf(abi.CodeInvalidRequest, "root %q must be a clean path under /in", root).WithDetail("field", "root")
	}
	return clean, nil
}

// progressTo forwards progress on phase changes and every 32 items, so a
// large application does not flood the host with lines.
func progressTo(rep *abi.Reporter) func(string, int, int) {
	last := ""
	return func(phase string, done, total int) {
		if phase == last && done%32 != 0 && done != total {
			return
		}
		last = phase
		rep.Report(abi.Progress{Phase: phase, Done: int64(done), Total: int64(total)})
	}
}

// tuneGC trades memory for time when the sandbox's limit is known: collect
// at 4x the live heap, but never let the heap grow past 80 % of the limit.
func tuneGC(limit int64) {
	if limit <= 0 {
		return
	}
	debug.SetMemoryLimit(limit / 10 * 8)
	debug.SetGCPercent(400)
}
