// Measures the rendered report in the browser and writes what it found into the DOM (for
// --dump-dom): per chart, whether its number table follows it, its rungs and the table's first
// column, and the axis labels whose boxes overlap, that stick out of the chart, and reference-line
// labels that sit on a bar.
(function () {
  function box(e) { var r = e.getBoundingClientRect();
    return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width}; }
  function hit(a, b) {
    return a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5;
  }
  function words(e) { return e.lastChild ? e.lastChild.textContent : e.textContent; }
  var found = [];
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var next = svg.nextElementSibling;
    var table = next && next.matches("table.numbers") ? next : null;
    var labels = Array.from(svg.querySelectorAll(".axis-label"));
    var boxes = labels.map(box), frame = box(svg), overlaps = [], outside = [], onBars = [];
    for (var i = 0; i < labels.length; i++) {
      for (var j = i + 1; j < labels.length; j++) {
        if (hit(boxes[i], boxes[j])) { overlaps.push([words(labels[i]), words(labels[j])]); }
      }
      var b = boxes[i];
      if (b.w === 0 || b.l < frame.l - 1 || b.r > frame.r + 1 || b.t < frame.t - 1 || b.b > frame.b + 1) {
        outside.push(words(labels[i]));
      }
    }
    var bars = Array.from(svg.querySelectorAll("rect.bar")).map(box);
    svg.querySelectorAll(".line-label").forEach(function (label) {
      if (bars.some(function (bar) { return hit(box(label), bar); })) { onBars.push(label.textContent); }
    });
    found.push({
      title: svg.querySelector("title").textContent,
      kind: svg.getAttribute("class"),
      table: table !== null,
      rungs: Array.from(svg.querySelectorAll("g.rung")).map(function (g) { return g.dataset.rung; }),
      rows: table ? Array.from(table.tBodies[0].rows).map(function (r) { return r.cells[0].textContent.trim(); }) : [],
      labels: labels.length, overlaps: overlaps, outside: outside, onBars: onBars
    });
  });
  var out = document.createElement("pre");
  out.id = "layout-check";
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
})();
