package index

// The request and result types below are the wire contract of the guidance
// module's `search` and `read` operations. The host imports them to build
// requests and decode results, and MCP/CLI project them to users unchanged.

// Scope values of Match.MatchScope.
const (
	// ScopeSection: every term occurs in the section's own text.
	ScopeSection = "section"
	// ScopeSubsections: the terms occur only spread across subsections.
	ScopeSubsections = "subsections"
)

// NoMatchReason values of SearchResult.NoMatchReason.
const (
	// ReasonGenericOnly: every word of the query is on the generic list.
	ReasonGenericOnly = "generic_only"
	// ReasonNoTerms: the query holds no words at all (only punctuation).
	ReasonNoTerms = "no_terms"
	// ReasonNoSectionHoldsEveryTerm: no section holds every term.
	ReasonNoSectionHoldsEveryTerm = "no_section_holds_every_term"
)

// Reasons of an unavailable locator (abi.CodeUnavailable, details.reason).
const (
	// ReasonStaleLocator: the locator was issued for a different bundle.
	ReasonStaleLocator = "stale_locator"
	// ReasonUnknownSection: the locator names the current bundle but no
	// section of it.
	ReasonUnknownSection = "unknown_section"
)

// LengthUnit names the unit of every length and offset in results.
const LengthUnit = "utf-16-code-units"

// NoMatchNote is repeated in every result because agents read it literally:
// guidance describes how to investigate, not what the running build can do.
const NoMatchNote = "Guidance search covers the packaged documentation only; a no-match result says nothing about analysis capability availability."

// Paging bounds of Search.
const (
	DefaultLimit = 20
	MaxLimit     = 20
	// MaxExcerptUnits bounds Match.Excerpt in UTF-16 code units.
	MaxExcerptUnits = 500
	// MaxSubsections bounds Match.Subsections.
	MaxSubsections = 8
	// MaxHeadingUnits bounds every heading a result repeats (Heading,
	// HeadingPath, subsection headings) so a pathological heading cannot
	// blow up a page of results; a longer one ends in "…". Read's Content
	// always holds the heading whole.
	MaxHeadingUnits = 256
	// MaxQueryBytes and MaxQueryTerms bound a query.
	MaxQueryBytes = 4096
	MaxQueryTerms = 32
)

// SearchParams is the `search` request.
type SearchParams struct {
	// Query is the analyst question; see the package documentation.
	Query string `json:"query"`
	// Offset is the index of the first match to return (default 0).
	Offset *int `json:"offset,omitempty"`
	// Limit is the page size, 1–20 (default 20).
	Limit *int `json:"limit,omitempty"`
	// BundleRoot, when set, is a directory the module reads the bundle from
	// instead of its embedded copy (the host mounts an installed bundle
	// there). The library itself ignores it.
	BundleRoot string `json:"bundle_root,omitempty"`
}

// SearchResult is one page of matches.
type SearchResult struct {
	// BundleDigest is "sha256:" + the hex digest of the indexed bundle.
	BundleDigest string `json:"bundle_digest"`
	Query        string `json:"query"`
	// Terms are the normalised, de-duplicated non-generic query words, in
	// query order; every one must occur for a section to match.
	Terms []string `json:"terms"`
	// IgnoredGenericWords are the normalised query words dropped as generic.
	IgnoredGenericWords []string `json:"ignored_generic_words"`
	GenericWordsVersion int      `json:"generic_words_version"`
	// NoMatchReason says why Matches is empty over the whole result
	// (TotalMatches == 0); empty otherwise.
	NoMatchReason string `json:"no_match_reason,omitempty"`
	Note          string `json:"note"`
	TotalMatches  int    `json:"total_matches"`
	Offset        int    `json:"offset"`
	Limit         int    `json:"limit"`
	// NextOffset is the offset of the next page, or null on the last page.
	NextOffset *int    `json:"next_offset"`
	LengthUnit string  `json:"length_unit"`
	Matches    []Match `json:"matches"`
}

// Match is one section that holds every term.
type Match struct {
	Locator string `json:"locator"`
	// Path is the document's slash-separated path inside the bundle.
	Path string `json:"path"`
	// Heading is the section's heading text ("" for a document preamble),
	// clipped to MaxHeadingUnits.
	Heading string `json:"heading"`
	// HeadingPath lists the headings from the document's top down to this
	// section, inclusive.
	HeadingPath []string `json:"heading_path"`
	// Level is the ATX level 1–6, or 0 for a document preamble section.
	Level      int    `json:"level"`
	MatchScope string `json:"match_scope"`
	// OwnTextTerms are the terms found in the section's own text (all of
	// them for a section match).
	OwnTextTerms []string `json:"own_text_terms"`
	// Subsections (subsections matches only) are up to MaxSubsections
	// descendants chosen greedily whose own text holds the remaining terms.
	Subsections []SubsectionRef `json:"subsections"`
	// OmittedSubsections counts the further descendants the greedy cover
	// needed beyond the listed ones.
	OmittedSubsections int `json:"omitted_subsections"`
	// ContentLength is the size, in UTF-16 code units, of the content Read
	// returns for this locator (the section with all its subsections).
	ContentLength int `json:"content_length"`
	// Excerpt is at most MaxExcerptUnits UTF-16 code units of the section's
	// own text around the first term occurrence; ExcerptStart is its offset
	// in the read content, in UTF-16 code units.
	Excerpt      string `json:"excerpt"`
	ExcerptStart int    `json:"excerpt_start"`
}

// SubsectionRef names one descendant of a subsections match.
type SubsectionRef struct {
	Locator string `json:"locator"`
	Heading string `json:"heading"`
	// Terms are the remaining terms this subsection's own text covered when
	// the greedy cover chose it.
	Terms []string `json:"terms"`
}

// ReadParams is the `read` request.
type ReadParams struct {
	Locator string `json:"locator"`
	// BundleRoot: see SearchParams.BundleRoot.
	BundleRoot string `json:"bundle_root,omitempty"`
}

// ReadResult is one complete section.
type ReadResult struct {
	BundleDigest string   `json:"bundle_digest"`
	Locator      string   `json:"locator"`
	Path         string   `json:"path"`
	Heading      string   `json:"heading"`
	HeadingPath  []string `json:"heading_path"`
	Level        int      `json:"level"`
	// Content is the section as written: its heading line, its body and
	// every subsection, up to the next heading of the same or a higher level.
	Content       string `json:"content"`
	ContentLength int    `json:"content_length"`
	LengthUnit    string `json:"length_unit"`
	// Subsections are the direct children, so a caller can read narrower.
	Subsections []SectionRef `json:"subsections"`
}

// SectionRef names a section with its size.
type SectionRef struct {
	Locator       string `json:"locator"`
	Heading       string `json:"heading"`
	ContentLength int    `json:"content_length"`
}
