import { greet } from './greet.js';

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js');
}
document.body.textContent = greet(await window.viewer.render('x'));
