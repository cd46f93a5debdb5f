export const greet = (s) => `hello ${s}`;
