export const versions = { node: process.versions.node, electron: process.versions.electron };
