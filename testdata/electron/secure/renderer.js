window.notes.list().then((items) => {
  document.body.textContent = String(items.length);
});
