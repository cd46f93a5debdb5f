var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() {
  return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
};
var require_util = __commonJS({
  "node_modules/tiny/util.js"(exports, module) {
    module.exports = { twice: (x) => x * 2 };
  }
});
var require_tiny = __commonJS({
  "node_modules/tiny/index.js"(exports, module) {
    var util = require_util();
    module.exports = (x) => util.twice(x) + 1;
  }
});
require_tiny();
