const { contextBridge, ipcRenderer } = require("electron");

contextBridge.exposeInMainWorld("api", {
  open: (name) => ipcRenderer.invoke("feature:open", name),
  legacy: () => ipcRenderer.invoke("settings:legacy"),
  log: (line) => ipcRenderer.send("log:write", line),
});
