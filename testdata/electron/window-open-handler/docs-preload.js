window.addEventListener('DOMContentLoaded', () => {});
