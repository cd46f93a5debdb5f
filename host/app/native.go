package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/evidence"
	"rea/host/regularfile"
	"rea/host/sandbox"
	"rea/providers"
)

// NativeModule is the wasm module behind every native service.
const NativeModule = "native"

// LayoutProviderID names the provider of inspect_binary_layout, which
// needs no deep provider binding.
const LayoutProviderID = "rea-native-layout"

// NativeRequest is the input of every native service; each reads the
// fields its tool takes (one parameter name per concept, as in MCP).
type NativeRequest struct {
	// InputPath is the binary on the local file system.
	InputPath string `json:"input_path"`
	// ProviderID is a concrete provider or "auto"; empty defers to
	// REA_ANALYSIS_PROVIDER, then auto.
	ProviderID string `json:"provider_id,omitempty"`
	// Architecture picks a slice of a universal Mach-O.
	Architecture  string `json:"architecture,omitempty"`
	Procedure     string `json:"procedure,omitempty"`
	Address       string `json:"address,omitempty"`
	Length        int    `json:"length,omitempty"`
	Pattern       string `json:"pattern,omitempty"`
	Mode          string `json:"mode,omitempty"`
	CaseSensitive bool   `json:"case_sensitive,omitempty"`
	Offset        int    `json:"offset,omitempty"`
	Limit         int    `json:"limit,omitempty"`
	// Assembly pages analyze_function's assembly: {offset, limit}.
	Assembly PageRequest `json:"assembly,omitzero"`
	// Direction (in/out) and MaxInstructions shape procedure_references.
	Direction       string `json:"direction,omitempty"`
	MaxInstructions int    `json:"max_instructions,omitempty"`
	// The depth tools' fields (native_depth.go).
	DepthFields
	// Notes are the analyst notes to show beside the result (an MCP
	// session's ledger); never part of the recorded request.
	Notes NotesSource `json:"-"`
}

// NativeResult is one native tool's Evidence record, the typed result it
// holds and the provider binding that produced it (nil for layout).
type NativeResult[T any] struct {
	Evidence evidence.Record        `json:"evidence"`
	Binding  *providers.BindingView `json:"binding,omitempty"`
	Result   *T                     `json:"-"`
}

// NativeProvenance is added to every normalized result so a run can be
// reproduced: the module, its digest, its limits and the fuel it used.
type NativeProvenance struct {
	Module        string       `json:"module"`
	ModuleSHA256  string       `json:"module_sha256"`
	ABIVersion    int          `json:"abi_version"`
	SandboxLimits LimitsReport `json:"sandbox_limits"`
	// FuelUsed is deterministic for a given module and input; wall time
	// is not, so it stays out of the record (identical runs share an id).
	FuelUsed uint64 `json:"fuel_used"`
}

// ProvidersReport is `rea providers` / analysis_provider_candidates.
type ProvidersReport struct {
	Candidates []providers.Candidate `json:"analysis_provider_candidates"`
	// Selection is what a target-free request would bind now.
	Selection  *providers.BindingView `json:"selection"`
	Rejections []providers.Rejection  `json:"rejections"`
}

// providerRegistry discovers providers; native-lite's concrete version is
// the digest of the native module this rea would run.
func (a *App) providerRegistry() (*providers.Registry, error) {
	cfg := providers.Config{}
	if m, err := a.Runner.Catalog().Get(NativeModule); err == nil {
		cfg.NativeLiteVersion = "sha256:" + m.SHA256
	}
	return providers.Discover(cfg)
}

// Providers lists the deep provider candidates and what auto (or the
// given selector) binds, without opening a target or starting anything.
func (a *App) Providers(selector string) (*ProvidersReport, error) {
	reg, err := a.providerRegistry()
	if err != nil {
		return nil, err
	}
	rep := &ProvidersReport{Candidates: reg.Candidates(), Rejections: []providers.Rejection{}}
	b, rej, err := reg.Select(selector, providers.Target{})
	if err != nil {
		return nil, err
	}
	if rej != nil {
		rep.Rejections = rej
	}
	if b != nil {
		v := b.View()
		rep.Selection = &v
	}
	return rep, nil
}

// nativeInput is the opened, hashed binary.
type nativeInput struct {
	abs    string
	f      *os.File
	info   os.FileInfo
	sha256 string
}

