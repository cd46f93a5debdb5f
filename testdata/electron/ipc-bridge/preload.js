const { contextBridge, ipcRenderer } = require('electron');

const validSend = ['toMain', 'log'];
const validReceive = ['fromMain'];

contextBridge.exposeInMainWorld('api', {
  send: (channel, data) => {
    if (validSend.includes(channel)) {
      ipcRenderer.send(channel, data);
    }
  },
  receive: (channel, func) => {
    if (!validReceive.includes(channel)) return;
    ipcRenderer.on(channel, (event, ...args) => func(...args));
  },
  invoke(...args) {
    const [channel, ...rest] = args;
    return ipcRenderer.invoke(channel, ...rest);
  },
});
