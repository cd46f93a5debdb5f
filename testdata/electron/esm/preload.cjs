const { contextBridge, ipcRenderer } = require('electron');
contextBridge.exposeInMainWorld('viewer', {
  render: (doc) => ipcRenderer.invoke('viewer:render', doc),
});
