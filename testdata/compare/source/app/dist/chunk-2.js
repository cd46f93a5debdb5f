(self.webpackChunkapp = self.webpackChunkapp || []).push([[2], {
  "./src/shared.js": ((module, exports) => {
    exports.shared = function (v) { return v + v; };
  }),
}]);
