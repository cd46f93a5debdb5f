const settings = require("./lib/settings");
console.log(settings.version);
