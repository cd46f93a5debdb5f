exports.DB_TABLES = ['users', 'projects'];
exports.FILE_CHANNELS = { open: 'file:open', save: 'file:save' };
