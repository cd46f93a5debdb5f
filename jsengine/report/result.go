// Package report holds the request limits and the result shape of the
// JavaScript/Electron analysis. It depends on nothing but the standard
// library and abi, so the host can decode a jsapp result and build
// its limits without linking the parsers (esbuild, goja) that only the
// sandboxed module needs.
package report

// SchemaVersion is the version of Result's JSON shape.
const SchemaVersion = 1

// Result is the JSON-serialisable outcome of Analyze. Every slice is sorted
// so that two runs over the same bytes produce identical JSON.
type Result struct {
	SchemaVersion int            `json:"schema_version"`
	Package       *PackageInfo   `json:"package,omitempty"`
	Entrypoints   []Entrypoint   `json:"entrypoints"`
	HTML          []HTMLDocument `json:"html_documents"`
	Modules       []Module       `json:"modules"`
	ModuleGraph   []GraphEdge    `json:"module_graph"`
	Windows       []Window       `json:"browser_windows"`
	ContextBridge []ExposedAPI   `json:"context_bridge_apis"`
	IPC           []IPCOperation `json:"ipc"`
	Observations  []Observation  `json:"observations"`
	Bundles       []Bundle       `json:"bundles"`
	SourceMaps    []SourceMapRef `json:"source_maps"`
	Findings      []Finding      `json:"findings"`
	Summary       Summary        `json:"summary"`
	Statistics    Statistics     `json:"statistics"`
	Coverage      Coverage       `json:"coverage"`
	OmittedFiles  []OmittedFile  `json:"omitted_files"`
	Limitations   []string       `json:"limitations"`
}

// Location is a position in an original file of the application (before any
// esbuild normalisation). Line and Column are 1-based; Column counts bytes
// for files parsed directly and UTF-16 units for files mapped back through a
// source map.
type Location struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Original is the same position in the source the shipped file was
	// built from, when the application ships a source map for it.
	Original SourcePosition `json:"original,omitzero"`
}

// SourcePosition is a file:line:column in an application's original
// source (as its source map names it; the file may lie outside the root).
type SourcePosition struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// PackageInfo is what package.json declares.
type PackageInfo struct {
	Path               string `json:"path"`
	Name               string `json:"name,omitempty"`
	Version            string `json:"version,omitempty"`
	Main               string `json:"main,omitempty"`
	ResolvedMain       string `json:"resolved_main,omitempty"`
	ElectronVersion    string `json:"electron_version,omitempty"`
	ElectronDependency string `json:"electron_dependency,omitempty"`
}

// Entrypoint is a file through which the application starts a context.
type Entrypoint struct {
	Kind   string `json:"kind"` // electron-main | electron-preload | renderer-html | renderer-script | utility-process | worker | service-worker
	Path   string `json:"path"`
	Source string `json:"source"` // what declared it: package.json, a window, an HTML document, a module
}

// HTMLDocument is an HTML file with its scripts and content security policy.
type HTMLDocument struct {
	Path     string        `json:"path"`
	Scripts  []HTMLScript  `json:"scripts"`
	CSP      *string       `json:"csp"`
	CSPAt    *Location     `json:"csp_location,omitempty"`
	Webviews []HTMLWebview `json:"webviews,omitempty"`
	// Truncated says why the scan stopped early (a page with more
	// elements than one file's budget); empty when it read the whole page.
	Truncated string `json:"truncated,omitempty"`
}

// HTMLScript is one <script> element.
type HTMLScript struct {
	Src      string   `json:"src,omitempty"`
	Resolved string   `json:"resolved,omitempty"`
	Module   bool     `json:"module"`
	Inline   bool     `json:"inline"`
	Remote   bool     `json:"remote"`
	Location Location `json:"location"`
	SHA256   string   `json:"sha256,omitempty"` // inline body digest
}

// HTMLWebview is a <webview> tag and its security-relevant attributes.
type HTMLWebview struct {
	Location        Location `json:"location"`
	AllowPopups     bool     `json:"allowpopups"`
	NodeIntegration bool     `json:"nodeintegration"`
	Src             string   `json:"src,omitempty"`
	// Attributes are the tag's security-relevant attributes (lower-case
	// names) as written.
	Attributes map[string]string `json:"attributes,omitempty"`
}

