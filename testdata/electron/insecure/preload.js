const { contextBridge, ipcRenderer } = require('electron');
const channels = require('./shared/channels');

contextBridge.exposeInMainWorld('editor', {
  ipcRenderer,
  save: (doc) => ipcRenderer.send(channels.CHANNEL_SAVE, doc),
  open: () => ipcRenderer.invoke(channels.CHANNEL_OPEN),
  missing: () => ipcRenderer.invoke('file:missing'),
  files: { recent: () => ipcRenderer.invoke('file:recent') },
});
ipcRenderer.on(channels.CHANNEL_STATUS, () => {});
