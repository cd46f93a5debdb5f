"use strict";
// A wrapper package: the app imports Electron only through it.
module.exports = require("electron");
