const App = () => <h1>hello</h1>;
export default App;

// The bridge may be absent (a page opened outside Electron): ?. everywhere.
window.electron?.ipcRenderer.once('ipc-example', (arg) => {
  console.log(arg);
});
window.electron?.ipcRenderer.sendMessage('ipc-example', ['ping']);
