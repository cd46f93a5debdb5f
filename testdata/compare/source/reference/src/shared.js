export const shared = (v) => v * 2;
