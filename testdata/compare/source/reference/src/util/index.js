module.exports = function index() { return "reference index"; };
