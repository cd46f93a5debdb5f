(function () {
  "use strict";
  var hint = document.getElementById("facts-hint");
  function select(id) {
    var all = document.querySelectorAll(".facts");
    for (var i = 0; i < all.length; i++) { all[i].hidden = true; }
    var sel = document.querySelectorAll(".node.selected");
    for (var j = 0; j < sel.length; j++) { sel[j].classList.remove("selected"); }
    var facts = document.getElementById("facts-" + id);
    var node = document.getElementById(id);
    if (!facts || !node) { return; }
    facts.hidden = false;
    node.classList.add("selected");
    if (node.classList.contains("collapsed")) { document.body.classList.add("expanded"); }
    if (hint) { hint.hidden = true; }
  }
  var nodes = document.querySelectorAll("[data-node]");
  for (var i = 0; i < nodes.length; i++) {
    nodes[i].addEventListener("click", function (ev) { select(ev.currentTarget.getAttribute("data-node")); });
    nodes[i].addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(ev.currentTarget.getAttribute("data-node")); }
    });
  }
  var links = document.querySelectorAll(".to-node");
  for (var k = 0; k < links.length; k++) {
    links[k].addEventListener("click", function (ev) { select(ev.currentTarget.getAttribute("data-target")); });
  }
  var expand = document.getElementById("expand");
  if (expand) {
    expand.addEventListener("click", function () { document.body.classList.toggle("expanded"); });
  }
  var rank = { info: 1, low: 2, medium: 3, high: 4 };
  var sev = document.getElementById("sev-filter");
  var text = document.getElementById("text-filter");
  function filter() {
    var min = rank[sev.value] || 0;
    var q = text.value.toLowerCase();
    var rows = document.querySelectorAll(".finding");
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var ok = (rank[r.getAttribute("data-severity")] || 0) >= min && (q === "" || r.textContent.toLowerCase().indexOf(q) >= 0);
      r.hidden = !ok;
    }
  }
  if (sev && text) {
    sev.addEventListener("change", filter);
    text.addEventListener("input", filter);
  }
})();
