import { greet } from './greet.js';

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js');
}
window.viewer.render('x').then((out) => {
  document.body.textContent = greet(out);
});
