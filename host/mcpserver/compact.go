package mcpserver

// compactBudget is the largest advertised input schema under
// REA_MCP_INPUT_SCHEMA_PROFILE=compact, below Moonshot's observed cap.
const compactBudget = 13_312

// compact drops nested prose (descriptions, examples, defaults, titles)
// from an input schema; the root keeps its description.
func compact(s Schema) Schema {
	out := cloneSchema(s)
	delete(out, "examples")
	if props, ok := s["properties"].(map[string]Schema); ok {
		np := make(map[string]Schema, len(props))
		for k, v := range props {
			np[k] = compactNested(v)
		}
		out["properties"] = np
	}
	return out
}

func compactNested(s Schema) Schema {
	out := Schema{}
	for k, v := range s {
		switch k {
		case "description", "examples", "default", "title":
			continue
		case "properties":
			props := v.(map[string]Schema)
			np := make(map[string]Schema, len(props))
			for pk, pv := range props {
				np[pk] = compactNested(pv)
			}
			out[k] = np
		case "items":
			out[k] = compactNested(v.(Schema))
		default:
			out[k] = v
		}
	}
	return out
}
