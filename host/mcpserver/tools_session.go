package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rea/abi"
	"rea/host/operation"
	"rea/host/regularfile"
	"rea/providers"
)

func (s *Server) sessionTools() []*Tool {
	return []*Tool{
		{
			Spec: spec(operation.BinarySession()),
			Output: result("Session report.", map[string]Schema{
				"server_identity": typed("object"), "open": typed("boolean"), "target": typed("object", "null"),
				"analysis_provider_candidates": typed("array"),
				"analysis_run":                 typed("object"), "evidence": typed("object"), "tool_availability": typed("array"),
				"client_features": typed("object"), "analysis_provider_binding": typed("object", "null"),
			}),
			Run: s.runBinarySession,
		},
		{
			Spec: spec(operation.OpenBinary()),
			Output: withID(Schema{"type": "object", "description": "Opened target (opened, target, run_id) or, for a plain directory, the analysis actions that apply (opened, reason, available_actions).",
				"properties": map[string]Schema{"opened": typed("boolean"), "target": typed("object"), "run_id": typed("string"),
					"reason": typed("string"), "available_actions": typed("array")}, "required": []string{"opened"}}),
			Run: s.runOpenBinary,
		},
		{
			Spec: spec(operation.CloseBinary()),
			Output: result("Close report.", map[string]Schema{
				"closed": typed("boolean"), "cleared_evidence_records": typed("integer"), "drained_calls": typed("integer"), "cleanup": typed("object"),
			}),
			Run: s.runCloseBinary,
		},
	}
}

func (s *Server) runBinarySession(_ context.Context, c *Call) (any, error) {
	var in struct {
		ExpectedPackageVersion string `json:"expected_package_version"`
		ExpectedCatalogDigest  string `json:"expected_catalog_digest"`
		ExpectedServerPath     string `json:"expected_server_path"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	exe, _ := os.Executable()
	var reasons []string
	if in.ExpectedPackageVersion != "" && in.ExpectedPackageVersion != s.opts.Version {
		reasons = append(reasons, "package version is "+s.opts.Version+", expected "+in.ExpectedPackageVersion)
	}
	if in.ExpectedCatalogDigest != "" && in.ExpectedCatalogDigest != s.catalogDigest() {
		reasons = append(reasons, "catalog digest is "+s.catalogDigest()+", expected "+in.ExpectedCatalogDigest)
	}
	if in.ExpectedServerPath != "" && filepath.Clean(in.ExpectedServerPath) != exe {
		reasons = append(reasons, "server path is "+exe+", expected "+in.ExpectedServerPath)
	}
	alignment := map[string]any{"state": "aligned", "reasons": []string{}, "remediation": nil}
	if len(reasons) > 0 {
		alignment = map[string]any{"state": "stale", "reasons": reasons,
			"remediation": "Re-register rea with `rea setup` or restart the client so it starts the expected binary."}
	}
	protocol := ""
	client := map[string]any{}
	if p := c.Session.conn.InitializeParams(); p != nil {
		protocol = p.ProtocolVersion
		if p.ClientInfo != nil {
			client = map[string]any{"name": p.ClientInfo.Name, "version": p.ClientInfo.Version}
		}
	}
	present := map[string]bool{}
	for _, name := range s.app.Runner.Catalog().Names() {
		present[name] = true
	}
	tools := make([]map[string]any, 0, len(s.tools))
	for _, t := range s.tools {
		entry := map[string]any{
			"name": t.Name, "family": t.Family, "available": true, "reason": nil, "remediation": nil,
			"annotations": annotations(t.Effects, t.Title), "effects": t.Effects,
		}
		for _, m := range t.Modules {
			if !present[m] {
				entry["available"] = false
				entry["reason"] = "module_unavailable: the " + m + " module is not in this build"
				entry["remediation"] = "Run `make` to build and embed the modules, or start rea with --module-dir pointing at built modules."
				break
			}
		}
		tools = append(tools, entry)
	}
	var target any
	if t := c.Session.Target(); t != nil {
		target = t
	}
	run := map[string]any{"run_id": nil, "process_lineage": c.Session.processLineage()}
	if id := c.Session.run(); id != "" {
		run["run_id"] = id
	}
	modules := []map[string]any{}
	for _, m := range s.app.ListModules().Modules {
		modules = append(modules, map[string]any{"name": m.Name, "sha256": m.SHA256, "source": m.Source})
	}
	report := map[string]any{
		"server_identity": map[string]any{
			"package":                     map[string]any{"name": "rea", "version": s.opts.Version, "path": exe},
			"server":                      map[string]any{"name": ServerName, "version": s.opts.Version},
			"sdk":                         map[string]any{"name": "github.com/modelcontextprotocol/go-sdk", "version": sdkVersion()},
			"negotiated_protocol_version": protocol,
			"client":                      client,
			"catalog": map[string]any{"digest": s.catalogDigest(), "tools": len(s.tools), "prompts_digest": s.PromptInventoryDigest(),
				"families": s.opts.Families, "input_schema_profile": s.opts.SchemaProfile},
			"modules":   modules,
			"alignment": alignment,
		},
		"analysis_provider_candidates": s.candidateReport(),
		"open":                         target != nil,
		"target":                       target,
		"analysis_run":                 run,
		"evidence":                     map[string]any{"records": c.Session.Ledger.Len(), "bytes": c.Session.Ledger.Bytes(), "limits": c.Session.Ledger.Limits()},
		"tool_availability":            tools,
	}
	s.addSessionReport(c, report, tools)
	return report, nil
}

// appleBundleSuffixes are the bundle directories open_binary admits.
func appleBundleSuffixes() []string {
	return []string{".app", ".appex", ".framework", ".xpc", ".systemextension", ".bundle", ".plugin"}
}

func (s *Server) runOpenBinary(ctx context.Context, c *Call) (any, error) {
	var in struct {
		InputPath  string `json:"input_path"`
		ProviderID string `json:"provider_id"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if in.ProviderID != "" {
		if _, err := providers.ParseSelector(in.ProviderID, "provider_id"); err != nil {
			return nil, err
		}
	}
	abs, err := filepath.Abs(in.InputPath)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "input_path: %v", err).WithDetail("field", "input_path")
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "input_path %q cannot be opened: %v", in.InputPath, err).WithDetail("field", "input_path")
	}
	if st.IsDir() {
		for _, suf := range appleBundleSuffixes() {
			if strings.HasSuffix(strings.ToLower(abs), suf) {
				runID := c.Session.open(&Target{Path: abs, Kind: "bundle", Format: "directory"})
				return map[string]any{"opened": true, "target": c.Session.Target(), "run_id": runID}, nil
			}
		}
		if kind, refused := refusedAppleBundle(abs); refused {
			return nil, abi.Errorf(abi.CodeCapabilityUnavailable, "%s is an Apple bundle type (%s) rea does not open; open the executable inside it instead", abs, kind).
				WithDetail("field", "input_path").WithDetail("bundle_type", kind).
				WithDetail("admitted_bundle_types", appleBundleSuffixes())
		}
		return map[string]any{
			"opened": false,
			"reason": "a directory that is not an Apple bundle is not a target; analyse it directly",
			"available_actions": []map[string]any{{
				"tool":      "analyze_javascript_application",
				"arguments": map[string]any{"input_path": abs},
				"applies":   "Electron or JavaScript application directory",
			}, {
				"tool":      "inspect_artifact",
				"arguments": map[string]any{"input_path": abs},
				"applies":   "any directory tree: inventory and integrity",
			}},
		}, nil
	}
	f, err := regularfile.Open(abs)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "input_path %q cannot be read: %v", in.InputPath, err).WithDetail("field", "input_path")
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	kind, format := classifyMagic(head[:n], abs)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, &ctxReader{ctx: ctx, r: f}); err != nil {
		return nil, asError(err)
	}
	t := &Target{Path: abs, SHA256: hex.EncodeToString(h.Sum(nil)), Size: st.Size(), Kind: kind, Format: format}
	var native *nativeState
	if kind == "executable" {
		if native, err = s.openNativeTarget(ctx, c, abs, in.ProviderID); err != nil {
			return nil, err
		}
	}
	runID := c.Session.open(t)
	c.Session.setNative(runID, native)
	out := map[string]any{"opened": true, "target": t, "run_id": runID}
	for k, v := range native.openReport() {
		out[k] = v
	}
	return out, nil
}

