// Every export of index.ts under its name's base64 (vite-electron-builder's
// template), behind an own-property guard.
import * as exports from './index.js';
import { contextBridge } from 'electron';

const isExport = (key: string): key is keyof typeof exports => Object.hasOwn(exports, key);

for (const exportsKey in exports) {
  if (isExport(exportsKey)) {
    contextBridge.exposeInMainWorld(btoa(exportsKey), exports[exportsKey]);
  }
}

// A plain object's keys, prefixed.
const tools = { ping: () => 'pong', clock: { now: () => Date.now() } };
for (const name in tools) {
  contextBridge.exposeInMainWorld('tools_' + name, tools[name as keyof typeof tools]);
}

// A guard that filters keys by something else than ownership: the keys it
// lets through are not known, so this stays one API with a dynamic key.
const flags: Record<string, boolean> = { a: true, b: false };
for (const flag in flags) {
  if (flags[flag]) {
    contextBridge.exposeInMainWorld(flag, true);
  }
}

export * from './index.js';
