package main_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// analysedFacts is the part of `rea analyze-javascript-application
// --format json` these tests read.
type analysedFacts struct {
	NormalizedResult struct {
		Application struct {
			Windows []struct {
				Location struct {
					File string `json:"file"`
					Line int    `json:"line"`
				} `json:"location"`
				Class          string `json:"class"`
				Origin         string `json:"origin"`
				WebPreferences map[string]struct {
					Value        any    `json:"value"`
					State        string `json:"state"`
					Alternatives []struct {
						Value     any    `json:"value"`
						Condition string `json:"condition"`
					} `json:"alternatives"`
				} `json:"web_preferences"`
				Preload *struct {
					Module       string `json:"module"`
					Alternatives []struct {
						Module    string `json:"module"`
						Condition string `json:"condition"`
					} `json:"alternatives"`
				} `json:"preload"`
			} `json:"browser_windows"`
			IPC []struct {
				Module       string `json:"module"`
				Side         string `json:"side"`
				Role         string `json:"role"`
				API          string `json:"api"`
				Channel      string `json:"channel"`
				ChannelState string `json:"channel_state"`
				ChannelVia   []struct {
					Description string `json:"description"`
				} `json:"channel_via"`
				Pairing string `json:"pairing"`
			} `json:"ipc"`
		} `json:"application"`
	} `json:"normalized_result"`
}

