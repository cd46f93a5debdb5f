package app

import (
	"context"
	"encoding/json"

	"rea/abi"
	"rea/guidance/index"
	"rea/host/sandbox"
)

// GuidanceModule is the wasm module that indexes and searches the packaged
// guidance bundle.
const GuidanceModule = "guidance"

// SearchGuidance finds sections of the packaged guidance bundle that hold
// every non-generic word of the query. The module answers from the index
// snapshot built with it from the same embedded bundle, so a result never
// comes from another bundle; it needs no target and no provider.
func (a *App) SearchGuidance(ctx context.Context, req index.SearchParams, progress func(abi.Progress)) (*index.SearchResult, error) {
	if req.BundleRoot != "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "bundle_root is not accepted: search reads the packaged guidance bundle only").
			WithDetail("field", "bundle_root")
	}
	var res index.SearchResult
	if err := a.runGuidance(ctx, "search", req, &res, progress); err != nil {
		return nil, err
	}
	return &res, nil
}

// ReadGuidance returns the complete section a search locator names,
// including its subsections. A locator from another bundle, or one naming
// no section, fails as unavailable (details.reason stale_locator or
// unknown_section) and returns no content.
func (a *App) ReadGuidance(ctx context.Context, req index.ReadParams, progress func(abi.Progress)) (*index.ReadResult, error) {
	if req.BundleRoot != "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "bundle_root is not accepted: read serves the packaged guidance bundle only").
			WithDetail("field", "bundle_root")
	}
	if req.Locator == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "locator is required: pass a locator returned by search_guidance (rea guidance --query …)").
			WithDetail("field", "locator")
	}
	var res index.ReadResult
	if err := a.runGuidance(ctx, "read", req, &res, progress); err != nil {
		return nil, err
	}
	return &res, nil
}

func (a *App) runGuidance(ctx context.Context, op string, params, out any, progress func(abi.Progress)) error {
	res, err := a.Runner.Run(ctx, sandbox.Call{
		Module:    GuidanceModule,
		Operation: op,
		Params:    params,
		Limits:    a.Config.Limits,
		Progress:  progress,
		// The bundle is embedded in the module, so the module digest
		// already names the content: repeats come from the result cache.
		CacheKey: "embedded-guidance-bundle",
	})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(res.Result, out); err != nil {
		return abi.Errorf(abi.CodeModuleFailed, "the guidance module answered %s with an unreadable result: %v", op, err)
	}
	return nil
}
