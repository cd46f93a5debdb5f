package main_test

import (
	"encoding/json"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

type catalogDoc struct {
	Tools []struct {
		Name           string         `json:"name"`
		Family         string         `json:"family"`
		CLI            string         `json:"cli_command"`
		OneSidedReason string         `json:"one_sided_reason"`
		InputSchema    map[string]any `json:"input_schema"`
		OutputSchema   map[string]any `json:"output_schema"`
		Annotations    map[string]any `json:"annotations"`
	} `json:"tools"`
	Prompts []map[string]any `json:"prompts"`
	CLI     []struct {
		Command        string `json:"command"`
		MCPTool        string `json:"mcp_tool"`
		OneSidedReason string `json:"one_sided_reason"`
	} `json:"cli"`
	Modules []map[string]any  `json:"modules"`
	Digests map[string]string `json:"digests"`
}

func generatedCatalog(t *testing.T) catalogDoc {
	t.Helper()
	r := rea(t, "", []string{"REA_MODULE_DIR=" + moduleDirForCatalog(t)}, "catalog", "--output", "-")
	if r.code != 0 {
		t.Fatalf("rea catalog: exit %d %s", r.code, r.stderr)
	}
	var doc catalogDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("catalog is not JSON: %v", err)
	}
	return doc
}

func TestEveryMCPToolHasACLICounterpartOrADeclaredReason(t *testing.T) {
	doc := generatedCatalog(t)
	commands := map[string]bool{}
	for _, c := range doc.CLI {
		commands[c.Command] = true
	}
	for _, tool := range doc.Tools {
		switch {
		case tool.CLI != "":
			first := strings.Fields(tool.CLI)[0]
			if !commands[tool.CLI] && !commands[first] {
				t.Errorf("%s names CLI command %q, which does not exist", tool.Name, tool.CLI)
			}
		case tool.OneSidedReason == "":
			t.Errorf("%s has no CLI counterpart and no declared reason", tool.Name)
		}
	}
}

func TestEveryCLICommandHasAnMCPToolOrADeclaredReason(t *testing.T) {
	doc := generatedCatalog(t)
	for _, c := range doc.CLI {
		if c.MCPTool == "" && c.OneSidedReason == "" {
			t.Errorf("CLI command %q shares no service with an MCP tool and declares no reason", c.Command)
		}
	}
}

func TestCatalogDescribesToolsPromptsModulesAndDigests(t *testing.T) {
	doc := generatedCatalog(t)
	if len(doc.Tools) < 10 || len(doc.Modules) == 0 {
		t.Fatalf("catalog too small: %d tools, %d modules", len(doc.Tools), len(doc.Modules))
	}
	for _, tool := range doc.Tools {
		if tool.Family == "" || tool.InputSchema["type"] != "object" || tool.OutputSchema["$id"] == nil || tool.Annotations == nil {
			t.Errorf("%s: incomplete catalog entry", tool.Name)
		}
	}
	for _, k := range []string{"tools", "prompts", "catalog"} {
		if !strings.HasPrefix(doc.Digests[k], "sha256:") {
			t.Errorf("digest %s missing: %v", k, doc.Digests)
		}
	}
	// Generated, not hand-edited: two runs give the same document.
	again := generatedCatalog(t)
	if again.Digests["catalog"] != doc.Digests["catalog"] {
		t.Fatal("catalog generation is not deterministic")
	}
}

// moduleDirForCatalog gives the binary real modules when it was built
// without embedded ones.
func moduleDirForCatalog(t *testing.T) string {
	t.Helper()
	return wasmtest.ModuleDir(t)
}
