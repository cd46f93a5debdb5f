import { contextBridge } from 'electron';
import { electronAPI } from '@electron-toolkit/preload';
import { ipcRenderer } from 'electron-better-ipc';

const api = {
  getConfig: () => ipcRenderer.callMain('config:get'),
};

ipcRenderer.answerMain('config:changed', (config) => console.log(config));

if (process.contextIsolated) {
  try {
    contextBridge.exposeInMainWorld('electron', electronAPI);
    contextBridge.exposeInMainWorld('api', api);
  } catch (error) {
    console.error(error);
  }
}
