var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// src/main.ts
var import_electron = require("electron");
var path = __toESM(require("path"));

// src/channels.ts
var CHANNELS = {
  save: "doc:save"
};

// src/main.ts
async function createWindow(settings) {
  var _a, _b;
  const zoom = (_b = (_a = settings == null ? void 0 : settings.zoom) == null ? void 0 : _a.level) != null ? _b : 1;
  const win = new import_electron.BrowserWindow({
    width: 800 * zoom,
    webPreferences: { preload: path.join(__dirname, "preload.js"), sandbox: false, contextIsolation: true }
  });
  await win.loadFile(path.join(__dirname, "index.html"));
}
import_electron.ipcMain.handle(CHANNELS.save, async (_event, body) => body.length);
import_electron.app.whenReady().then(() => createWindow());
//# sourceMappingURL=main.js.map
