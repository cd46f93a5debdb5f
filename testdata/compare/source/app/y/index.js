module.exports = function index() { return "y"; };
