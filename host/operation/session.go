package operation

// The session's own operations: identity, the active target, and the
// retained Evidence ledger. Only get_evidence_bundle has a CLI command (it
// reads an exported bundle); the others act on state that lives inside an
// MCP connection.

// Session lists the declared session and Evidence-ledger operations.
func Session() []Spec {
	return []Spec{BinarySession(), OpenBinary(), CloseBinary(), GetEvidenceBundle(), ExportEvidenceBundle(), ImportEvidenceBundle()}
}

// BinarySession reports the connection's identity and tool availability.
func BinarySession() Spec {
	return Spec{
		Name:   "binary_session",
		Title:  "Session identity and tool availability",
		Family: "session",
		Description: "Report this connection's identity (package, server, SDK, negotiated protocol, catalog digest), the active target, " +
			"the analysis run, and every tool's availability with reason and remediation. Call it with {} to choose a callable tool. " +
			"Optional expected_* fields compare the live session with what you expect and report mismatches.",
		Effects: Effects{Idempotent: true},
		Params: []Param{
			{Name: "expected_package_version", Type: String, Description: "Version of rea you expect; a mismatch is reported in alignment."},
			{Name: "expected_catalog_digest", Type: String, Description: "Catalog digest you expect (from the generated catalog)."},
			{Name: "expected_server_path", Type: String, Description: "Absolute path of the rea binary you registered."},
		},
		Examples:       []map[string]any{{}},
		OneSidedReason: "session state exists only inside an MCP connection; the CLI reports identity with `rea version`",
	}
}

// OpenBinary makes a file or Apple bundle the active target.
func OpenBinary() Spec {
	return Spec{
		Name:   "open_binary",
		Title:  "Open a target",
		Family: "session",
		Description: "Make a file (native binary, archive, bundle) or an Apple bundle directory (.app, .appex, .framework, .xpc, .systemextension, .bundle, .plugin) " +
			"the active target of this connection. Allocates a fresh analysis run id. Another directory is not opened; the result names the analysis that applies " +
			"(for an Electron/JavaScript app: analyze_javascript_application with input_path). Retained Evidence is kept.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			{Name: "input_path", Type: String, Required: true, Description: "Path of the file or bundle directory to open."},
			{Name: "provider_id", Type: String, Description: "Deep provider for a native binary: a concrete id (native-lite, ghidra, hopper) or auto " +
				"(default: REA_ANALYSIS_PROVIDER, then auto); the binding is reported as analysis_provider_binding."},
		},
		Examples:       []map[string]any{{"input_path": "/Applications/Example.app"}},
		OneSidedReason: "CLI commands take their target as an argument and need no open step",
	}
}

// CloseBinary closes the target and clears the ledger.
func CloseBinary() Spec {
	return Spec{
		Name:   "close_binary",
		Title:  "Close the target and clear the session",
		Family: "session",
		Description: "Close the active target (if any), clear this connection's retained Evidence ledger, and report cleanup. " +
			"Export a bundle first (export_evidence_bundle) if you need the records later.",
		Effects:        Effects{MutatesSession: true, MayDiscardData: true, Idempotent: true},
		Examples:       []map[string]any{{}},
		OneSidedReason: "CLI invocations hold no session to close",
	}
}

// evidenceFilters are the exact-match filters of an Evidence summary; the
// CLI takes each as a flag of the same name.
func evidenceFilters() Param {
	f := func(name, description string) Param {
		return Param{Name: name, Type: String, Description: description, Flag: &Flag{Name: dashed(name)}}
	}
	return Param{Name: "filters", Type: Object, Description: "Exact-match filters; valid only with detail: \"summary\".", Fields: []Param{
		f("evidence_id", "Exact Evidence ID (ev_…)."),
		f("operation", "Exact operation, e.g. inspect_artifact."),
		f("target_sha256", "Exact subject sha256 (lowercase hex)."),
		f("analysis_profile_digest", "Exact analysis-profile digest."),
		f("procedure_address", "Procedure address, e.g. 0x401000."),
	}}
}

// GetEvidenceBundle projects the retained Evidence: the MCP tool reads the
// session's ledger, the CLI an exported bundle file.
func GetEvidenceBundle() Spec {
	return Spec{
		Name:   "get_evidence_bundle",
		Title:  "Get retained Evidence",
		Family: "session",
		Description: "Return this connection's retained Evidence. Omit detail for the complete canonical bundle (may exceed the response budget: " +
			"prefer export_evidence_bundle for big sessions). detail: \"summary\" returns every matching record's ID, operation, artifact/provider " +
			"identity and analysis-profile digest without payloads; filters narrow it by exact values.",
		Effects: Effects{Idempotent: true},
		Params: []Param{
			// complete is the absence of detail in the service's query.
			{Name: "detail", Type: String, Enum: []string{"complete", "summary"}, Description: "complete (default) or summary.",
				Flag: &Flag{Name: "detail"}},
			evidenceFilters(),
		},
		Examples: []map[string]any{{"detail": "summary", "filters": map[string]any{"operation": "inspect_artifact"}}},
		CLI: &Command{Name: "inspect-evidence-bundle", Args: []Arg{{Name: "BUNDLE.json"}}, Synopsis: "BUNDLE.json [--detail summary] [--operation OP …]",
			Short: "Validate an exported Evidence bundle and print it, or a filtered summary of its records"},
	}
}

// ExportEvidenceBundle writes the ledger to a file.
func ExportEvidenceBundle() Spec {
	return Spec{
		Name:   "export_evidence_bundle",
		Title:  "Export retained Evidence to a file",
		Family: "session",
		Description: "Stream this connection's complete Evidence bundle as canonical JSON to a staging file beside output_path and publish it atomically. " +
			"An existing file is replaced only with overwrite: true. Cancelling removes the staging file and leaves the destination unchanged.",
		Effects: Effects{WritesFilesystem: true, MayDiscardData: true},
		Params: []Param{
			{Name: "output_path", Type: String, Required: true, Description: "Destination file path."},
			{Name: "overwrite", Type: Boolean, Default: false, Description: "Replace an existing destination (default false)."},
		},
		Examples:       []map[string]any{{"output_path": "/tmp/rea-evidence.json"}},
		OneSidedReason: "the CLI holds no session ledger to export; CLI commands print their Evidence directly",
	}
}

// ImportEvidenceBundle merges an exported bundle into the ledger.
func ImportEvidenceBundle() Spec {
	return Spec{
		Name:   "import_evidence_bundle",
		Title:  "Import an Evidence bundle",
		Family: "session",
		Description: "Read an exported Evidence bundle, validate every record ID and the manifest, and merge it into this connection's ledger atomically " +
			"(all or nothing). Imported records can then be passed as retained references.",
		Effects:        Effects{MutatesSession: true, Idempotent: true},
		Params:         []Param{{Name: "input_path", Type: String, Required: true, Description: "Path of a bundle written by export_evidence_bundle."}},
		Examples:       []map[string]any{{"input_path": "/tmp/rea-evidence.json"}},
		OneSidedReason: "the CLI reads bundles with inspect-evidence-bundle; there is no CLI session to merge into",
	}
}
