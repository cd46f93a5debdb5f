import { contextBridge, ipcRenderer } from 'electron';
import { Channel } from './channels';

contextBridge.exposeInMainWorld('workbench', {
  open: (id: string): Promise<string> => ipcRenderer.invoke(Channel.Open, id),
  onClose: (fn: () => void) => ipcRenderer.on(Channel.Close, fn),
});
