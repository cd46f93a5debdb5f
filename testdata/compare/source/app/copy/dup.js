module.exports = function dup(x) { return [x, x]; };
