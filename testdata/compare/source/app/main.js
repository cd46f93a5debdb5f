const config = require("./lib/config");
console.log("starting", config.name);
