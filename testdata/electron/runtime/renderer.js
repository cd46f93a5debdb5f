window.bridge.version().then((v) => {
  document.getElementById('out').textContent = 'version ' + v
  console.log('renderer up', v)
})