// Module is one analysed JavaScript/TypeScript file.
type Module struct {
	Path       string   `json:"path"`
	SHA256     string   `json:"sha256"`
	Bytes      int      `json:"bytes"`
	Language   string   `json:"language"`  // javascript | typescript | jsx | tsx
	ParsedBy   string   `json:"parsed_by"` // goja | esbuild+goja | failed
	Roles      []string `json:"roles"`     // electron-main, electron-preload, electron-renderer, …
	ASTNodes   int      `json:"ast_nodes"`
	Imports    []Import `json:"imports"`
	ParseError string   `json:"parse_error,omitempty"`
	SourceMap  string   `json:"source_map,omitempty"` // declared sourceMappingURL (never read)
}

// Import is one dependency expressed in code.
type Import struct {
	Kind          string   `json:"kind"`           // static | dynamic | require | worker | service-worker | utility-process
	Specifier     string   `json:"specifier"`      // literal or rendered expression
	SpecifierKind string   `json:"specifier_kind"` // module-specifier | filesystem-expression | dynamic
	Resolved      string   `json:"resolved,omitempty"`
	External      bool     `json:"external,omitempty"`
	Location      Location `json:"location"`
}

// GraphEdge links two modules (or a module and an external package).
type GraphEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
}

// Value is a statically known option value with how it was established.
type Value struct {
	Value    any       `json:"value"`
	State    string    `json:"state"` // observed | inferred | unknown
	Location *Location `json:"location,omitempty"`
	Via      []Step    `json:"via,omitempty"`
	// Alternatives, on an unknown value, are the values it may take, each
	// with the condition under which it does (a ternary, an env check, a
	// later reassignment); a value reassigned anywhere is never reported
	// as a single observed value.
	Alternatives []Alternative `json:"alternatives,omitempty"`
}

// Alternative is one value an unknown value may take and when.
type Alternative struct {
	Value     any       `json:"value"`
	State     string    `json:"state"` // inferred | unknown
	Condition string    `json:"condition,omitempty"`
	Location  *Location `json:"location,omitempty"`
}

// Step is one link in an evidence chain: how a value travelled from where it
// is written to where it is used.
type Step struct {
	Description string   `json:"description"`
	Location    Location `json:"location"`
}

// Window is one BrowserWindow / BrowserView / WebContentsView creation.
type Window struct {
	ID             string           `json:"id"`
	Kind           string           `json:"kind"`
	Module         string           `json:"module"`
	Location       Location         `json:"location"`
	Coverage       string           `json:"options_coverage"` // complete | partial | none
	WebPreferences map[string]Value `json:"web_preferences"`
	// ExplicitWebPreferences is set when the options name webPreferences.
	ExplicitWebPreferences bool     `json:"explicit_web_preferences"`
	Unknowns               []string `json:"unknowns,omitempty"`
	Preload                *Preload `json:"preload,omitempty"`
	Loads                  []Load   `json:"loads,omitempty"`
	Variable               string   `json:"variable,omitempty"`
	// Class is the BrowserWindow subclass a window is created through;
	// ConstructedAt, on a `new Subclass(…)` window, is the super(…) call
	// whose options it merges with the call's.
	Class         string    `json:"class,omitempty"`
	ConstructedAt *Location `json:"constructed_at,omitempty"`
	// Origin says how a window comes about when it is not a constructor
	// call of the main process: "window-open-handler" for the child
	// windows a setWindowOpenHandler allows with
	// overrideBrowserWindowOptions, "electron-remote" for a window a
	// renderer constructs through @electron/remote.
	Origin string `json:"origin,omitempty"`

	// SourceRef is where the code is, as read_javascript_source takes it.
	SourceRef *SourceRef `json:"source_ref,omitempty"`
}

// Preload is the preload script a window declares, tied to the module.
type Preload struct {
	Expression string   `json:"expression"`
	Path       string   `json:"path,omitempty"`
	Module     string   `json:"module,omitempty"` // analysed module it resolves to
	State      string   `json:"state"`
	Location   Location `json:"location"`
	// Alternatives are the preloads an unknown expression may name (a
	// ternary, an env check), each with its condition.
	Alternatives []PreloadAlternative `json:"alternatives,omitempty"`
}

