module.exports = function index() { return "x"; };
