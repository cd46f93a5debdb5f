package app

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/analysis/native/nativewire"
	"rea/host/sandbox"
	"rea/providers"
)

// DiffBinariesRequest is diff_binaries' input: the older build at
// input_path, the newer at other_path.
type DiffBinariesRequest struct {
	NativeRequest
	OtherPath string `json:"other_path,omitempty"`
	// CompareChanged asks for analyze_function dossiers of the first N
	// changed pairs, compared with compare_functions (0: none).
	CompareChanged int `json:"compare_changed,omitempty"`
}

// MaxCompareChanged bounds the changed pairs fed to compare_functions.
const MaxCompareChanged = 20

// DiffBinaries matches every function of two builds in one module run
// (both files mounted read-only) and, on request, compares the first
// changed pairs' dossiers.
func (a *App) DiffBinaries(ctx context.Context, req DiffBinariesRequest, progress func(abi.Progress)) (*NativeResult[nativewire.BinaryDiff], error) {
	if req.CompareChanged < 0 || req.CompareChanged > MaxCompareChanged {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "compare_changed must be between 0 and %d", MaxCompareChanged).WithDetail("field", "compare_changed")
	}
	params, err := queryParams(req.NativeRequest)
	if err != nil {
		return nil, err
	}
	if err := params.Page(nativewire.DefaultLimit, nativewire.MaxLimit); err != nil {
		return nil, err
	}
	if req.OtherPath == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "diff_binaries needs other_path, the second build").WithDetail("field", "other_path")
	}
	if err := providers.ValidateEnvironment(nil); err != nil {
		return nil, err
	}
	reg, err := a.providerRegistry()
	if err != nil {
		return nil, err
	}
	left, err := openNative(req.InputPath)
	if err != nil {
		return nil, err
	}
	defer left.f.Close()
	right, err := openNative(req.OtherPath)
	if err != nil {
		if ae, ok := err.(*abi.Error); ok {
			ae.Details["field"] = "other_path"
		}
		return nil, err
	}
	defer right.f.Close()
	params.Input, params.Other = left.info.Name(), right.info.Name()
	params.MemoryLimitBytes = a.Config.Limits.WithDefaults().MemoryBytes
	res, err := a.Runner.Run(ctx, sandbox.Call{
		Module: NativeModule, Operation: nativewire.OpDiff, Params: params,
		Mounts: []sandbox.Mount{{GuestPath: "/in", FS: &fileFS{name: left.info.Name(), f: left.f, info: left.info}},
			{GuestPath: nativewire.OtherMount, FS: &fileFS{name: right.info.Name(), f: right.f, info: right.info}}},
		Limits: a.Config.Limits, Progress: progress,
		CacheKey: "native-diff:" + left.sha256 + ":" + right.sha256,
	})
	if err != nil {
		return nil, err
	}
	var out nativewire.BinaryDiff
	if err := json.Unmarshal(res.Result, &out); err != nil {
		return nil, abi.Errorf(abi.CodeInternal, "the native module answered diff with an unreadable result: %v", err)
	}
	out.RightSHA256 = right.sha256
	b, rej, err := reg.Select(req.ProviderID, providers.Target{SHA256: left.sha256, Format: out.Left.Format, Architecture: out.Left.Architecture})
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, unbound("diff_binaries", rej)
	}
	if req.CompareChanged > 0 {
		id, err := a.compareChanged(ctx, req, out.Changes.Items)
		if err != nil {
			return nil, err
		}
		out.Comparison = id
	}
	view := b.View()
	recReq := req.NativeRequest
	rec, err := nativeEvidence("diff_binaries", recReq, left, out.Left, &view, res, out)
	if err != nil {
		return nil, err
	}
	return &NativeResult[nativewire.BinaryDiff]{Evidence: rec, Binding: &view, Result: &out}, nil
}

// compareChanged builds both sides' dossiers of the first changed pairs
// and compares them; nil when no pair changed.
func (a *App) compareChanged(ctx context.Context, req DiffBinariesRequest, changes []nativewire.DiffChange) (*string, error) {
	var lr, rr []NativeRequest
	for _, c := range changes {
		if c.Status != nativewire.DiffChanged || len(lr) >= req.CompareChanged {
			continue
		}
		base := NativeRequest{ProviderID: req.ProviderID, Architecture: req.Architecture}
		l, r := base, base
		l.InputPath, l.Procedure = req.InputPath, c.Left.Address.String()
		r.InputPath, r.Procedure = req.OtherPath, c.Right.Address.String()
		lr, rr = append(lr, l), append(rr, r)
	}
	if len(lr) == 0 {
		return nil, nil
	}
	var cmp CompareFunctionsRequest
	for i := range lr {
		l, err := a.AnalyzeFunction(ctx, lr[i], nil)
		if err != nil {
			return nil, err
		}
		r, err := a.AnalyzeFunction(ctx, rr[i], nil)
		if err != nil {
			return nil, err
		}
		cmp.Left, cmp.Right = append(cmp.Left, l.Evidence), append(cmp.Right, r.Evidence)
	}
	res, err := a.CompareFunctions(cmp)
	if err != nil {
		return nil, err
	}
	id := res.Evidence.EvidenceID
	return &id, nil
}
