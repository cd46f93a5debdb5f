// Package sourcewire is the vocabulary of the source module: the requests
// and results of reading, searching and unpacking an application's
// JavaScript. The host links this package only; the scanning, printing and
// parsing that produce the results run inside the module.
package sourcewire

// Operations of the source module.
const (
	OpRead    = "read"
	OpSearch  = "search"
	OpUnpack  = "unpack"
	OpExtract = "extract-sources"
)

// Bounds every request is held to (the host applies defaults; the module
// checks them again).
const (
	DefaultPageBytes    = 64 << 10
	MaxPageBytes        = 1 << 20
	DefaultPageLines    = 120
	MaxPageLines        = 5000
	DefaultContextLines = 20
	// MaxFileBytes is the largest file read, searched or unpacked whole.
	DefaultMaxFileBytes = 32 << 20
	MaxMaxFileBytes     = 256 << 20
	// MaxUnitBytes bounds the shipped code pretty-printed for one page.
	MaxUnitBytes       = 48 << 10
	DefaultSearchLimit = 50
	MaxSearchLimit     = 500
	DefaultSnippet     = 160
	MaxSnippet         = 2000
	MaxPatternBytes    = 2000
	// DefaultMaxOutputBytes bounds what unpack and extract write.
	DefaultMaxOutputBytes = 64 << 20
	MaxMaxOutputBytes     = 1 << 30
	DefaultMaxOutputFiles = 20_000
)

// SourceRef names a position in a shipped file of an application, as
// analyze_javascript_application reports it on every fact: the read tool
// takes it as it is.
type SourceRef struct {
	// Path is the file relative to the application root.
	Path string `json:"path"`
	// Line and Column are 1-based; ColumnUnit says what Column counts:
	// "byte" (files parsed as shipped) or "utf16" (files mapped back
	// through esbuild's source map).
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	ColumnUnit string `json:"column_unit,omitempty"`
	// SHA256 is the file's digest when the analysis read it: a read of
	// other bytes is refused.
	SHA256 string `json:"sha256,omitempty"`
}

// Position is a place in a shipped file: 1-based line, and the column
// both in bytes and in UTF-16 code units, and the 0-based byte offset.
type Position struct {
	Line        int `json:"line"`
	Column      int `json:"column"`
	ColumnUTF16 int `json:"column_utf16"`
	Offset      int `json:"offset"`
}

// Original is a position in the source a shipped file was built from.
type Original struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// ModuleRef names a module recovered from a bundle.
type ModuleRef struct {
	Bundle string `json:"bundle"`
	Key    string `json:"key"`
	// NodeID is the module's id in the application graph
	// (bundled:<bundle>#<key>).
	NodeID string    `json:"node_id"`
	Start  *Position `json:"start,omitempty"`
	End    *Position `json:"end,omitempty"`
}

