(() => {
  var __webpack_modules__ = ({
    "./src/feature.js": ((module, exports) => {
      exports.feature = "after";
    }),
    52: ((module) => {
      module.exports = function greet(name) { return "Hello, " + name; };
    }),
    8: ((module) => {
      module.exports = { wrap: function (t) { var p = " " + t + " "; return "[" + p + "]"; } };
    }),
    60: ((module) => {
      module.exports = function clamp(value, low, high) { return Math.min(Math.max(value, low), high); };
    }),
    61: ((module) => {
      module.exports = function clamp(value, low, high) { return Math.min(Math.max(value, low), high); };
    }),
    70: ((module) => {
      module.exports = { exportCsv: function (rows) { return rows.map(function (r) { return r.join(","); }).join("\n"); } };
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
  __webpack_require__(52)("world");
})();
