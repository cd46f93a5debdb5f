import { ipcRenderer } from 'electron';

ipcRenderer.send('settings:opened');