// ReadRequest selects what to read: a source_ref, or a path with a line
// (and column) or a line range, or a bundled module.
type ReadRequest struct {
	Root      string     `json:"root"`
	SourceRef *SourceRef `json:"source_ref,omitempty"`
	Path      string     `json:"path,omitempty"`
	// Module is a bundled module's node id (bundled:<bundle>#<key>) or its
	// key (Path then names the bundle, or every bundle is searched).
	Module string `json:"module,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// ColumnUnit is byte (default) or utf16.
	ColumnUnit string `json:"column_unit,omitempty"`
	StartLine  int    `json:"start_line,omitempty"`
	EndLine    int    `json:"end_line,omitempty"`
	// View is auto (pretty when minified), pretty or shipped.
	View         string `json:"view,omitempty"`
	ContextLines int    `json:"context_lines,omitempty"`
	// Offset (0-based) and Limit page the lines of the view.
	Offset       int  `json:"offset,omitempty"`
	OffsetSet    bool `json:"offset_set,omitempty"`
	Limit        int  `json:"limit,omitempty"`
	MaxBytes     int  `json:"max_bytes,omitempty"`
	MaxFileBytes int  `json:"max_file_bytes,omitempty"`
	// IncludeOriginal adds the original source's lines when a source map
	// carries sourcesContent or the original file is in the input.
	IncludeOriginal bool `json:"include_original,omitempty"`
	// Spans, when the host has them (from OpSpans, cached), are the
	// file's bundled modules: the module around the focus is named
	// without parsing the bundle again.
	Spans *SpansResult `json:"spans,omitempty"`
}

// Line is one line of a page.
type Line struct {
	// Number is the 1-based line of the view.
	Number int    `json:"number"`
	Text   string `json:"text"`
	// Shipped is where the line's code starts in the shipped file (absent
	// for lines the printer made up, such as a closing brace).
	Shipped  *Position `json:"shipped,omitempty"`
	Original *Original `json:"original,omitempty"`
	// Cut is set when the line was longer than the page allows and was
	// cut (on a character boundary).
	Cut bool `json:"cut,omitempty"`
}

// OriginalSource is the original source around the focus, from a source
// map's sourcesContent or the original file in the input.
type OriginalSource struct {
	File  string `json:"file"`
	From  string `json:"from"` // sourcesContent | input
	Lines []Line `json:"lines"`
}

// ReadResult is one page of source.
type ReadResult struct {
	Path   string     `json:"path"`
	SHA256 string     `json:"sha256"`
	Bytes  int        `json:"bytes"`
	Module *ModuleRef `json:"module,omitempty"`
	// View is pretty (printed by esbuild from the shipped code) or
	// shipped; Minified says whether the shipped code looked minified.
	View     string `json:"view"`
	Minified bool   `json:"minified"`
	// Unit is the span of shipped code the view shows (a function body, a
	// bundled module, a line range, or the whole file).
	Unit       Span      `json:"unit"`
	Focus      *Position `json:"focus,omitempty"`
	FocusLine  int       `json:"focus_line,omitempty"`
	TotalLines int       `json:"total_lines"`
	Offset     int       `json:"offset"`
	Limit      int       `json:"limit"`
	NextOffset *int      `json:"next_offset,omitempty"`
	// Truncated is set when max_bytes ended the page before limit lines.
	Truncated      bool            `json:"truncated"`
	Lines          []Line          `json:"lines"`
	OriginalSource *OriginalSource `json:"original_source,omitempty"`
	Limitations    []string        `json:"limitations"`
}

// Span is a byte range of a shipped file and its start and end positions.
type Span struct {
	Kind  string   `json:"kind"` // file | lines | block | module
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// SearchRequest searches the text files and bundled modules of a root.
type SearchRequest struct {
	Root          string `json:"root"`
	Query         string `json:"query"`
	Regex         bool   `json:"regex,omitempty"`
	CaseSensitive bool   `json:"case_sensitive,omitempty"`
	// Paths restricts the search to files under these prefixes or equal
	// to them.
	Paths        []string `json:"paths,omitempty"`
	Offset       int      `json:"offset,omitempty"`
	Limit        int      `json:"limit,omitempty"`
	SnippetBytes int      `json:"snippet_bytes,omitempty"`
	MaxFileBytes int      `json:"max_file_bytes,omitempty"`
	// MaxHits bounds the hits counted (default 10,000).
	MaxHits int `json:"max_hits,omitempty"`
	// Digests are the files' sha256 the host computed (path → hex).
	Digests map[string]string `json:"digests,omitempty"`
}

// Hit is one match.
type Hit struct {
	Path     string     `json:"path"`
	Module   *ModuleRef `json:"module,omitempty"`
	Shipped  Position   `json:"shipped"`
	Original *Original  `json:"original,omitempty"`
	// Length is the match's length in bytes.
	Length    int       `json:"length"`
	Snippet   string    `json:"snippet"`
	SourceRef SourceRef `json:"source_ref"`
}

// SearchResult is one page of hits.
type SearchResult struct {
	Query        string `json:"query"`
	Regex        bool   `json:"regex"`
	FilesScanned int    `json:"files_scanned"`
	BytesScanned int64  `json:"bytes_scanned"`
	// ModulesIndexed counts the bundled modules hits were attributed to.
	ModulesIndexed int   `json:"modules_indexed"`
	TotalHits      int   `json:"total_hits"`
	HitsCapped     bool  `json:"hits_capped"`
	Offset         int   `json:"offset"`
	Limit          int   `json:"limit"`
	NextOffset     *int  `json:"next_offset,omitempty"`
	Hits           []Hit `json:"hits"`
	// Skipped are files not searched, with why (binary, too large).
	Skipped     []SkippedFile `json:"skipped"`
	Coverage    string        `json:"coverage"` // complete | partial
	Limitations []string      `json:"limitations"`
}

// SkippedFile is a file left out and why.
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// UnpackRequest splits one bundle into its modules.
type UnpackRequest struct {
	Root           string `json:"root"`
	Path           string `json:"path"`
	MaxFileBytes   int    `json:"max_file_bytes,omitempty"`
	MaxOutputBytes int    `json:"max_output_bytes,omitempty"`
	MaxOutputFiles int    `json:"max_output_files,omitempty"`
}

// OutputFile is a file the host writes under the output directory.
type OutputFile struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	SHA256  string `json:"sha256"`
	Bytes   int    `json:"bytes"`
}

// UnpackedModule is one module of the manifest.
type UnpackedModule struct {
	Key      string         `json:"key"`
	File     string         `json:"file"`
	Start    Position       `json:"start"`
	End      Position       `json:"end"`
	Requires []UnpackedEdge `json:"requires"`
	External string         `json:"external,omitempty"`
}

// UnpackedEdge is one require of a module and what it was rewritten to.
type UnpackedEdge struct {
	Key string `json:"key"`
	// To is the relative path (or the external package a re-export
	// module stands for) written in place of the bundle's require.
	To string `json:"to"`
}

// UnpackResult is the manifest and the files.
type UnpackResult struct {
	Bundle      string           `json:"bundle"`
	Kind        string           `json:"kind"`
	SHA256      string           `json:"sha256"`
	Modules     []UnpackedModule `json:"modules"`
	Files       []OutputFile     `json:"files"`
	Limitations []string         `json:"limitations"`
}

// ExtractRequest writes the sourcesContent of source maps.
type ExtractRequest struct {
	Root string `json:"root"`
	// Path is a source map, or a file declaring one; empty extracts every
	// map of the root.
	Path           string `json:"path,omitempty"`
	MaxFileBytes   int    `json:"max_file_bytes,omitempty"`
	MaxOutputBytes int    `json:"max_output_bytes,omitempty"`
	MaxOutputFiles int    `json:"max_output_files,omitempty"`
}

// ExtractedSource is one source of a map and where it was written.
type ExtractedSource struct {
	Map    string `json:"map"`
	Source string `json:"source"`
	File   string `json:"file,omitempty"`
	// Rejected says why a source was not written (escaping path,
	// absolute, duplicate, no content, over a limit).
	Rejected string `json:"rejected,omitempty"`
}

// ExtractResult is what was extracted.
type ExtractResult struct {
	Maps        []string          `json:"maps"`
	Sources     []ExtractedSource `json:"sources"`
	Files       []OutputFile      `json:"files"`
	Limitations []string          `json:"limitations"`
}

// OpSpans lists a bundle's modules (the host caches the answer by the
// file's digest and hands it to later reads of that file).
const OpSpans = "spans"

// SpansRequest names one file.
type SpansRequest struct {
	Root         string `json:"root"`
	Path         string `json:"path"`
	MaxFileBytes int    `json:"max_file_bytes,omitempty"`
}

// ModuleSpan is one bundled module's byte range.
type ModuleSpan struct {
	Key   string `json:"key"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// SpansResult is a file's bundle kind and modules (none when it is no
// bundle).
type SpansResult struct {
	Path    string       `json:"path"`
	Kind    string       `json:"kind,omitempty"`
	Modules []ModuleSpan `json:"modules"`
	// ParseError says why a file that looks bundled was not split.
	ParseError string `json:"parse_error,omitempty"`
}
