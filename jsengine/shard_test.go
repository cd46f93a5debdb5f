package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"rea/jsengine/jstest"
)

// analyseInShards analyses fsys as n shards whose facts travel as JSON, the
// way the host runs them in separate module instances, and merges them.
func analyseInShards(t *testing.T, fsys fs.FS, opts Options, n int) (*Result, string) {
	t.Helper()
	var facts []*ShardFacts
	for i := range n {
		f, err := AnalyzeShard(context.Background(), fsys, opts, Shard{Index: i, Count: n}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var back ShardFacts
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		facts = append(facts, &back)
	}
	res, rerun, err := Merge(context.Background(), fsys, opts, facts)
	if err != nil {
		t.Fatal(err)
	}
	return res, rerun
}

// crossModuleApp spreads the Electron boundary over modules: a window
// created by a helper module and loaded by the main module, IPC channel
// names exported by a third, a preload exposing the raw ipcRenderer.
func crossModuleApp() fstest.MapFS {
	return fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"spread","main":"main.js"}`)},
		"main.js": {Data: []byte(`const { ipcMain, app } = require('electron');
const { createWindow } = require('./lib/window.js');
const { CHANNELS } = require('./lib/channels.js');
const win = createWindow();
win.loadURL('https://user:secret@example.com/app?token=1');
ipcMain.handle(CHANNELS.SAVE, (e, a) => a);
ipcMain.on(CHANNELS.LOG, (e) => { if (e.senderFrame.url) {} });
`)},
		"lib/window.js": {Data: []byte(`const { BrowserWindow } = require('electron');
const path = require('path');
function prefs() { return { contextIsolation: false, preload: path.join(__dirname, '../preload.js') }; }
exports.createWindow = () => new BrowserWindow({ webPreferences: prefs() });
`)},
		"lib/channels.js": {Data: []byte(`exports.CHANNELS = { SAVE: 'file:save', LOG: 'log:write' };
`)},
		"preload.js": {Data: []byte(`const { contextBridge, ipcRenderer } = require('electron');
const { CHANNELS } = require('./lib/channels.js');
contextBridge.exposeInMainWorld('raw', ipcRenderer);
contextBridge.exposeInMainWorld('api', { save: (x) => ipcRenderer.invoke(CHANNELS.SAVE, x), other: (x) => ipcRenderer.send('nobody') });
`)},
		"index.html": {Data: []byte(`<html><head><script src="http://cdn.example.com/x.js"></script></head><body><script>require('./renderer.js')</script></body></html>`)},
		"renderer.js": {Data: []byte(`const { ipcRenderer } = require('electron'); ipcRenderer.on('update', () => {});
`)},
		"node_modules/dep/index.js": {Data: []byte(`module.exports = function () { return require('child_process').exec('ls'); };
`)},
		"broken.js": {Data: []byte("const = ;\n")},
	}
}

func TestShardedAnalysisEqualsOneInstance(t *testing.T) {
	inputs := map[string]fs.FS{
		"cross-module": crossModuleApp(),
		"generated":    jstest.App(40, 3<<10),
		"bundle":       jstest.BundleApp(48 << 10),
	}
	for _, fx := range []string{"secure", "insecure", "typescript", "esm", "bundled", "ipc-wrappers", "ipc-bridge", "ipc-channel-lists",
		"ipc-forms", "ipc-libraries", "ipc-receiver-wrappers", "ipc-bridge-optional", "bridge-computed-keys", "preload-build-entries", "forge-webpack", "window-subclass", "window-open-handler", "window-alternatives"} {
		inputs[fx] = os.DirFS(filepath.Join(fixtures, fx))
	}
	for _, v := range []string{"v1", "v2"} {
		inputs["versions-"+v] = os.DirFS(filepath.Join("..", "testdata", "versions", v))
		inputs["exports-"+v] = os.DirFS(filepath.Join("..", "testdata", "compare", "exports", v))
		inputs["artifacts-"+v] = os.DirFS(filepath.Join("..", "testdata", "compare", "artifacts", v))
	}
	inputs["source-app"] = os.DirFS(filepath.Join("..", "testdata", "compare", "source", "app"))
	for name, fsys := range inputs {
		t.Run(name, func(t *testing.T) {
			one, err := Analyze(context.Background(), fsys, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(one)
			for _, n := range []int{2, 3, 5} {
				res, rerun := analyseInShards(t, fsys, Options{}, n)
				if rerun != "" {
					t.Fatalf("%d shards: merge asks for one instance: %s", n, rerun)
				}
				if got, _ := json.Marshal(res); !bytes.Equal(got, want) {
					t.Fatalf("%d shards differ from one instance:\none    %s\nshards %s", n, want, got)
				}
			}
		})
	}
}

func TestShardsAskForOneInstanceWhenALimitDependsOnTheOrder(t *testing.T) {
	fsys := jstest.App(20, 2<<10)
	one, err := Analyze(context.Background(), fsys, Options{MaxASTNodes: 3000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if one.Coverage.Status != "partial" {
		t.Fatalf("the limit is not reached by one instance: %+v", one.Coverage)
	}
	res, rerun := analyseInShards(t, fsys, Options{MaxASTNodes: 3000}, 2)
	if rerun == "" || res != nil {
		t.Fatalf("merge gave a result instead of asking for one instance: %+v", res)
	}
}

func TestMergeRejectsFactsOutOfOrder(t *testing.T) {
	fsys := jstest.App(4, 1<<10)
	var facts []*ShardFacts
	for i := range 2 {
		f, err := AnalyzeShard(context.Background(), fsys, Options{}, Shard{Index: i, Count: 2}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		facts = append(facts, f)
	}
	facts[0], facts[1] = facts[1], facts[0]
	if _, _, err := Merge(context.Background(), fsys, Options{}, facts); err == nil {
		t.Fatal("facts in the wrong order were merged")
	}
	if _, err := AnalyzeShard(context.Background(), fsys, Options{}, Shard{Index: 2, Count: 2}, nil, nil); err == nil {
		t.Fatal("a shard outside the count was analysed")
	}
}

func TestDigestsFromTheCallerAreReportedInsteadOfHashing(t *testing.T) {
	fsys := jstest.App(3, 1<<10)
	given := "0000000000000000000000000000000000000000000000000000000000000001"
	f, err := AnalyzeShard(context.Background(), fsys, Options{}, Shard{Index: 0, Count: 1}, map[string]string{"src/m1.js": given}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range f.Modules {
		got[m.Module.Path] = m.Module.SHA256
	}
	if got["src/m1.js"] != given {
		t.Fatalf("src/m1.js reported as %q, want the given digest", got["src/m1.js"])
	}
	if got["src/m2.js"] == given || len(got["src/m2.js"]) != 64 {
		t.Fatalf("src/m2.js, without a given digest, reported as %q", got["src/m2.js"])
	}
}
