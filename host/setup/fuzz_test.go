package setup

import (
	"testing"
)

// Every edit of a file the format accepts either refuses with an error or
// yields a file that registers exactly the wanted vector and equals the
// original outside rea's entry.
func fuzzFormat(f *testing.F, format configFormat, seeds []string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	want := []string{`/opt/"odd" path\rea`, "mcp"}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if st, _, _ := format.inspect(doc, want); st == StatusInvalid {
			return
		}
		out, err := format.apply(doc, want)
		if err != nil {
			return
		}
		if st, _, reason := format.inspect(out, want); st != StatusAligned {
			t.Fatalf("edit is %s (%s):\n%s\n->\n%s", st, reason, doc, out)
		}
		if err := format.sameOutsideEntry(doc, out); err != nil {
			t.Fatalf("%v:\n%s\n->\n%s", err, doc, out)
		}
		again, err := format.apply(out, want)
		if err != nil || string(again) != string(out) {
			t.Fatalf("second edit changed an aligned file (%v):\n%s\n->\n%s", err, out, again)
		}
	})
}

func FuzzJSONEdit(f *testing.F) {
	fuzzFormat(f, jsonFormat{withType: true}, []string{
		`{}`, `{"mcpServers": null}`, `{"mcpServers": {"rea": 1}}`,
		"{\n\t\"a\": [1, {\"b\": \"}\"}],\n\t\"mcpServers\": {\"rea\": {\"url\": \"x\", \"env\": {}}}\n}",
		`{"mcpServers":{"x":{},"rea":{"type":"sse","command":"/a"}},"z":"\u0000"}`,
	})
}

func FuzzTOMLEdit(f *testing.F) {
	fuzzFormat(f, tomlFormat{}, []string{
		"", "a = 1", "[mcp_servers.rea]", "[mcp_servers.rea]\ncommand = 'x' # c\nargs = [\n'a', # ]\n]\n[x]\n",
		"s = '''\n[mcp_servers.rea]\n'''\n", "[mcp_servers]\nother = { command = \"y\" }\n",
		"[ \"mcp_servers\" . 'rea' ] # hi\nurl = \"http://x\"\nenv = { A = \"1\" }",
	})
}
