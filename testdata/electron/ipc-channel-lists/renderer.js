const { ipcRenderer } = require('electron');
['users', 'projects'].forEach((t) => ipcRenderer.invoke(`db:${t}:list`));
ipcRenderer.send('file:open');
