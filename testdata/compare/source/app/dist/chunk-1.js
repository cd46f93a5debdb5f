(self.webpackChunkapp = self.webpackChunkapp || []).push([[1], {
  "./src/shared.js": ((module, exports) => {
    exports.shared = (v) => v * 2;
  }),
}]);
