import path from 'node:path';

// Node's ESM __dirname.
export const bundlePath = import.meta.dirname;
export const preloadDir = path.join(bundlePath, '../preload');
