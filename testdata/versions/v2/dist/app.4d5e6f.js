(function () {
  var title = document.getElementById("title");
  title.textContent = "Versioned app, second edition";
})();
//# sourceMappingURL=app.js.map
