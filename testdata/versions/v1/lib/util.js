exports.normalise = (name) => String(name).trim();
