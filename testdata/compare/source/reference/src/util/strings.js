exports.upper = (s) => s.toUpperCase();
