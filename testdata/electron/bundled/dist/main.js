/******/ (() => { // webpackBootstrap
/******/ 	var __webpack_modules__ = ({

/***/ "./src/prefs.js":
/***/ ((module) => {

function windowPreferences(extra) {
  return { contextIsolation: false, sandbox: true, ...extra };
}
module.exports = { windowPreferences };

/***/ }),

/***/ "./src/channels.js":
/***/ ((__unused_webpack_module, exports) => {

exports.OPEN_FILE = "bundle:open-file";

/***/ }),

/***/ "electron":
/***/ ((module) => {

"use strict";
module.exports = require("electron");

/***/ }),

/***/ "path":
/***/ ((module) => {

"use strict";
module.exports = require("path");

/***/ })

/******/ 	});
/******/ 	var __webpack_module_cache__ = {};
/******/ 	function __webpack_require__(moduleId) {
/******/ 		var cachedModule = __webpack_module_cache__[moduleId];
/******/ 		if (cachedModule !== undefined) {
/******/ 			return cachedModule.exports;
/******/ 		}
/******/ 		var module = __webpack_module_cache__[moduleId] = { exports: {} };
/******/ 		__webpack_modules__[moduleId](module, module.exports, __webpack_require__);
/******/ 		return module.exports;
/******/ 	}
var __webpack_exports__ = {};
(() => {
const { app, BrowserWindow, ipcMain } = __webpack_require__("electron");
const path = __webpack_require__("path");
const { windowPreferences } = __webpack_require__("./src/prefs.js");
const channels = __webpack_require__("./src/channels.js");

app.whenReady().then(() => {
  const win = new BrowserWindow({
    webPreferences: windowPreferences({ preload: path.join(__dirname, "preload.js") }),
  });
  win.loadFile(path.join(__dirname, "index.html"));
});
ipcMain.handle(channels.OPEN_FILE, () => null);
})();
/******/ })()
;
