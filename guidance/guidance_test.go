package guidance

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"rea/guidance/index"
)

func TestReferencedToolsAreBareSnakeCaseCodeSpansAndCallExamples(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md": {Data: []byte("# `open_binary`\nCall `inspect_artifact` with `.integrity_policy` set to `\"fail\"`.\n" +
			"Run `rea analyze PATH` with `REA_ANALYSIS_PROVIDER` and `webPreferences.sandbox`.\n" +
			"```sh\n`not_a_tool_in_code`\n```\n" +
			"```json\n{\"method\": \"tools/call\", \"params\": {\"name\": \"extract_artifact\", \"arguments\": {\"occurrence_ids\": [], \"integrity_policy\": \"fail\"}}}\n```\n" +
			"```json\n{\"kind\": \"retained-evidence\", \"evidence_id\": \"ev_x\"}\n```\n")},
		"b.txt": {Data: []byte("`ignored_tool`")},
	}
	got, err := ReferencedToolsIn(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"extract_artifact", "inspect_artifact", "open_binary"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	calls, err := ToolCallsIn(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{{Path: "a.md", Line: 7, Tool: "extract_artifact", Arguments: []string{"integrity_policy", "occurrence_ids"}}}
	if !reflect.DeepEqual(calls, want) {
		t.Fatalf("calls = %+v, want %+v", calls, want)
	}
}

func TestMalformedJSONExampleIsAnError(t *testing.T) {
	fsys := fstest.MapFS{"a.md": {Data: []byte("```json\n{\"method\": \"tools/call\",\n```\n")}}
	if _, err := ToolCallsIn(fsys); err == nil || !strings.Contains(err.Error(), "a.md:1") {
		t.Fatalf("err = %v, want a located parse error", err)
	}
}

func TestShippedBundleNamesToolsNotArgumentsOrValues(t *testing.T) {
	tools := ReferencedTools()
	for _, want := range []string{"analyze_javascript_application", "inspect_artifact", "extract_artifact",
		"inspect_binary_layout", "get_evidence_bundle", "export_evidence_bundle", "trace_application_feature",
		"compare_application_versions", "capture_process_scenario", "search_guidance", "read_guidance_section"} {
		if !slices.Contains(tools, want) {
			t.Errorf("guidance does not name %s", want)
		}
	}
	for _, notTool := range []string{"input_path", "integrity_policy", "evidence_id", "record", "sandbox", "app", "changed_from", "native"} {
		if slices.Contains(tools, notTool) {
			t.Errorf("%q is an argument, field or value but was extracted as a tool", notTool)
		}
	}
	for _, c := range ToolCalls() {
		if !slices.Contains(tools, c.Tool) || len(c.Arguments) == 0 {
			t.Errorf("%s:%d example call %+v", c.Path, c.Line, c)
		}
	}
}

func TestShippedBundleIsAdmittedAndAnswersAnalystQuestions(t *testing.T) {
	ix, err := index.Build(Bundle())
	if err != nil {
		t.Fatalf("the packaged bundle is refused: %v", err)
	}
	for _, tc := range []struct{ query, path, heading string }{
		{"How do I use contextBridge exposeInMainWorld?", "references/electron-applications.md", "contextBridge APIs"},
		{"record-and-continue unpacked", "references/artifacts-and-integrity.md", "Unpacked entries and packaging tools"},
		{"retained-evidence reference missing", "references/evidence-discipline.md", "Passing a retained reference"},
		{"cleanup_incomplete", "references/process-capture.md", "cleanup_incomplete"},
		{"stack canary", "references/native-binaries.md", "Static mitigations"},
	} {
		res, err := ix.Search(index.SearchParams{Query: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) == 0 {
			t.Errorf("%q: no match", tc.query)
			continue
		}
		found := false
		for _, m := range res.Matches[:min(3, len(res.Matches))] {
			found = found || m.Path == tc.path && m.Heading == tc.heading
		}
		if !found {
			t.Errorf("%q: %s / %q is not among the first three matches", tc.query, tc.path, tc.heading)
		}
	}
}

func TestSkillLinksEveryReferenceDocument(t *testing.T) {
	skill, err := fsRead("SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	refs, err := fsGlob("references/*.md")
	if err != nil || len(refs) == 0 {
		t.Fatalf("references: %v %v", refs, err)
	}
	for _, r := range refs {
		if !strings.Contains(skill, "`"+r+"`") {
			t.Errorf("SKILL.md does not link %s", r)
		}
	}
}

func TestGenericWordsNoteMatchesTheList(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	note := string(raw)
	marker := "<!-- generic-words:v" + string(rune('0'+index.GenericWordsVersion)) + " -->\n```text\n"
	i := strings.Index(note, marker)
	if i < 0 {
		t.Fatalf("README.md has no generic-word list for version %d", index.GenericWordsVersion)
	}
	block := note[i+len(marker):]
	block = block[:strings.Index(block, "```")]
	words := strings.Fields(block)
	slices.Sort(words)
	if !reflect.DeepEqual(words, index.GenericWords()) {
		t.Fatalf("README.md lists %d generic words, the code %d; keep them in step", len(words), len(index.GenericWords()))
	}
}

// The embedded snapshot is the index of the embedded bundle: editing the
// bundle without `make` (or `go generate ./guidance`) fails here.
func TestPackagedSnapshotIsTheIndexOfThePackagedBundle(t *testing.T) {
	ix, err := index.Build(Bundle())
	if err != nil {
		t.Fatal(err)
	}
	want, err := ix.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != Snapshot() {
		t.Fatal("guidance/bundle.index is stale: run `make` or `go generate ./guidance` and commit it")
	}
	opened, err := index.Open(Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	if opened.BundleDigest() != ix.BundleDigest() || opened.Len() != ix.Len() {
		t.Fatalf("opened snapshot: digest %s, %d sections; built: %s, %d", opened.BundleDigest(), opened.Len(), ix.BundleDigest(), ix.Len())
	}
}