func analyseFixtureFacts(t *testing.T, name string) analysedFacts {
	t.Helper()
	r := analyzeApp(t, electronFixture(t, name), "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var f analysedFacts
	decode(t, r.stdout, &f)
	return f
}

// ipcLines renders each IPC operation as
// "module side role api channel state pairing".
func (f analysedFacts) ipcLines() []string {
	var out []string
	for _, op := range f.NormalizedResult.Application.IPC {
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s %s %s %s %s %s %s", op.Module, op.Side, op.Role, op.API, op.Channel, op.ChannelState, op.Pairing)))
	}
	sort.Strings(out)
	return out
}

// Issue 18, points 3 and 4: channels reached through wrapper functions,
// class methods and contextBridge functions; constant collections and
// allow-lists; event.reply, webContents.ipc, sendTo, ports and the IPC
// wrapper libraries. Each fixture's IPC table is compared whole, so a
// fact that is not in the code fails as surely as a missing one.
func TestAnalyzeResolvesIPCChannelsThroughWrappersAndLibraries(t *testing.T) {
	cases := map[string][]string{
		"ipc-wrappers": {
			"src/ipc.ts main handler ipcMain.handle  dynamic",
			"src/ipc.ts main transmission webContents.send  dynamic dynamic",
			"src/main.ts main handler ipcMain.handle files:list inferred",
			"src/main.ts main handler ipcMain.handle settings:get inferred",
			"src/main.ts main transmission webContents.send app:ready inferred paired",
			"src/main.ts main transmission webContents.send window:focused inferred paired",
			"src/preload.ts renderer listener ipcRenderer.on  dynamic",
			"src/preload.ts renderer listener ipcRenderer.on app:ready inferred",
			"src/preload.ts renderer listener ipcRenderer.on window:focused inferred",
			"src/preload.ts renderer listener ipcRenderer.on window:tracked inferred",
			"src/preload.ts renderer transmission ipcRenderer.invoke  dynamic dynamic",
			"src/preload.ts renderer transmission ipcRenderer.invoke files:list inferred paired",
			"src/preload.ts renderer transmission ipcRenderer.invoke settings:get inferred paired",
			"src/window-manager.ts main transmission webContents.send  dynamic dynamic",
			"src/window-manager.ts main transmission webContents.send window:tracked inferred paired",
		},
		"ipc-bridge": {
			"main.js main handler ipcMain.handle dialog:open literal",
			"main.js main listener ipcMain.on toMain literal",
			"main.js main transmission webContents.send fromMain literal paired",
			"preload.js renderer listener ipcRenderer.on fromMain inferred",
			"preload.js renderer transmission ipcRenderer.invoke  dynamic dynamic",
			// 'log' is allowed, but no renderer call sends it.
			"preload.js renderer transmission ipcRenderer.send  dynamic dynamic",
			"preload.js renderer transmission ipcRenderer.send toMain inferred paired",
			"renderer.js renderer listener ipcRenderer.on fromMain inferred",
			"renderer.js renderer transmission ipcRenderer.invoke dialog:open inferred paired",
			"renderer.js renderer transmission ipcRenderer.send toMain inferred paired",
		},
		"ipc-channel-lists": {
			"main.js main handler ipcMain.handle db:projects:list inferred",
			"main.js main handler ipcMain.handle db:users:list inferred",
			"main.js main handler ipcMain.handle meta:open inferred",
			"main.js main handler ipcMain.handle meta:save inferred",
			"main.js main listener ipcMain.on file:open inferred",
			"main.js main listener ipcMain.on file:save inferred",
			"renderer.js renderer transmission ipcRenderer.invoke db:projects:list inferred paired",
			"renderer.js renderer transmission ipcRenderer.invoke db:users:list inferred paired",
			"renderer.js renderer transmission ipcRenderer.send file:open literal paired",
		},
		"ipc-forms": {
			"main.js main handler webContents.ipc.handle window:title literal",
			"main.js main listener ipcMain.on ping literal",
			"main.js main listener webContents.ipc.on window:log literal",
			"main.js main transmission event.reply pong literal paired",
			"main.js main transmission webContents.postMessage port literal paired",
			"main.js main transmission webContents.sendToFrame frame:hello literal paired",
			"preload.js renderer listener ipcRenderer.on frame:hello literal",
			"preload.js renderer listener ipcRenderer.on pong literal",
			"preload.js renderer listener ipcRenderer.on port literal",
			"preload.js renderer transmission ipcRenderer.invoke window:title literal paired",
			"preload.js renderer transmission ipcRenderer.send ping literal paired",
			"preload.js renderer transmission ipcRenderer.send window:log literal paired",
			"preload.js renderer transmission ipcRenderer.sendTo peer:hello literal unpaired",
			"preload.js renderer transmission ipcRenderer.sendToHost host:hello literal",
		},
		// The IPC object is a parameter of the helper (send(contents,
		// channel)): each call site settles it from what it passes; a
		// receiver that is no IPC object (logger) is no operation, and a
		// forwarded channel is stated as dynamic where it is forwarded.
		"ipc-receiver-wrappers": {
			"src/main.ts main listener ipcMain.on forward literal",
			"src/main.ts main listener ipcMain.on ping inferred",
			"src/main.ts main transmission webContents.send  dynamic dynamic",
			"src/main.ts main transmission webContents.send  dynamic dynamic",
			"src/main.ts main transmission webContents.send focus inferred paired",
			"src/main.ts main transmission webContents.send play-ding inferred paired",
			"src/main.ts main transmission webContents.send zoom-in inferred paired",
			"src/main.ts main transmission webContents.sendToFrame frame-hello inferred paired",
			"src/preload.ts renderer listener ipcRenderer.on focus literal",
			"src/preload.ts renderer listener ipcRenderer.on frame-hello literal",
			"src/preload.ts renderer listener ipcRenderer.on play-ding literal",
			"src/preload.ts renderer listener ipcRenderer.on zoom-in literal",
			"src/preload.ts renderer transmission ipcRenderer.send forward literal paired",
			"src/preload.ts renderer transmission ipcRenderer.send ping literal paired",
			"src/typed-ipc-main.ts main transmission webContents.send  dynamic dynamic",
			"src/typed-ipc-main.ts main transmission webContents.sendToFrame  dynamic dynamic",
		},
		// Bridge calls through `?.` in TSX (esbuild lowers them to
		// (_a = window.electron) == null ? void 0 : _a.ipcRenderer.…).
		"ipc-bridge-optional": {
			"src/main/main.ts main listener ipcMain.on ipc-example literal",
			"src/main/main.ts main transmission event.reply ipc-example literal paired",
			"src/main/preload.ts renderer listener ipcRenderer.once  dynamic",
			"src/main/preload.ts renderer transmission ipcRenderer.send  dynamic dynamic",
			"src/renderer/index.tsx renderer listener ipcRenderer.once ipc-example inferred",
			"src/renderer/index.tsx renderer transmission ipcRenderer.send ipc-example inferred paired",
		},
		"ipc-libraries": {
			"src/main/index.ts main handler ipcMain.answerRenderer config:get literal",
			"src/main/index.ts main listener ipcMain.on ping literal",
			"src/main/index.ts main transmission ipcMain.callRenderer config:changed literal paired",
			"src/preload/index.ts renderer handler ipcRenderer.answerMain config:changed literal",
			"src/preload/index.ts renderer transmission ipcRenderer.callMain config:get literal paired",
			"src/renderer/src/main.ts renderer transmission ipcRenderer.invoke version:get inferred unpaired",
			"src/renderer/src/main.ts renderer transmission ipcRenderer.send ping inferred paired",
		},
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			f := analyseFixtureFacts(t, name)
			got := f.ipcLines()
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("IPC table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, op := range f.NormalizedResult.Application.IPC {
				if op.ChannelState == "inferred" && len(op.ChannelVia) == 0 {
					t.Errorf("inferred channel %s of %s has no path that produced it", op.Channel, op.Module)
				}
			}
		})
	}
}

