(function () {
  var title = document.getElementById("title");
  title.textContent = "Versioned app";
})();
//# sourceMappingURL=app.js.map
