package operation

// The native context operations: the document an MCP session opened with
// open_binary, its cursor and the facts around one address. They read the
// session's target, so they have no CLI command (a CLI invocation opens
// nothing and has no cursor); the CLI's per-address questions are
// `rea resolve`, `rea names` and `rea xrefs`.

// NativeContext lists the declared native context operations.
func NativeContext() []Spec {
	return []Spec{ListDocuments(), CurrentDocument(), CurrentAddress(), CurrentProcedure(), GetNavigationContext(), InspectAddressContext()}
}

const sessionDocumentReason = "documents and the cursor exist only inside an MCP session (open_binary); the CLI takes the binary as an argument: " +
	"`rea resolve`, `rea names` and `rea xrefs` answer per address"

// documentParam names an open document explicitly.
func documentParam() Param {
	return Param{Name: "document", Type: String, Examples: []any{"example"},
		Description: "Document name as list_documents reports it (the open binary's file name); absent, the session's current document."}
}

// ListDocuments lists the documents of the session.
func ListDocuments() Spec {
	return Spec{
		Name:   "list_documents",
		Title:  "List the open documents",
		Family: "native",
		Description: "List the documents this session can analyse: the native binary open_binary opened (name, path, sha256, format, " +
			"architecture, entry) and which one is current. Empty when no native binary is open. Starts no analysis.",
		Effects:        Effects{Idempotent: true},
		Examples:       []map[string]any{{}},
		OneSidedReason: sessionDocumentReason,
	}
}

// CurrentDocument is the session's current document.
func CurrentDocument() Spec {
	return Spec{
		Name:   "current_document",
		Title:  "Current document",
		Family: "native",
		Description: "The session's current document (the native binary open_binary opened) with its identity and provider binding, or " +
			"capability_unavailable when no native binary is open. Starts no analysis.",
		Effects:        Effects{Idempotent: true},
		Examples:       []map[string]any{{}},
		OneSidedReason: sessionDocumentReason,
	}
}

// CurrentAddress is the session's cursor.
func CurrentAddress() Spec {
	return Spec{
		Name:   "current_address",
		Title:  "Current address",
		Family: "native",
		Description: "The cursor of the current (or named) document and its basis: native-lite has no user interface, so the cursor is the " +
			"document's entry point (basis entry-point). Starts no analysis.",
		Effects:        Effects{Idempotent: true},
		Params:         []Param{documentParam()},
		Examples:       []map[string]any{{}, {"document": "example"}},
		OneSidedReason: sessionDocumentReason,
	}
}

// CurrentProcedure resolves the cursor to its procedure.
func CurrentProcedure() Spec {
	return Spec{
		Name:   "current_procedure",
		Title:  "Current procedure",
		Family: "native",
		Description: "The procedure containing the cursor of the current (or named) document, from the bound provider; procedure is null when " +
			"the cursor is in no procedure, with status not-in-procedure or outside-segment. Returns Evidence.",
		Effects:        Effects{MutatesSession: true, Idempotent: true},
		Params:         []Param{documentParam()},
		Examples:       []map[string]any{{}, {"document": "example"}},
		OneSidedReason: sessionDocumentReason,
	}
}

// GetNavigationContext composes document, cursor and procedure.
func GetNavigationContext() Spec {
	return Spec{
		Name:   "get_navigation_context",
		Title:  "Navigation context",
		Family: "native",
		Description: "The selected document, the current address and its containing procedure together (procedure null outside one), with " +
			"the capability inventory: mode current_selection (the session's document and cursor) and mode explicit_document (a document the " +
			"caller names). Use current_document, current_address or current_procedure for one of them. Returns Evidence.",
		Effects:        Effects{MutatesSession: true, Idempotent: true},
		Params:         []Param{documentParam()},
		Examples:       []map[string]any{{}, {"document": "example"}},
		OneSidedReason: sessionDocumentReason,
	}
}

// InspectAddressContext reports the facts at one explicit address.
func InspectAddressContext() Spec {
	return Spec{
		Name:   "inspect_address_context",
		Title:  "Context of an address",
		Family: "native",
		Description: "Name, containing procedure, comment, inline comment and bookmark facets at an explicit address of the current (or named) " +
			"document; a facet the provider does not keep (native-lite keeps no comments or bookmarks) is unavailable with its reason, never empty. " +
			"Returns Evidence.",
		Effects: Effects{MutatesSession: true, Idempotent: true},
		Params: []Param{
			{Name: "address", Type: String, Required: true, Description: "Virtual address, e.g. 0x401000.", Examples: []any{"0x401000"}},
			documentParam(),
		},
		Examples:       []map[string]any{{"address": "0x401000"}, {"address": "0x401000", "document": "example"}},
		OneSidedReason: sessionDocumentReason,
	}
}
