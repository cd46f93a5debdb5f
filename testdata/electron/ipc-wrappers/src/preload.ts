import { contextBridge, ipcRenderer } from 'electron';

class Bridge {
  invoke(channel: string, ...args: unknown[]) {
    return ipcRenderer.invoke(channel, ...args);
  }
  listen(channel: string, cb: (...args: unknown[]) => void) {
    ipcRenderer.on(channel, (_e, ...args) => cb(...args));
  }
}

const bridge = new Bridge();
bridge.listen('app:ready', () => {});
bridge.listen('window:focused', () => {});
bridge.listen('window:tracked', () => {});
contextBridge.exposeInMainWorld('settings', { load: () => bridge.invoke('settings:get') });
contextBridge.exposeInMainWorld('files', { list: () => bridge.invoke('files:list') });
