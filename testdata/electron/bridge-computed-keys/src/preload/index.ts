import { ipcRenderer } from 'electron';
import { versions } from './versions.js';

function send(channel: string, message: string) {
  return ipcRenderer.invoke(channel, message);
}

export { versions, send };
