import { ipcRenderer, contextBridge } from 'electron';
export const api = { send: (c, ...a) => ipcRenderer.send(c, ...a) };
contextBridge.exposeInMainWorld('api', api);
export default api;
const lazy = await import('./lazy.mjs');
export { lazy };
