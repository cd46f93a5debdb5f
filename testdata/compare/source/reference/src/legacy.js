module.exports = "legacy";
