const { ipcRenderer } = require('electron');

ipcRenderer.on('pong', () => {});
ipcRenderer.on('port', (e) => { const [port] = e.ports; port.postMessage('hi'); });
ipcRenderer.on('frame:hello', () => {});
ipcRenderer.send('ping');
ipcRenderer.invoke('window:title');
ipcRenderer.send('window:log', 'loaded');
ipcRenderer.sendTo(2, 'peer:hello');
ipcRenderer.sendToHost('host:hello');