func openNative(p string) (*nativeInput, error) {
	if p == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "name the binary to analyse").WithDetail("field", "input_path")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot resolve %q: %v", p, err).WithDetail("field", "input_path")
	}
	f, err := regularfile.Open(abs)
	if errors.Is(err, regularfile.ErrNotRegular) {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%v; native tools read one binary (use inspect-artifact for containers)", err).
			WithDetail("field", "input_path")
	}
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "cannot open %s: %v", abs, err).WithDetail("field", "input_path")
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s is not a regular file; native tools read one binary (use inspect-artifact for containers)", abs).
			WithDetail("field", "input_path")
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, info.Size())); err != nil {
		f.Close()
		return nil, abi.Errorf(abi.CodeArtifactOperationFailed, "reading %s: %v", abs, err)
	}
	return &nativeInput{abs: abs, f: f, info: info, sha256: hex.EncodeToString(h.Sum(nil))}, nil
}

// runNative runs one module operation over the input in one instance and
// decodes its result into out.
//
// An overview in several instances side by side was measured and is not
// done: cutting the sweep into parts (1.72 s against 1.20 s in one
// instance, load ~4) and counting strings in a second instance (0.81 s
// against 0.75 s, load ~2.5) both lost on the shared 2-core machine, where
// no core is idle and the extra instances only add work.
func (a *App) runNative(ctx context.Context, in *nativeInput, op string, params nativewire.Params, out any, progress func(abi.Progress)) (*sandbox.Outcome, error) {
	params.Input = in.info.Name()
	params.MemoryLimitBytes = a.Config.Limits.WithDefaults().MemoryBytes
	res, err := a.Runner.Run(ctx, sandbox.Call{
		Module: NativeModule, Operation: op, Params: params,
		Mounts:   []sandbox.Mount{{GuestPath: "/in", FS: &fileFS{name: in.info.Name(), f: in.f, info: in.info}}},
		Limits:   a.Config.Limits,
		Progress: progress,
		// The module sees exactly this file, whose digest names the
		// content: a repeated query is served from the result cache.
		CacheKey: "native-file:" + in.sha256,
	})
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(res.Result, out); err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "the native module answered %s with an unreadable result: %v", op, err)
	}
	return res, nil
}

// PageRequest is one collection's page of a tool that pages several at
// once (one name per concept: offset/limit inside the collection's name).
type PageRequest struct {
	Offset int `json:"offset,omitempty"`
	Limit  int `json:"limit,omitempty"`
}

func queryParams(req NativeRequest) (nativewire.Params, error) {
	p := nativewire.Params{Architecture: req.Architecture, Procedure: req.Procedure, Length: req.Length, Pattern: req.Pattern, Mode: req.Mode,
		CaseSensitive: req.CaseSensitive, Offset: req.Offset, Limit: req.Limit, AssemblyOffset: req.Assembly.Offset, AssemblyLimit: req.Assembly.Limit,
		Direction: req.Direction, MaxInstructions: req.MaxInstructions}
	depthParams(req, &p)
	if req.Address != "" {
		addr, err := nativewire.ParseAddr(req.Address)
		if err != nil {
			return p, abi.Errorf(abi.CodeInvalidRequest, "%v", err).WithDetail("field", "address")
		}
		p.Address = &addr
	}
	return p, nil
}

