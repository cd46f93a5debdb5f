package jsengine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestBridgeKeysComputedInALoopAreOneAPIPerKey: a preload that exposes
// every export of a module (or every key of an object) in a for-in loop,
// under a key computed from the loop's variable, exposes one API per key
// with its members; a loop whose guard filters keys by anything but
// ownership stays one API with a dynamic key.
func TestBridgeKeysComputedInALoopAreOneAPIPerKey(t *testing.T) {
	res, err := Analyze(context.Background(), os.DirFS(filepath.Join("..", "testdata", "electron", "bridge-computed-keys")), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"10 c2VuZA== constant complete []",                  // btoa("send")
		"10 dmVyc2lvbnM= constant complete [electron node]", // btoa("versions")
		"17 tools_clock constant complete [now]",
		"17 tools_ping constant complete []",
		"25 flag dynamic partial []",
	}
	var got []string
	for _, api := range res.ContextBridge {
		got = append(got, fmt.Sprintf("%d %s %s %s %v", api.Location.Line, api.Key, api.KeyState, api.Coverage, api.Members))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("context bridge APIs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBridgeLoopsThatCannotBeUnrolledStayDynamic: each of these loops
// leaves some key unknown, so the API stays one, with a dynamic key.
func TestBridgeLoopsThatCannotBeUnrolledStayDynamic(t *testing.T) {
	cases := map[string]string{
		"a let variable the body may change": `for (let k in api) { k = k + '!'; contextBridge.exposeInMainWorld(k, api[k]); }`,
		"an else branch":                     `for (const k in api) { if (Object.hasOwn(api, k)) contextBridge.exposeInMainWorld(k, api[k]); else contextBridge.exposeInMainWorld(k, 1); }`,
		"a call in a nested function":        `for (const k in api) { setTimeout(() => contextBridge.exposeInMainWorld(k, api[k])); }`,
		"an object with a spread of unknown": `const more = require('./more.json'); const all = { ...api, ...more }; for (const k in all) contextBridge.exposeInMainWorld(k, all[k]);`,
		"a CommonJS module's namespace":      `const ns = require('./cjs'); for (const k in ns) contextBridge.exposeInMainWorld(k, ns[k]);`,
		"a key not in Latin-1 for btoa":      `const odd = { 'ключ': 1 }; for (const k in odd) contextBridge.exposeInMainWorld(btoa(k), odd[k]);`,
	}
	for name, loop := range cases {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"package.json": {Data: []byte(`{"name":"x","main":"preload.js"}`)},
				"cjs.js":       {Data: []byte(`module.exports = { a: 1, b: 2 };`)},
				"more.json":    {Data: []byte(`{"c": 3}`)},
				"preload.js":   {Data: []byte("const { contextBridge } = require('electron');\nconst api = { a: () => 1, b: () => 2 };\n" + loop + "\n")},
			}
			res, err := Analyze(context.Background(), fsys, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, api := range res.ContextBridge {
				if api.KeyState != "dynamic" || api.Coverage != "partial" {
					t.Errorf("%s: key %q %s %s, want every API dynamic and partial", name, api.Key, api.KeyState, api.Coverage)
				}
			}
			if len(res.ContextBridge) == 0 {
				t.Fatal("no context bridge API at all")
			}
		})
	}
}
