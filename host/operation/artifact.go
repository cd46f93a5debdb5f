package operation

// The artifact operations: inventory and extraction of containers, and the
// import of a reference source tree through the same scan.

// Artifact lists the artifact operations.
func Artifact() []Spec {
	return []Spec{InspectArtifact(), ExtractArtifact(), ImportReferenceSource()}
}

// InventoryLimits bound what a container may declare; the artifact
// operations and analyze_javascript_application share them. Only negative
// values are refused by the service; the maxima are the MCP schema's.
func InventoryLimits() []Param {
	l := func(name, description string, def int, max int64, flag bool) Param {
		p := Param{Name: name, Type: Integer, Description: description, Min: 1, Max: max, Default: def}
		if flag {
			p.Flag = &Flag{Name: dashed(name)}
		}
		return p
	}
	return []Param{
		l("max_entries", "Entries the container may declare (default 10,000).", 10_000, 1_000_000, true),
		l("max_total_bytes", "Total declared bytes (default 1 GiB).", 1<<30, 1<<50, true),
		l("max_entry_bytes", "Bytes of one entry (default 256 MiB).", 256<<20, 1<<50, true),
		l("max_compression_ratio", "Uncompressed-to-compressed ratio of an entry (default 1,000).", 1_000, 1_000_000, true),
		l("max_depth", "Directory and nesting depth (default 20).", 20, 1_000, true),
		l("max_path_bytes", "Bytes of one logical path (default 4,096).", 4_096, 65_536, true),
		// The CLI has no flag for the ASAR header bound.
		l("max_header_bytes", "Bytes of an ASAR JSON header or a (decoded) 7-Zip header (default 64 MiB).", 64<<20, 1<<32, false),
	}
}

// dashed is a parameter name as a flag name.
func dashed(name string) string {
	b := []byte(name)
	for i, c := range b {
		if c == '_' {
			b[i] = '-'
		}
	}
	return string(b)
}

// artifactInput are the parameters inspect_artifact, extract_artifact and
// import_reference_source share: the input, its format, the integrity
// policy and the inventory limits.
func artifactInput(inputDescription string) []Param {
	return append([]Param{
		{Name: "input_path", Type: String, Required: true, Description: inputDescription},
		{Name: "format", Type: String, Default: "auto", Enum: []string{"auto", "asar", "zip", "tar", "tar.gz", "deb", "rpm", "appimage", "squashfs", "7z", "nsis", "directory"},
			Description: "Container format; auto (default) detects it.", Flag: &Flag{Name: "archive-format"}},
		{Name: "integrity_policy", Type: String, Default: "fail", Enum: []string{"fail", "record-and-continue"},
			Description: "fail (default) stops at the first declared-versus-observed hash mismatch; record-and-continue records it as an integrity contradiction and keeps verified siblings.",
			Flag:        &Flag{Name: "integrity-policy"}},
		// The CLI passes the default itself (and its help shows it).
		{Name: "max_integrity_mismatches", Type: Integer, Min: 1, Max: 100, Default: 10,
			Description: "Contradictions recorded before failing (record-and-continue; default 10).",
			Flag: &Flag{Name: "max-integrity-mismatches", Default: 10,
				Help: "contradictions recorded before failing (record-and-continue; at most 100)"}},
	}, InventoryLimits()...)
}

// InspectArtifact inventories a container as a content-addressed graph.
func InspectArtifact() Spec {
	params := artifactInput("Local ASAR, zip, tar, tar.gz, .deb, .rpm, AppImage, squashfs, 7z, NSIS setup .exe or .dmg file, or directory, to inventory.")
	// Three collections paged at once, each on its own: an object named
	// after the result's collection holding offset/limit (one name per
	// concept); the CLI flattens them to --node-offset and so on.
	var aliases []Alias
	for _, c := range []string{"node", "occurrence", "edge"} {
		params = append(params, Param{Name: c + "s", Type: Object, Description: "The page of " + c + "s: {offset, limit}.", Fields: []Param{
			{Name: "offset", Type: Integer, Min: 0, Max: 1 << 31, Default: 0, Description: "First " + c + " of the page (default 0).",
				Flag: &Flag{Name: c + "-offset"}},
			// The CLI passes the default itself (and its help shows it).
			{Name: "limit", Type: Integer, Min: 1, Max: 500, Default: 100, Description: "Page size of " + c + "s (default 100, at most 500).",
				Flag: &Flag{Name: c + "-limit", Default: 100, Help: "page size of " + c + "s (at most 500)"}}}})
		aliases = append(aliases, Alias{Old: c + "_offset", New: c + "s.offset"}, Alias{Old: c + "_limit", New: c + "s.limit"})
	}
	return Spec{
		Name:   "inspect_artifact",
		Title:  "Inventory an archive or directory",
		Family: "artifact",
		Description: "Parse a container's structure in the sandbox (ASAR with integrity, zip, tar, tar.gz, .deb, .rpm, AppImage/squashfs, 7z, NSIS installers, .dmg disk images holding HFS+, " +
			"directories with nested ASAR/zip/7z), hash every file natively, verify declared whole-file and 4 MiB block hashes (and 7-Zip's CRC-32s), and return a " +
			"content-addressed graph of nodes, occurrences and edges (each paged on its own: nodes, occurrences, edges {offset, limit}; counts first) as Evidence. Mismatches fail closed unless integrity_policy is " +
			"record-and-continue. 7z: Copy, LZMA, LZMA2, Deflate, BZip2, BCJ, BCJ2 and Delta, solid or not; encrypted archives and other methods " +
			"are capability_unavailable. NSIS: installers whose items are stored or deflate-compressed one by one (SetCompress off, the default " +
			"non-solid zlib; electron-builder's) list items as data/item-N with a stored 7z (app-64.7z) expanded as a nested container; a solid data " +
			"block or LZMA/bzip2 items are capability_unavailable naming the compression.",
		Effects:  Effects{MutatesSession: true, Idempotent: true},
		Params:   params,
		Examples: []map[string]any{{"input_path": "/tmp/app/resources/app.asar"}, {"input_path": "/tmp/app/resources/app.asar", "integrity_policy": "record-and-continue", "occurrences": map[string]any{"limit": 500}}},
		Aliases:  aliases,
		CLI: &Command{Name: "inspect-artifact", Args: []Arg{{Name: "PATH", Param: "input_path"}}, Synopsis: "PATH",
			Short: "Inventory an ASAR, zip, tar(.gz), .deb, .rpm, AppImage, 7z, NSIS setup or directory as a content-addressed graph with verified hashes"},
	}
}

