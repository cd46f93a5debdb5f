function baseWebPreferences() {
  return {
    contextIsolation: false,
    nodeIntegration: true,
  };
}

module.exports = { baseWebPreferences };
