// Channel names shared by the main process and the preload.
exports.CHANNEL_SAVE = 'file:save';
exports.CHANNEL_OPEN = 'file:open';
exports.CHANNEL_STATUS = 'status:update';