// PreloadAlternative is one preload a conditional expression may name.
type PreloadAlternative struct {
	Expression string    `json:"expression"`
	Path       string    `json:"path,omitempty"`
	Module     string    `json:"module,omitempty"`
	State      string    `json:"state"`
	Condition  string    `json:"condition,omitempty"`
	Location   *Location `json:"location,omitempty"`
}

// Load is a loadURL/loadFile call on a window.
type Load struct {
	Method   string   `json:"method"`
	Target   string   `json:"target"`
	State    string   `json:"state"`
	Remote   bool     `json:"remote"`
	Resolved string   `json:"resolved,omitempty"`
	Location Location `json:"location"`
	// Condition, on a load whose target is one of several values (a
	// development URL or a packaged file), says when this one is loaded.
	Condition string `json:"condition,omitempty"`
}

// ExposedAPI is one contextBridge.exposeInMainWorld/exposeInIsolatedWorld call.
type ExposedAPI struct {
	Module         string   `json:"module"`
	World          string   `json:"world"` // main | isolated
	Key            string   `json:"key"`
	KeyState       string   `json:"key_state"`
	Members        []string `json:"members"`
	RawIPCRenderer []string `json:"raw_ipc_renderer,omitempty"` // member paths exposing ipcRenderer itself
	Coverage       string   `json:"coverage"`
	Location       Location `json:"location"`

	// SourceRef is where the code is, as read_javascript_source takes it.
	SourceRef *SourceRef `json:"source_ref,omitempty"`
}

// IPCOperation is one IPC send, invoke, listener or handler.
type IPCOperation struct {
	ID           string `json:"id"`
	Module       string `json:"module"`
	Side         string `json:"side"` // renderer | main
	API          string `json:"api"`  // e.g. ipcRenderer.invoke
	Role         string `json:"role"` // transmission | listener | handler
	Channel      string `json:"channel,omitempty"`
	ChannelState string `json:"channel_state"` // literal | constant | inferred | dynamic
	ChannelVia   []Step `json:"channel_via,omitempty"`
	// ChannelCandidates, on a dynamic channel, are the values it is known
	// to take among others (a variable reassigned at run time).
	ChannelCandidates []string `json:"channel_candidates,omitempty"`
	Pairing           string   `json:"pairing,omitempty"` // paired | ambiguous | unpaired | dynamic
	PairedWith        []string `json:"paired_with,omitempty"`
	SenderValidation  *bool    `json:"sender_validation,omitempty"`
	Location          Location `json:"location"`

	// SourceRef is where the code is, as read_javascript_source takes it.
	SourceRef *SourceRef `json:"source_ref,omitempty"`
}

// Observation records other security-relevant API use (shell.openExternal,
// child_process, utilityProcess.fork, native addons, protocol handlers…).
type Observation struct {
	Kind     string   `json:"kind"`
	API      string   `json:"api"`
	Argument string   `json:"argument,omitempty"`
	State    string   `json:"state,omitempty"`
	Members  []string `json:"members,omitempty"`
	Module   string   `json:"module"`
	Location Location `json:"location"`
}

// SourceMapRef is a source map present in the root or declared by a module
// (sourceMappingURL). Source maps are listed, never read: their original
// sources and sourcesContent stay out of the result.
type SourceMapRef struct {
	Path       string   `json:"path"`
	Present    bool     `json:"present"`
	DeclaredBy []string `json:"declared_by"`
}

// Bundle is a file recognised as a bundler output.
type Bundle struct {
	Path      string          `json:"path"`
	Kind      string          `json:"kind"` // webpack | webpack-chunk | esbuild-commonjs
	Modules   []BundledModule `json:"modules"`
	Truncated bool            `json:"truncated,omitempty"`
}

// BundledModule is a module factory recovered from a bundle.
type BundledModule struct {
	Key           string   `json:"key"`
	FactorySHA256 string   `json:"factory_sha256"`
	Fingerprint   string   `json:"fingerprint"`
	Truncated     bool     `json:"fingerprint_truncated,omitempty"`
	Requires      []string `json:"requires,omitempty"`
	Location      Location `json:"location"`
}

