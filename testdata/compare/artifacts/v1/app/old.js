module.exports = "old";
