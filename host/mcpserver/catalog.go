package mcpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/app"
)

// CatalogTool is one tool as the generated product catalog describes it.
type CatalogTool struct {
	Name           string               `json:"name"`
	Title          string               `json:"title"`
	Family         string               `json:"family"`
	Description    string               `json:"description"`
	Effects        Effects              `json:"effects"`
	Annotations    *mcp.ToolAnnotations `json:"annotations"`
	InputSchema    Schema               `json:"input_schema"`
	OutputSchema   Schema               `json:"output_schema"`
	Examples       []map[string]any     `json:"advertised_examples"`
	CLI            string               `json:"cli_command,omitempty"`
	OneSidedReason string               `json:"one_sided_reason,omitempty"`
}

// Catalog is the server's half of the product catalog: every tool and
// prompt exactly as advertised, and their digests.
type Catalog struct {
	Tools         []CatalogTool   `json:"tools"`
	Prompts       []*app.Workflow `json:"prompts"`
	ToolsDigest   string          `json:"tools_digest"`
	PromptsDigest string          `json:"prompts_digest"`
}

// Catalog describes every tool and prompt in scope.
func (s *Server) Catalog() Catalog {
	c := Catalog{Tools: []CatalogTool{}, Prompts: s.Workflows()}
	for _, t := range s.tools {
		adv := s.advertise(t)
		out := t.Output
		if out == nil {
			out = evidenceOutputSchema()
		}
		examples := t.Examples
		if examples == nil {
			examples = []map[string]any{}
		}
		c.Tools = append(c.Tools, CatalogTool{
			Name: t.Name, Title: t.Title, Family: t.Family, Description: t.Description,
			Effects: t.Effects, Annotations: adv.Annotations, InputSchema: t.Input, OutputSchema: out,
			Examples: examples, CLI: t.CLI, OneSidedReason: t.OneSidedReason,
		})
	}
	c.ToolsDigest = s.catalogDigest()
	b, _ := json.Marshal(c.Prompts)
	sum := sha256.Sum256(b)
	c.PromptsDigest = "sha256:" + hex.EncodeToString(sum[:])
	return c
}
