// Package index builds the guidance search index and answers `search` and
// `read` over it. It is pure: the bundle comes in as an fs.FS, nothing is
// cached across indexes, and the same bundle and request always give the same
// bytes back. The guidance wasm module wraps it; tests feed it adversarial
// bundles built in memory.
//
// # Sections
//
// Every "*.md" file of the bundle is split by ATX headings ("#" … "######");
// a '#' line inside a fenced code block is code, not a heading. Headings form
// a tree: a section contains the following headings of a deeper level. A
// section's own text is its heading line and the body before its first
// subsection; what Read returns is the section with all its subsections, up to
// the next heading of the same or a higher level. YAML front matter at the top
// of a file belongs to no section. Non-blank text between the front matter and
// the first heading forms a level-0 preamble section, named by the document
// path with an empty heading, whose subsections are the file's headings.
//
// # Queries
//
// A query is split into words: each maximal run of Unicode letters, numbers
// and combining marks, normalised with NFKC and full Unicode case folding (and
// split again should normalising introduce a separator). So punctuation,
// underscores, hyphens and dots separate words, and "Preload", "PRELOAD" and
// full-width "ｐｒｅｌｏａｄ" are the same word; "Straße" and "strasse" too.
// Section text is split the same way, and a term occurs in a text when it
// equals one of the text's words (no stemming, no substrings: "log" does not
// occur in "catalog", nor "expose" in "exposes").
//
// Generic words are dropped from the query first. The list is fixed and
// versioned (GenericWordsVersion, currently 1; GenericWords returns it):
// English function words, question and request words ("how", "what",
// "please", "find", "want", "need", …) and "rea", "tool", "tools", "use",
// "used", "uses", "using". A query of generic words only returns no matches,
// with NoMatchReason "generic_only"; a query with no words at all returns
// "no_terms". Every remaining term must occur in a section's own text or in
// the own text of one of its subsections.
//
// # Matches
//
// A match's MatchScope is "section" when its own text holds every term, and
// "subsections" when the terms occur only spread across its subsections with
// no single subsection holding them all. A subsections match lists in
// OwnTextTerms the terms its own text holds, and in Subsections up to 8
// descendants chosen greedily — each step takes the descendant whose own text
// holds the most still-uncovered terms, the earliest in document order on a
// tie — until every remaining term is covered; OmittedSubsections counts the
// further descendants the cover needed. A parent is not listed when one
// subsection (with its own subsections) holds every term, because that
// subsection is already a match — unless the parent's own text also holds them
// all, which makes it a section match.
//
// Order is deterministic: section matches first, then subsections matches;
// within each, sections whose heading holds more of the terms first; then
// bundle order — document path in code-point order, then position in the
// document. A page holds at most 20 matches (Offset, Limit 1–20, NextOffset
// null on the last page).
//
// # Lengths
//
// Every length and offset in results counts UTF-16 code units (LengthUnit), the
// unit MCP clients use for strings. ContentLength is the length of the Content
// that Read returns for the match's locator, so a caller can decide before
// reading a broad parent. An excerpt is at most 500 code units of the
// section's own text around the first term occurrence; it is cut between
// runes, so a surrogate pair is never split. Headings repeated in results
// (heading, heading path, subsection headings) are clipped to 256 code units
// ending in "…"; Read's content always holds them whole.
//
// # Locators
//
// A locator is "g1.<32 hex>.<32 hex>": the first 128 bits of the bundle digest
// and of the section hash. The bundle digest is SHA-256 over every indexed
// file's path and content digest in path order. The section hash is SHA-256
// over the document path, the section's start offset, its own text and its
// subsections' hashes, so it binds the complete section while the locator
// stays 68 characters whatever the heading. Read reports a locator from a
// different bundle as abi.CodeUnavailable with details.reason "stale_locator",
// and one naming no section as "unknown_section"; neither returns content.
//
// # Admission
//
// Before any section text is materialised, Build checks: at most 1 MiB per
// file (read through a limit, whatever the file claims), 4 MiB for the bundle,
// 4,096 sections, and 25,165,824 expanded UTF-16 code units (the sum of the
// lengths Read would return for every section). Files must be regular files of
// valid UTF-8. Any failure returns abi.CodeBundleUnavailable with a
// details.reason and no index at all — never a partial one.
package index
