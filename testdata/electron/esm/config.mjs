export const defaults = {
  contextIsolation: true,
  sandbox: false,
};

export const VIEW_CHANNEL = 'viewer:render';