// nativeTool runs a deep-provider tool: select the provider (fail fast
// on an unknown or unavailable one), run the module, check the binding
// supports the target it found, and seal the Evidence record.
func nativeTool[T any](a *App, ctx context.Context, tool, op string, req NativeRequest, target func(*T) nativewire.Target, progress func(abi.Progress)) (*NativeResult[T], error) {
	if err := providers.ValidateEnvironment(nil); err != nil {
		return nil, err
	}
	reg, err := a.providerRegistry()
	if err != nil {
		return nil, err
	}
	if b, rej, err := reg.Select(req.ProviderID, providers.Target{}); err != nil {
		return nil, err
	} else if b == nil {
		return nil, unbound(tool, rej)
	}
	params, err := queryParams(req)
	if err != nil {
		return nil, err
	}
	in, err := openNative(req.InputPath)
	if err != nil {
		return nil, err
	}
	defer in.f.Close()
	// A procedure named by its analyst name is the address the analyst
	// named (the recorded request keeps the name).
	if src := a.notesFor(req.Notes); src != nil && params.Procedure != "" {
		if _, err := nativewire.ParseAddr(params.Procedure); err != nil {
			if addr, ok := src(in.sha256).Named(params.Procedure); ok {
				params.Procedure = addr.String()
			}
		}
	}
	var out T
	res, err := a.runNative(ctx, in, op, params, &out, progress)
	if err != nil {
		return nil, err
	}
	t := target(&out)
	b, rej, err := reg.Select(req.ProviderID, providers.Target{SHA256: in.sha256, Format: t.Format, Architecture: t.Architecture})
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, unbound(tool, rej)
	}
	view := b.View()
	req.Notes = a.notesFor(req.Notes)
	rec, err := nativeEvidence(tool, req, in, t, &view, res, out)
	if err != nil {
		return nil, err
	}
	return &NativeResult[T]{Evidence: rec, Binding: &view, Result: &out}, nil
}

func unbound(tool string, rej []providers.Rejection) error {
	return abi.Errorf(abi.CodeCapabilityUnavailable, "%s needs a deep analysis provider and none can analyse this target; see `rea providers`", tool).
		WithDetail("reason", "provider_unbound").WithDetail("rejections", rej).
		WithDetail("remediation", "use --provider native-lite (or unset REA_ANALYSIS_PROVIDER) for ELF, PE or Mach-O on x86, x86_64 or arm64")
}

// evidenceArch keeps the architectures Evidence subjects allow.
func evidenceArch(a string) string {
	switch a {
	case "x86", "x86_64", "arm", "arm64":
		return a
	}
	return ""
}

func nativeEvidence(tool string, req NativeRequest, in *nativeInput, t nativewire.Target, b *providers.BindingView, res *sandbox.Outcome, result any) (evidence.Record, error) {
	prov := NativeProvenance{Module: res.Module.Name, ModuleSHA256: res.Module.SHA256, ABIVersion: res.Module.ABIVersion,
		SandboxLimits: ReportLimits(res.Limits), FuelUsed: res.Usage.FuelUsed}
	raw, err := json.Marshal(result)
	if err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInternal, "encoding the %s result: %v", tool, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var normalized map[string]any
	if err := dec.Decode(&normalized); err != nil {
		return evidence.Record{}, abi.Errorf(abi.CodeInternal, "re-reading the %s result: %v", tool, err)
	}
	links, noteLims := annotate(req.Notes, in.sha256, normalized)
	normalized["provenance"] = prov
	params := req
	params.InputPath = "" // paths never enter identity; the subject digest does
	version := res.Module.SHA256
	provider := evidence.Provider{ID: LayoutProviderID, Name: "rea native layout", Version: &version}
	var profile *evidence.AnalysisProfile
	if b != nil {
		v := b.Version
		provider = evidence.Provider{ID: b.Provider, Name: b.Name, Version: &v}
		ap, err := evidence.NewAnalysisProfile(provider, b.AnalysisProfile.ProviderProfileSchemaVersion, b.AnalysisProfile.Parameters)
		if err != nil {
			return evidence.Record{}, err
		}
		profile = &ap
	}
	var locs []evidence.Location
	if req.Address != "" {
		if a, err := nativewire.ParseAddr(req.Address); err == nil {
			locs = append(locs, evidence.AddressLocation(a.String()))
		}
	}
	var lims []string
	if l, ok := normalized["limitations"].([]any); ok {
		for _, s := range l {
			if str, ok := s.(string); ok {
				lims = append(lims, str)
			}
		}
	}
	lims = append(lims, noteLims...)
	return evidence.New(evidence.Draft{
		EvidenceLinks: links,
		Subject: &evidence.Subject{Name: in.info.Name(), Digest: evidence.Digest{SHA256: in.sha256}, Format: t.Format,
			Architecture: evidenceArch(t.Architecture), LocalPath: in.abs},
		Provider:         provider,
		AnalysisProfile:  profile,
		Operation:        tool,
		Parameters:       params,
		NormalizedResult: normalized,
		Limitations:      lims,
		Locations:        locs,
	})
}
