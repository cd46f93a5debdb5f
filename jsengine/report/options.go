package report

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"rea/abi"
)

// Options bounds one analysis. Zero fields take the defaults of
// DefaultOptions; every limit is also capped so that a request cannot ask for
// unbounded work. Field names follow REA's analyze_javascript_application
// limits.
type Options struct {
	MaxTextFiles         int `json:"max_text_files,omitempty"`
	MaxTotalTextBytes    int `json:"max_total_text_bytes,omitempty"`
	MaxTextFileBytes     int `json:"max_text_file_bytes,omitempty"`
	MaxASTNodes          int `json:"max_ast_nodes,omitempty"`
	MaxFindings          int `json:"max_findings,omitempty"`
	MaxModules           int `json:"max_modules,omitempty"`
	MaxParseMilliseconds int `json:"max_parse_milliseconds,omitempty"`
	// MaxBundleModules bounds the modules recovered from bundles (counted
	// against MaxModules too).
	MaxBundleModules int `json:"max_bundle_modules,omitempty"`
	// FailOnLimit turns every limit hit into a resource_constraint error
	// instead of a result with partial coverage.
	FailOnLimit bool `json:"fail_on_limit,omitempty"`
	// MinimumElectronMajor is the oldest Electron major treated as
	// maintained; older declared versions produce a finding.
	MinimumElectronMajor int `json:"minimum_electron_major,omitempty"`
	// ShippedElectron is the Electron version read from the executable
	// shipped with the application (`rea analyze PACKAGE` finds it next
	// to resources/); when set it is the version the version-aware rules
	// judge by, since it is the runtime that actually loads the code.
	ShippedElectron *ShippedElectron `json:"shipped_electron,omitempty"`
	// FullParse builds a syntax tree for every selected file instead of
	// only for those the lexer-level pass finds able to contribute a fact
	// (jsengine/lexpass.go). The results are the same. Not part of a
	// request: the host sets it from Params.FullParse (REA_JS_PARSE).
	FullParse bool `json:"-"`
	// KeepAnalysed keeps every analysed module's exports until the end
	// instead of retiring those no later analysis can reach
	// (jsengine/retire.go). The results are the same; the analysis sets it
	// itself when an evaluation reaches a module it had retired.
	KeepAnalysed bool `json:"-"`
}

// ShippedElectron names an Electron version and the binary it was read
// from (a path inside the package, for messages).
type ShippedElectron struct {
	Version string `json:"version"`
	Binary  string `json:"binary"`
	// Fuses are the executable's fuse states by name (enabled, disabled,
	// removed), from its first wire; they win over fuses a build
	// configuration declares.
	Fuses map[string]string `json:"fuses,omitempty"`
}

// DefaultOptions returns REA's defaults.
func DefaultOptions() Options {
	return Options{
		MaxTextFiles:         5000,
		MaxTotalTextBytes:    128 << 20,
		MaxTextFileBytes:     8 << 20,
		MaxASTNodes:          2_000_000,
		MaxFindings:          8000,
		MaxModules:           20000,
		MaxParseMilliseconds: 30000,
		MaxBundleModules:     20000,
		MinimumElectronMajor: 33,
	}
}

// LimitCaps are the largest values a request may ask for.
var LimitCaps = Options{
	MaxTextFiles:         100_000,
	MaxTotalTextBytes:    1 << 30,
	MaxTextFileBytes:     256 << 20,
	MaxASTNodes:          50_000_000,
	MaxFindings:          100_000,
	MaxModules:           200_000,
	MaxParseMilliseconds: 600_000,
	MaxBundleModules:     200_000,
	MinimumElectronMajor: 1000,
}

