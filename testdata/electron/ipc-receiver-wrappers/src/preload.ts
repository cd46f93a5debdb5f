import { ipcRenderer } from 'electron';

ipcRenderer.on('focus', () => {});
ipcRenderer.on('play-ding', () => {});
ipcRenderer.on('zoom-in', () => {});
ipcRenderer.on('frame-hello', () => {});
ipcRenderer.send('ping');
ipcRenderer.send('forward', 'focus');
