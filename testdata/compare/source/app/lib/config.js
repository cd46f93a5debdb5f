module.exports = { name: "shipped", retries: 5 };
