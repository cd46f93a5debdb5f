package operation

// Analyst notes: names, comments, inline comments and bookmarks an analyst
// records at addresses of a native binary. Each change is an Evidence
// record (rea.analyst-note-mutation/v1: who, what, when, the value it
// replaced) in the session ledger; later native results show the notes at
// the addresses they name in a separate analyst_annotations section, and
// the notes travel in exported bundles. In MCP the tools act on the
// session's open document; the CLI reads and writes an Evidence bundle
// file named with the global --notes flag.

// Notes lists the declared note operations.
func Notes() []Spec {
	return []Spec{SetAddressName(), SetAddressesNames(), SetComment(), SetInlineComment(), SetBookmark(), UnsetBookmark(),
		ListBookmarks(), ReadComment(), ReadInlineComment(), AddressName()}
}

const notesCLI = "BINARY ADDRESS"

func noteAddress(required bool, what string) Param {
	return Param{Name: "address", Type: String, Required: required, Examples: []any{"0x401000"},
		Description: "Virtual address " + what + ", hex (0x401000) or decimal; it must lie in a section or segment of the binary."}
}

// noteSpec is a note operation: MCP over the session's document, the CLI
// over BINARY and the --notes bundle.
func noteSpec(name, title, desc string, effects Effects, params []Param, example map[string]any, cli string, args []Arg, synopsis, short string) Spec {
	sp := Spec{Name: name, Title: title, Family: "native", Description: desc,
		Effects: effects,
		Params:  append(params, documentParam()), Examples: []map[string]any{example},
		CLI: &Command{Name: cli, Args: append([]Arg{{Name: "BINARY"}}, args...), Synopsis: synopsis, Short: short}}
	return sp
}

const noteRecord = " Records a rea.analyst-note-mutation/v1 Evidence record (authority analyst-inference: who, what, when, the prior value and the " +
	"record that set it) in the session ledger; later native results (list_procedures, list_names, analyze_function, procedure_assembly, " +
	"resolve_containing_procedure, the navigation tools) show the note in their analyst_annotations section, never as a name read from the " +
	"binary, and export_evidence_bundle carries it. Reports the note read back and whether it matches."

// SetAddressName names an address.
func SetAddressName() Spec {
	return noteSpec("set_address_name", "Name an address",
		"Give an address of the open document an analyst name (an empty name removes it)."+noteRecord, Effects{MutatesSession: true},
		[]Param{noteAddress(true, "to name"),
			{Name: "name", Type: String, Required: true, MaxLength: 4096,
				Description: "The name (at most 1,024 characters, no control characters or surrounding white space); empty removes the analyst name."}},
		map[string]any{"address": "0x401000", "name": "parse_header"},
		"set-name", []Arg{{Name: "ADDRESS", Param: "address"}, {Name: "NAME", Param: "name"}}, notesCLI+" NAME --notes NOTES.json",
		"Give an address an analyst name, recorded as Evidence in the --notes bundle")
}

// SetAddressesNames names many addresses.
func SetAddressesNames() Spec {
	sp := noteSpec("set_addresses_names", "Name several addresses",
		"Give several addresses analyst names in one call: names maps each address to its name (empty removes it), at most 500. Every "+
			"address and name is checked before anything is written; one mutation record per address."+noteRecord, Effects{MutatesSession: true},
		[]Param{{Name: "names", Type: Map, Required: true, Description: "Address → name, e.g. {\"0x401000\": \"parse_header\"} (at most 500)."}},
		map[string]any{"names": map[string]any{"0x401000": "parse_header", "0x401080": "check_magic"}},
		"set-names", nil, "BINARY --name ADDRESS=NAME… --notes NOTES.json", "Give several addresses analyst names, recorded in the --notes bundle")
	sp.CLIFlags = []Param{{Name: "name", Type: Array, Items: &Param{Type: String}, Description: "ADDRESS=NAME; repeat for each address.",
		Flag: &Flag{Name: "name", Required: true}}}
	return sp
}

// SetComment writes a comment.
func SetComment() Spec {
	return noteSpec("set_comment", "Comment an address",
		"Write the analyst comment at an address of the open document (an empty comment removes it)."+noteRecord, Effects{MutatesSession: true},
		[]Param{noteAddress(true, "to comment"), commentParam()},
		map[string]any{"address": "0x401000", "comment": "checks the header magic"},
		"set-comment", []Arg{{Name: "ADDRESS", Param: "address"}, {Name: "COMMENT", Param: "comment"}}, notesCLI+" COMMENT --notes NOTES.json",
		"Write the analyst comment at an address, recorded in the --notes bundle")
}

