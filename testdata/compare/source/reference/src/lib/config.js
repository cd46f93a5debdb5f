module.exports = { name: "reference", retries: 3 };
