window.api.receive('fromMain', (data) => console.log(data));
document.getElementById('go').addEventListener('click', () => {
  window.api.send('toMain', { text: 'hello' });
  window.api.send('not-allowed', {});
});
window.api.invoke('dialog:open');