// Finding is one security observation.
type Finding struct {
	RuleID      string   `json:"rule_id"`
	Severity    string   `json:"severity"`   // high | medium | low | info
	Confidence  string   `json:"confidence"` // observed | inferred
	Message     string   `json:"message"`
	Location    Location `json:"location"`
	Snippet     string   `json:"snippet,omitempty"`
	Remediation string   `json:"remediation"`
	Evidence    []Step   `json:"evidence,omitempty"`
	// Equivalents are the checks of other catalogues (Electronegativity,
	// Electron's security checklist) this finding corresponds to; the rule
	// table (Rules) lists every rule's.
	Equivalents []Equivalent `json:"equivalents"`
	// Suppressed is set when a comment in the source suppresses the
	// finding; it stays in the result, out of the severity counts.
	Suppressed *Suppression `json:"suppressed,omitempty"`

	// SourceRef is where the code is, as read_javascript_source takes it.
	SourceRef *SourceRef `json:"source_ref,omitempty"`
}

// Summary counts the Electron boundary (REA's names).
type Summary struct {
	BrowserWindows               int            `json:"browser_windows"`
	ExplicitWebPreferences       int            `json:"explicit_web_preferences"`
	PreloadEntrypoints           int            `json:"preload_entrypoints"`
	ContextBridgeAPIs            int            `json:"context_bridge_apis"`
	ExposedAPIMembers            int            `json:"exposed_api_members"`
	IPC                          IPCSummary     `json:"ipc"`
	SenderValidationObservations int            `json:"sender_validation_observations"`
	UtilityProcesses             int            `json:"utility_processes"`
	ResolvedUtilityEntrypoints   int            `json:"resolved_utility_entrypoints"`
	NativeAddonBindings          int            `json:"native_addon_bindings"`
	ResolvedNativeAddonBindings  int            `json:"resolved_native_addon_bindings"`
	FindingsBySeverity           map[string]int `json:"findings_by_severity"`
}

// IPCSummary counts IPC operations.
type IPCSummary struct {
	Operations                           int `json:"operations"`
	LiteralChannels                      int `json:"literal_channels"`
	DynamicChannelOperations             int `json:"dynamic_channel_operations"`
	RendererTransmissions                int `json:"renderer_transmissions"`
	RendererListeners                    int `json:"renderer_listeners"`
	MainHandlers                         int `json:"main_handlers"`
	PairedRendererTransmissions          int `json:"paired_renderer_transmissions"`
	AmbiguousRendererTransmissions       int `json:"ambiguous_renderer_transmissions"`
	UnpairedLiteralRendererTransmissions int `json:"unpaired_literal_renderer_transmissions"`
}

// Statistics describe the work done (REA's names).
type Statistics struct {
	RelevantFiles         int `json:"relevant_files"`
	TextFilesSelected     int `json:"text_files_selected"`
	TextBytesRead         int `json:"text_bytes_read"`
	OmittedTextFiles      int `json:"omitted_text_files"`
	LimitOmittedTextFiles int `json:"limit_omitted_text_files"`
	InvalidUTF8Files      int `json:"invalid_utf8_files"`
	ParsedJavaScriptFiles int `json:"parsed_javascript_files"`
	NormalisedFiles       int `json:"normalised_files"`
	VisitedASTNodes       int `json:"visited_ast_nodes"`
	Findings              int `json:"findings"`
	Modules               int `json:"modules"`
	BundledModules        int `json:"bundled_modules"`
	ParseFailures         int `json:"parse_failures"`
	TruncatedScopes       int `json:"truncated_scopes"`
}

// Coverage says whether the whole application was analysed.
type Coverage struct {
	Status        string     `json:"status"` // complete | partial
	LimitsReached []LimitHit `json:"limits_reached,omitempty"`
}

// LimitHit names a limit that was reached and how much it left out.
type LimitHit struct {
	Limit   string `json:"limit"`
	Value   int    `json:"value"`
	Omitted int    `json:"omitted"`
}

// OmittedFile is a file the analysis left out, with the limit (or
// "invalid-utf8") that caused it. The list is bounded; Statistics counts all.
type OmittedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}
