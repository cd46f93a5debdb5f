exports.registerMenu = function (win) {
  const template = [{ label: 'File', submenu: [{ role: 'quit' }] },
  return template
}