// Issue 18, point 5: windows of BrowserWindow subclasses, child windows of
// setWindowOpenHandler, WebContentsView preferences, and options that
// depend on the environment or on a later reassignment.
func TestAnalyzeResolvesWindowForms(t *testing.T) {
	t.Run("subclass", func(t *testing.T) {
		w := analyseFixtureFacts(t, "window-subclass").NormalizedResult.Application.Windows
		if len(w) != 2 || w[0].Class != "AppWindow" || w[1].Class != "SettingsWindow" {
			t.Fatalf("windows %+v", w)
		}
		// The constructor's defaults merged with each call's options.
		if w[0].WebPreferences["sandbox"].Value != true || w[1].WebPreferences["sandbox"].Value != false ||
			w[1].WebPreferences["contextIsolation"].Value != true || w[0].Preload == nil || w[0].Preload.Module != "preload.js" {
			t.Errorf("preferences %+v / %+v", w[0].WebPreferences, w[1].WebPreferences)
		}
	})
	t.Run("window open handler and views", func(t *testing.T) {
		w := analyseFixtureFacts(t, "window-open-handler").NormalizedResult.Application.Windows
		if len(w) != 3 || w[1].Origin != "window-open-handler" || w[1].WebPreferences["nodeIntegration"].Value != true ||
			w[1].Preload == nil || w[1].Preload.Module != "docs-preload.js" || w[2].WebPreferences["contextIsolation"].Value != false {
			t.Fatalf("windows %+v", w)
		}
	})
	t.Run("bundler entry names and import.meta.dirname", func(t *testing.T) {
		// out/preload/bridge.cjs is the build's entry "bridge"
		// (src/preload/expose.ts), not a file with that stem; a ternary's
		// alternative with no entry of its name resolves to no module.
		w := analyseFixtureFacts(t, "preload-build-entries").NormalizedResult.Application.Windows
		if len(w) != 2 || w[0].Preload == nil || w[0].Preload.Module != "src/preload/expose.ts" {
			t.Fatalf("windows %+v", w)
		}
		p := w[1].Preload.Alternatives
		if w[1].Preload.Module != "" || len(p) != 2 || p[0].Module != "src/renderer/settings-page.ts" || p[1].Module != "" {
			t.Errorf("settings preload %+v", w[1].Preload)
		}
	})
	t.Run("Electron Forge webpack preload global", func(t *testing.T) {
		// MAIN_WINDOW_PRELOAD_WEBPACK_ENTRY is the preload of forge.config's
		// entry point main_window, returned by an options helper.
		w := analyseFixtureFacts(t, "forge-webpack").NormalizedResult.Application.Windows
		if len(w) != 1 || w[0].Preload == nil || w[0].Preload.Module != "src/preload/preload.ts" || w[0].WebPreferences["contextIsolation"].Value != true {
			t.Fatalf("windows %+v", w)
		}
	})
	t.Run("alternatives", func(t *testing.T) {
		w := analyseFixtureFacts(t, "window-alternatives").NormalizedResult.Application.Windows
		if len(w) != 1 || w[0].Preload == nil {
			t.Fatalf("windows %+v", w)
		}
		p := w[0].Preload.Alternatives
		if len(p) != 2 || p[0].Module != "preload.dev.js" || p[0].Condition != "isDev" || p[1].Module != "dist/preload.js" || p[1].Condition != "!(isDev)" {
			t.Errorf("preload alternatives %+v", p)
		}
		insecure := w[0].WebPreferences["allowRunningInsecureContent"]
		if insecure.State != "unknown" || len(insecure.Alternatives) != 2 || insecure.Alternatives[0].Value != false || insecure.Alternatives[1].Value != true {
			t.Errorf("a value an IPC handler reassigns is %+v; want unknown with both candidates", insecure)
		}
		ws := w[0].WebPreferences["webSecurity"]
		if ws.State != "unknown" || len(ws.Alternatives) != 2 || ws.Alternatives[0].Condition != "isDev" || ws.Alternatives[0].Value != false {
			t.Errorf("webSecurity %+v", ws)
		}
	})
}

// The text report lists every alternative of a conditional preload,
// preference and load with its condition.
func TestAnalyzeTextListsAlternativesWithTheirConditions(t *testing.T) {
	r := analyzeApp(t, electronFixture(t, "window-alternatives"), "--format", "text")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reportHas(t, r.stdout,
		"    preload preload.dev.js if isDev\n",
		"    preload dist/preload.js if !(isDev)\n",
		"allowRunningInsecureContent  allowInsecure unknown\n",
		" true     if after the assignment at main.js:12\n",
	)
}