// SetInlineComment writes an inline comment.
func SetInlineComment() Spec {
	return noteSpec("set_inline_comment", "Inline-comment an instruction",
		"Write the analyst inline comment (shown beside one instruction) at an address of the open document (an empty comment removes it)."+noteRecord, Effects{MutatesSession: true},
		[]Param{noteAddress(true, "of the instruction"), commentParam()},
		map[string]any{"address": "0x401004", "comment": "magic is 0x7f ELF"},
		"set-inline-comment", []Arg{{Name: "ADDRESS", Param: "address"}, {Name: "COMMENT", Param: "comment"}}, notesCLI+" COMMENT --notes NOTES.json",
		"Write the analyst inline comment at an instruction, recorded in the --notes bundle")
}

func commentParam() Param {
	return Param{Name: "comment", Type: String, Required: true, MaxLength: 65536,
		Description: "The comment (at most 16,384 characters; new lines and tabs allowed, no other control characters); empty removes it."}
}

// SetBookmark creates or replaces a bookmark.
func SetBookmark() Spec {
	return noteSpec("set_bookmark", "Bookmark an address",
		"Create or replace the bookmark at an address of the open document; name labels it (default: the address itself)."+noteRecord, Effects{MutatesSession: true},
		[]Param{noteAddress(true, "to bookmark"),
			{Name: "name", Type: String, MaxLength: 4096, Flag: &Flag{Name: "name"},
				Description: "Bookmark label (at most 1,024 characters; default the address)."}},
		map[string]any{"address": "0x401000", "name": "header parser"},
		"set-bookmark", []Arg{{Name: "ADDRESS", Param: "address"}}, notesCLI+" [--name NAME] --notes NOTES.json",
		"Bookmark an address, recorded in the --notes bundle")
}

// UnsetBookmark removes a bookmark.
func UnsetBookmark() Spec {
	return noteSpec("unset_bookmark", "Remove a bookmark",
		"Remove the bookmark at an address of the open document; an address without one is refused (not_found)."+noteRecord, Effects{MutatesSession: true},
		[]Param{noteAddress(true, "whose bookmark goes")},
		map[string]any{"address": "0x401000"},
		"unset-bookmark", []Arg{{Name: "ADDRESS", Param: "address"}}, notesCLI+" --notes NOTES.json",
		"Remove the bookmark at an address, recorded in the --notes bundle")
}

// ListBookmarks pages the bookmarks.
func ListBookmarks() Spec {
	return noteSpec("list_bookmarks", "List bookmarks",
		"The open document's bookmarks as address/name pairs in address order, each with the Evidence record that set it, who and when; "+
			"conflicts lists notes whose histories disagree (imported from two sessions), which are shown nowhere. Paged by offset/limit "+
			"(default 100, at most 500). Runs no analysis.", Effects{Idempotent: true},
		pageParams("bookmark", 100, 500),
		map[string]any{},
		"bookmarks", nil, "BINARY --notes NOTES.json", "List the bookmarks of the --notes bundle for a binary")
}

func noteRead(name, title, what, cli string) Spec {
	return noteSpec(name, title,
		"Read the analyst "+what+" at an address of the open document (default: the session's cursor), with the Evidence record that wrote it; "+
			"null when there is none. Runs no analysis.", Effects{Idempotent: true},
		[]Param{noteAddress(false, "to read (default the cursor)")},
		map[string]any{"address": "0x401000"},
		cli, []Arg{{Name: "ADDRESS", Param: "address"}}, notesCLI+" --notes NOTES.json", "Read the analyst "+what+" at an address from the --notes bundle")
}

// ReadComment reads the comment.
func ReadComment() Spec { return noteRead("comment", "Read a comment", "comment", "comment") }

// ReadInlineComment reads the inline comment.
func ReadInlineComment() Spec {
	return noteRead("inline_comment", "Read an inline comment", "inline comment", "inline-comment")
}

// AddressName reads the name at an address.
func AddressName() Spec {
	return noteSpec("address_name", "Name at an address",
		"The primary name at an address of the open document (default: the session's cursor): the analyst's name when one was set "+
			"(name_source analyst), else the name read from the binary (name_source binary), else null; both are reported separately "+
			"(analyst_name, binary_name). Returns Evidence.", Effects{MutatesSession: true, Idempotent: true},
		[]Param{noteAddress(false, "to name (default the cursor)")},
		map[string]any{"address": "0x401000"},
		"address-name", []Arg{{Name: "ADDRESS", Param: "address"}}, notesCLI+" [--notes NOTES.json]", "The primary name at an address: the analyst's, else the binary's")
}
