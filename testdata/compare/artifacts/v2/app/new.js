module.exports = "new";
