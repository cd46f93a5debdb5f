(function(modules) {
  var installedModules = {};
  function __webpack_require__(moduleId) {
    if (installedModules[moduleId]) return installedModules[moduleId].exports;
    var module = installedModules[moduleId] = { i: moduleId, l: false, exports: {} };
    modules[moduleId].call(module.exports, module, module.exports, __webpack_require__);
    module.l = true;
    return module.exports;
  }
  return __webpack_require__(__webpack_require__.s = 0);
})([
/* 0 */
function(module, exports, __webpack_require__) {
  var greet = __webpack_require__(1);
  var counter = __webpack_require__(2);
  document.title = greet("bundle") + counter.next();
},
/* 1 */
function(module, exports) {
  module.exports = function greet(name) { return "hello " + name; };
},
/* 2 */
function(module, exports) {
  var count = 0;
  exports.next = function () { count = count + 1; return count; };
},
/* 3: same code as 2 with other names */
function(m, e) {
  var n = 0;
  e.next = function () { n = n + 1; return n; };
}
]);

//# sourceMappingURL=renderer.js.map
