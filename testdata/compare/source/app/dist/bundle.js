(() => {
  var __webpack_modules__ = ({
    "./src/views/a.js": ((module, exports) => {
      exports.a = () => "view a";
    }),
    "./src/views/b.js": ((module, exports) => {
      exports.b = () => "view b";
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
  __webpack_require__("./src/views/a.js");
})();