// classifyMagic names a file's kind and format from its first bytes only;
// structure is parsed later, in the sandbox.
func classifyMagic(b []byte, name string) (kind, format string) {
	has := func(p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }
	switch {
	case has("\x7fELF"):
		return "executable", "elf"
	case has("MZ"):
		return "executable", "pe"
	case has("\xcf\xfa\xed\xfe"), has("\xce\xfa\xed\xfe"), has("\xfe\xed\xfa\xcf"), has("\xfe\xed\xfa\xce"):
		return "executable", "mach-o"
	case has("\xca\xfe\xba\xbe"):
		return "executable", "mach-o-universal"
	case has("PK\x03\x04"):
		return "archive", "zip"
	case has("\x04\x00\x00\x00") && strings.HasSuffix(strings.ToLower(name), ".asar"):
		return "archive", "asar"
	}
	return "artifact", "file"
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, abi.Errorf(abi.CodeCancelled, "cancelled while hashing the target")
	}
	return c.r.Read(p)
}

func (s *Server) runCloseBinary(_ context.Context, c *Call) (any, error) {
	// Drain owned work first: calls in flight are cancelled (modules stop
	// within 100 ms) and awaited, so nothing they finish lands in the
	// cleared ledger.
	drained, remaining := c.Session.drain(c.self, 10*time.Second)
	had, cleared := c.Session.close()
	if remaining > 0 {
		return nil, abi.Errorf(abi.CodeCleanupIncomplete, "%d tool call(s) did not stop within 10 s of cancellation; the session was cleared", remaining).
			WithDetail("remaining_owned_resources", []string{"tool_call"})
	}
	return map[string]any{
		"closed":                   had,
		"cleared_evidence_records": cleared,
		"drained_calls":            drained,
		"cleanup":                  map[string]any{"status": "complete", "remaining_owned_resources": []string{}},
	}, nil
}

// candidateReport lists the deep provider candidates sorted by id, with
// host availability and unknown target support, without starting any.
func (s *Server) candidateReport() []map[string]any {
	cfg := providers.Config{}
	for _, m := range s.app.ListModules().Modules {
		if m.Name == "native" {
			cfg.NativeLiteVersion = "sha256:" + m.SHA256
		}
	}
	out := []map[string]any{}
	reg, err := providers.Discover(cfg)
	if err != nil {
		return out
	}
	for _, c := range reg.Candidates() {
		out = append(out, map[string]any{"provider": c, "availability": c.Availability, "target_support": "unknown"})
	}
	return out
}
