export function render(doc) {
  return String(doc);
}