// ExtractArtifact materialises selected files into a fresh directory.
func ExtractArtifact() Spec {
	params := append(artifactInput("Local ASAR, zip, tar, tar.gz, .deb, .rpm, AppImage, squashfs, 7z, NSIS setup .exe or .dmg file, or directory, to inventory."),
		Param{Name: "paths", Type: Array, MaxItems: 500, Items: &Param{Type: String, Description: "Glob."},
			Description: "Globs over logical paths (path.Match syntax); a directory match selects everything under it. Nested entries are named \"<container>!/<path>\".",
			Flag:        &Flag{Name: "path", Help: "glob of logical paths to extract, e.g. 'lib/**/*.js' (repeatable)"}},
		Param{Name: "occurrence_ids", Type: Array, MaxItems: 500, Items: &Param{Type: String, Description: "Occurrence ID (occ_…)."},
			Description: "Occurrence IDs from inspect_artifact.",
			Flag:        &Flag{Name: "occurrence", Help: "occurrence id to extract (repeatable, ≤ 500)"}})
	params = append(params, writtenParams("files")...)
	return Spec{
		Name:   "extract_artifact",
		Title:  "Extract files from an archive",
		Family: "artifact",
		Description: "Materialise selected regular files of an artifact (by path globs or occurrence IDs) into a fresh rea-chosen temporary directory, " +
			"never overwriting and never writing outside it; the directory is reported beside the Evidence. A missing .asar.unpacked companion " +
			"fails as unavailable with its logical path. The complete result is observed Evidence (every file by path, digest and size, every " +
			"directory and skipped entry). By default the answer is its summary: counts (files, bytes, directories, skipped by reason, integrity " +
			"contradictions), output_dir, the first page of files (limit, default 64, and at most 64 KiB) and next_calls: page on with " +
			"inspect_analysis_view (the retained Evidence, view page, collection files, offset = next_offset until it is null). " +
			"detail: \"complete\" returns every file inline instead.",
		Effects:  Effects{MutatesSession: true, WritesFilesystem: true},
		Params:   params,
		Examples: []map[string]any{{"input_path": "/tmp/app/resources/app.asar", "paths": []any{"package.json", "dist/**"}}},
		// MCP clients never choose the directory; the CLI user may.
		CLIFlags: []Param{{Name: "output_dir", Type: String,
			Description: "directory to create and write into (must not exist; default: a fresh temporary directory)", Flag: &Flag{Name: "output"}}},
		CLI: &Command{Name: "extract-artifact", Args: []Arg{{Name: "PATH", Param: "input_path"}}, Synopsis: "PATH",
			Short: "Write selected files of an ASAR, zip, tar(.gz), .deb, .rpm, AppImage, 7z, NSIS setup or directory into a fresh directory"},
	}
}

// ImportReferenceSource inventories a reference source tree.
func ImportReferenceSource() Spec {
	return Spec{
		Name:   "import_reference_source",
		Title:  "Import a reference source tree",
		Family: "application",
		Description: "Inventory a reference source tree (a checkout of the original sources, or an archive of it) for compare_source_to_bundle: " +
			"the tree is read through the same sandboxed scan as inspect_artifact, every file is hashed by rea, and the JavaScript/TypeScript " +
			"files (.js .mjs .cjs .jsx .ts .mts .cts .tsx; declarations left out) are recorded with their source digests as a " +
			"HistoricalSourceGraph/v1 Evidence record. Nothing in the tree is executed.",
		Effects:  Effects{MutatesSession: true, Idempotent: true},
		Params:   artifactInput("Local source directory (or ASAR, zip, tar, tar.gz of it) to import."),
		Examples: []map[string]any{{"input_path": "/src/app-1.4.2"}},
		CLI: &Command{Name: "import-reference-source", Args: []Arg{{Name: "DIR", Param: "input_path"}}, Synopsis: "DIR",
			Short: "Import a reference source tree (its JS/TS files with their digests) for compare-source-to-bundle"},
	}
}
