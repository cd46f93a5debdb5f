(() => {
  var __webpack_modules__ = ({
    "./src/feature.js": ((module, exports) => {
      exports.feature = "before";
    }),
    17: ((module) => {
      module.exports = function greet(name) { return "Hello, " + name; };
    }),
    23: ((module) => {
      module.exports = { wrap: function (text) { var padded = " " + text + " "; return "[" + padded + "]"; } };
    }),
    31: ((module) => {
      module.exports = function clamp(value, low, high) { return Math.min(Math.max(value, low), high); };
    }),
    40: ((module) => {
      module.exports = { legacyFormat: function (date) { return date.toISOString(); } };
    }),
  });
  var __webpack_module_cache__ = {};
  function __webpack_require__(moduleId) {
    var cached = __webpack_module_cache__[moduleId];
    if (cached !== undefined) return cached.exports;
    var module = __webpack_module_cache__[moduleId] = { exports: {} };
    __webpack_modules__[moduleId](module, module.exports, __webpack_require__);
    return module.exports;
  }
  __webpack_require__(17)("world");
})();
