const ipcHandle = (): void => window.electron.ipcRenderer.send('ping');
document.querySelector('#ping')?.addEventListener('click', ipcHandle);

async function start(): Promise<void> {
  const version = await window.electron.ipcRenderer.invoke('version:get');
  console.log(version);
}
start();