// WithDefaults fills zero fields with the defaults and rejects negative or
// over-cap values with an invalid_request naming the field.
func (o Options) WithDefaults() (Options, error) {
	d := DefaultOptions()
	fields := []struct {
		name     string
		v        *int
		def, cap int
	}{
		{"max_text_files", &o.MaxTextFiles, d.MaxTextFiles, LimitCaps.MaxTextFiles},
		{"max_total_text_bytes", &o.MaxTotalTextBytes, d.MaxTotalTextBytes, LimitCaps.MaxTotalTextBytes},
		{"max_text_file_bytes", &o.MaxTextFileBytes, d.MaxTextFileBytes, LimitCaps.MaxTextFileBytes},
		{"max_ast_nodes", &o.MaxASTNodes, d.MaxASTNodes, LimitCaps.MaxASTNodes},
		{"max_findings", &o.MaxFindings, d.MaxFindings, LimitCaps.MaxFindings},
		{"max_modules", &o.MaxModules, d.MaxModules, LimitCaps.MaxModules},
		{"max_parse_milliseconds", &o.MaxParseMilliseconds, d.MaxParseMilliseconds, LimitCaps.MaxParseMilliseconds},
		{"max_bundle_modules", &o.MaxBundleModules, d.MaxBundleModules, LimitCaps.MaxBundleModules},
		{"minimum_electron_major", &o.MinimumElectronMajor, d.MinimumElectronMajor, LimitCaps.MinimumElectronMajor},
	}
	for _, f := range fields {
		switch {
		case *f.v < 0:
			return o, abi.Errorf(abi.CodeInvalidRequest, "limits.%s is %d; use a positive value or omit it for the default %d", f.name, *f.v, f.def).
				WithDetail("field", "limits."+f.name)
		case *f.v == 0:
			*f.v = f.def
		case *f.v > f.cap:
			return o, abi.Errorf(abi.CodeInvalidRequest, "limits.%s is %d, above the cap %d; lower it", f.name, *f.v, f.cap).
				WithDetail("field", "limits."+f.name).WithDetail("cap", f.cap)
		}
	}
	return o, nil
}

// LimitError is the typed error returned when FailOnLimit is set and a limit
// is reached.
func LimitError(limit string, value int, omitted int) *abi.Error {
	return abi.Errorf(abi.CodeResourceConstraint,
		"the %s limit (%d) was reached and %d item(s) were left out; raise limits.%s or analyse a smaller root", limit, value, omitted, limit).
		WithDetail("limit", limit).WithDetail("value", value).WithDetail("omitted", omitted)
}

func (l LimitHit) String() string {
	return fmt.Sprintf("%s=%d (omitted %d)", l.Limit, l.Value, l.Omitted)
}

// Params is the request of the jsapp module's "analyze" operation.
type Params struct {
	// Root is the application root inside the read-only /in mount
	// (default "/in").
	Root string `json:"root,omitempty"`
	// Limits bounds the analysis; zero fields take the defaults.
	Limits Options `json:"limits"`
	// MemoryLimitBytes, when the host knows the sandbox's memory limit,
	// lets the module collect garbage less often while staying below it
	// (the Go GC is single-threaded in wasm and dominates large runs).
	MemoryLimitBytes int64 `json:"memory_limit_bytes,omitempty"`
	// Shard, for the "analyze-shard" operation, names the part of the
	// application this instance analyses.
	Shard *Shard `json:"shard,omitempty"`
	// Digests maps file paths under Root to the sha256 the host already
	// computed (the inventory hashes every byte natively); the module then
	// does not hash those files again.
	Digests map[string]string `json:"digests,omitempty"`
	// Facts, for the "merge" operation, are the results of every shard's
	// "analyze-shard", in shard order.
	Facts []json.RawMessage `json:"facts,omitempty"`
	// FullParse sets Limits.FullParse (the host's default; REA_JS_PARSE=lexer
	// turns it off).
	FullParse bool `json:"full_parse,omitempty"`
}

// Shard is one of Count parts of an analysis, analysed by one module
// instance; the parts are merged into one Result (see jsengine.Merge).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// MergeResult is the answer of the "merge" operation: the merged Result,
// or, when the shards' facts cannot be merged into exactly what one
// instance would have found (a limit was reached, or shards disagree),
// why the host must analyse the application in one instance instead.
type MergeResult struct {
	Result *Result `json:"result,omitempty"`
	Rerun  string  `json:"rerun,omitempty"`
}

// TextKind says how the analysis reads a file, by its name: "javascript"
// (JS, TS, JSX, ESM/CJS, .vue/.svelte script blocks), "html", or "" for
// files it does not read as text (declaration files included).
func TextKind(p string) string {
	l := strings.ToLower(p)
	switch {
	case strings.HasSuffix(l, ".d.ts") || strings.HasSuffix(l, ".d.mts") || strings.HasSuffix(l, ".d.cts"):
		return ""
	case strings.HasSuffix(l, ".html") || strings.HasSuffix(l, ".htm"):
		return "html"
	}
	switch path.Ext(l) {
	case ".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".vue", ".svelte":
		return "javascript"
	}
	return ""
}
