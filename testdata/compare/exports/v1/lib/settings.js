const VERSION = "1." + "4";
exports.defaults = { theme: "dark", retries: 3, channels: ["stable", "beta"] };
exports.parse = function (raw) {
  if (!raw) return { type: "empty" };
  if (raw.length > 10) return { type: "error", message: "too long" };
  return { type: "ok", value: raw };
};
exports.version = VERSION;
exports.load = function () { return readConfig(); };
