package jsengine

import "testing"

// tsc's CommonJS output: enums filled by an IIFE, re-exports through
// __exportStar and Object.defineProperty getters, (0, f)(…) calls.
func TestChannelsResolveThroughTscOutput(t *testing.T) {
	files := map[string]string{
		"dist/channels.js": `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Channel = exports.Numbered = void 0;
var Channel;
(function (Channel) {
    Channel["Open"] = "tsc:open";
})(Channel || (exports.Channel = Channel = {}));
var Numbered;
(function (Numbered) {
    Numbered[Numbered["Zero"] = 0] = "Zero";
})(Numbered || (exports.Numbered = Numbered = {}));
`,
		"dist/index.js": `"use strict";
var __exportStar = (this && this.__exportStar) || function(m, exports) { for (var p in m) exports[p] = m[p]; };
Object.defineProperty(exports, "__esModule", { value: true });
__exportStar(require("./channels"), exports);
`,
		"dist/alias.js": `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OPEN = void 0;
var channels_1 = require("./channels");
Object.defineProperty(exports, "OPEN", { enumerable: true, get: function () { return channels_1.Channel.Open; } });
`,
		"dist/preload.js": `"use strict";
const electron_1 = require("electron");
const shared_1 = require("./index");
const alias_1 = require("./alias");
(0, electron_1.contextBridge.exposeInMainWorld)("api", { a: () => electron_1.ipcRenderer.invoke(shared_1.Channel.Open), b: () => electron_1.ipcRenderer.invoke(alias_1.OPEN) });
electron_1.ipcRenderer.send(String(shared_1.Numbered.Zero));
`,
	}
	r := analyzeSource(t, `"use strict";
const electron_1 = require("electron");
const channels_1 = require("./dist/channels");
electron_1.ipcMain.handle(channels_1.Channel.Open, () => 1);
electron_1.ipcMain.on(channels_1.Numbered[0], () => 1);
`, files)
	byLoc := map[string]IPCOperation{}
	for _, op := range r.IPC {
		byLoc[op.Location.File+":"+itoa(op.Location.Line)+":"+itoa(op.Location.Column)] = op
	}
	checks := []struct{ at, channel, state, pairing string }{
		{"main.js:4:27", "tsc:open", "inferred", ""},
		{"main.js:5:23", "Zero", "inferred", ""},                    // reverse mapping of a numeric enum
		{"dist/preload.js:5:97", "tsc:open", "inferred", "paired"},  // through __exportStar
		{"dist/preload.js:5:160", "tsc:open", "inferred", "paired"}, // through a defineProperty getter
	}
	for _, c := range checks {
		op, ok := byLoc[c.at]
		if !ok {
			t.Errorf("no IPC operation at %s; have %v", c.at, keys(byLoc))
			continue
		}
		if op.Channel != c.channel || op.ChannelState != c.state || op.Pairing != c.pairing {
			t.Errorf("%s: %q %s %s, want %q %s %s", c.at, op.Channel, op.ChannelState, op.Pairing, c.channel, c.state, c.pairing)
		}
	}
	if len(r.ContextBridge) != 1 || r.ContextBridge[0].Key != "api" {
		t.Errorf("(0, contextBridge.exposeInMainWorld)(…) not recognised: %+v", r.ContextBridge)
	}
}

func keys(m map[string]IPCOperation) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
