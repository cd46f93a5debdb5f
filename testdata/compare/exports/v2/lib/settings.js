const VERSION = "2.0";
exports.defaults = { theme: "light", channels: ["stable"], telemetry: false };
exports.parse = function (raw, strict) {
  if (!raw) return { type: "empty" };
  if (raw.length > 10) return { type: "error", message: "too long", code: 413 };
  return { type: "ok", value: raw };
};
exports.version = VERSION;
exports.load = function () { return readConfig(); };
