// Chromium does not run Electron preloads. This script stands in for
// preload.js in the runtime tests: it defines on window what
// contextBridge.exposeInMainWorld('bridge', …) would, so that a page
// observed in plain Chromium looks like the Electron renderer.
Object.defineProperty(window, 'bridge', {
  value: Object.freeze({ version: () => Promise.resolve('1.0.0') }),
  enumerable: true
})
