"use strict";

const {
  listPackagedElectronRuntimeFiles,
} = require("./release/runtime-file-policy.cjs");

const electronRuntimeFiles = listPackagedElectronRuntimeFiles();

module.exports = {
  appId: "com.example.launcher",
  productName: "Example Launcher",
  asar: true,
  asarUnpack: ["**/*.node"],
  disableSanityCheckAsar: false,
  electronFuses: {
    // The managed connector still requires ELECTRON_RUN_AS_NODE.
    runAsNode: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    loadBrowserProcessSpecificV8Snapshot: false,
    grantFileProtocolExtraPrivileges: true,
  },
  forceCodeSigning: false,
  publish: null,
  beforePack: () => undefined,
  files: [
    "dist/index.html",
    ...electronRuntimeFiles,
    "package.json",
  ],
  directories: { buildResources: "build" },
  win: {
    target: ["nsis", "zip"],
    signExecutable: false,
  },
};
