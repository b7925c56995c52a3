// Shared page behaviour: sortable tables, CSV downloads in the static report, the probing dashboard.
(function () {
  "use strict";

  // sortable tables: click a header; numbers sort numerically, empty cells last
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, col) {
      th.classList.add("sorts");
      th.addEventListener("click", function () {
        const body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        const descending = th.dataset.dir !== "desc";
        table.querySelectorAll("thead th").forEach(function (h) { delete h.dataset.dir; });
        th.dataset.dir = descending ? "desc" : "asc";
        const key = function (row) {
          const cell = row.cells[col]; if (!cell) return "";
          return cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
        };
        rows.sort(function (a, b) {
          const x = key(a), y = key(b);
          if (x === "" || y === "") return (x === "") - (y === "");
          const nx = Number(x), ny = Number(y);
          const c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
          return descending ? -c : c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });

  // CSV buttons (static report): the CSV text is embedded as JSON
  const csvData = document.getElementById("csv-data");
  if (csvData) {
    const csv = JSON.parse(csvData.textContent);
    document.querySelectorAll("button.csv").forEach(function (btn) {
      btn.addEventListener("click", function () {
        const blob = new Blob([csv[btn.dataset.board]], { type: "text/csv" });
        const a = document.createElement("a");
        a.href = URL.createObjectURL(blob); a.download = btn.dataset.board + ".csv";
        document.body.appendChild(a); a.click(); a.remove();
      });
    });
  }

  const dataNode = document.getElementById("probing-data");
  if (dataNode && document.getElementById("probing-dashboard")) probing(JSON.parse(dataNode.textContent));

  function uniq(values) { return Array.from(new Set(values)).sort(); }
  function mean(xs) { const v = xs.filter(function (x) { return x !== null && !isNaN(x); }); return v.length ? v.reduce(function (a, b) { return a + b; }, 0) / v.length : null; }

  // Pearson r, or null where it is undefined (fewer than 2 shared categories, or a constant profile)
  function pearson(a, b) {
    const n = a.length; if (n < 2) return null;
    const ma = mean(a), mb = mean(b); let sab = 0, saa = 0, sbb = 0;
    for (let i = 0; i < n; i++) { sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) ** 2; sbb += (b[i] - mb) ** 2; }
    return saa && sbb ? sab / Math.sqrt(saa * sbb) : null;
  }

  // average-linkage clustering on 1 - r; returns the leaf order
  function clusterOrder(names, profile) {
    const dist = function (x, y) {
      const cats = Object.keys(profile[x]).filter(function (c) { return c in profile[y]; });
      const r = pearson(cats.map(function (c) { return profile[x][c]; }), cats.map(function (c) { return profile[y][c]; }));
      return r === null ? 1 : 1 - r;  // no evidence of similarity: as far as uncorrelated profiles
    };
    let clusters = names.map(function (n) { return [n]; });
    while (clusters.length > 1) {
      let best = null;
      for (let i = 0; i < clusters.length; i++) for (let j = i + 1; j < clusters.length; j++) {
        let s = 0; clusters[i].forEach(function (x) { clusters[j].forEach(function (y) { s += dist(x, y); }); });
        const d = s / (clusters[i].length * clusters[j].length);
        if (!best || d < best[0]) best = [d, i, j];
      }
      const merged = clusters[best[1]].concat(clusters[best[2]]);
      clusters = clusters.filter(function (_, k) { return k !== best[1] && k !== best[2]; }).concat([merged]);
    }
    return clusters[0] || [];
  }

  function probing(rows) {
    const dims = ["family", "language", "category", "model", "aggregation", "probe"];
    const select = {};
    dims.forEach(function (d) {
      select[d] = document.getElementById("filter-" + d);
      uniq(rows.map(function (r) { return r[d]; })).forEach(function (v) {
        const o = document.createElement("option"); o.value = v; o.textContent = v; select[d].appendChild(o);
      });
      select[d].addEventListener("change", draw);
    });
    const metricSel = document.getElementById("filter-metric");
    metricSel.addEventListener("change", draw);
    const status = document.getElementById("probing-status");
    // titles left-aligned above the plot area, the toolbar standing vertically at the right: it never covers them
    const layout = function (title, extra) { return Object.assign({ title: { text: title, font: { size: 14 }, x: 0, xanchor: "left", y: 0.98, yanchor: "top" }, margin: { l: 110, r: 50, t: 60, b: 90 }, height: 380, modebar: { orientation: "v" } }, extra || {}); };
    const config = { displaylogo: false, responsive: true };
    // every category / language label shown (Plotly skips every second one when they are dense)
    const everyLabel = function (n) { return { type: "category", dtick: 1, automargin: true, tickfont: { size: n > 20 ? 9 : 11 } }; };
    const tall = function (n) { return Math.max(380, 16 * n + 150); };

    function draw() {
      const metric = metricSel.value;
      const kept = rows.filter(function (r) { return dims.every(function (d) { return !select[d].value || r[d] === select[d].value; }) && r[metric] !== null && r[metric] !== undefined; });
      const languages = uniq(kept.map(function (r) { return r.language; }));
      const categories = uniq(kept.map(function (r) { return r.category; }));
      const layers = uniq(kept.map(function (r) { return r.layer; })).map(Number).sort(function (a, b) { return a - b; });
      status.textContent = kept.length + " experiments · " + languages.length + " languages · " + categories.length + " categories · " + layers.length + " layers";
      status.dataset.count = kept.length;
      // best layer per language x category
      const best = {};
      kept.forEach(function (r) {
        const k = r.language + "\u0000" + r.category;
        if (!(k in best) || r[metric] > best[k][metric]) best[k] = r;
      });
      const profile = {};
      languages.forEach(function (l) { profile[l] = {}; });
      Object.keys(best).forEach(function (k) { const r = best[k]; profile[r.language][r.category] = r[metric]; });
      const order = clusterOrder(languages, profile);
      Plotly.react("plot-lang-cat", [{
        type: "heatmap", x: categories, y: order, colorscale: "Viridis", hoverongaps: false,
        z: order.map(function (l) { return categories.map(function (c) { return c in profile[l] ? profile[l][c] : null; }); }),
        text: order.map(function (l) { return categories.map(function (c) { const r = best[l + "\u0000" + c]; return r ? "layer " + r.layer + ", n=" + r.n_test : ""; }); }),
        hovertemplate: "%{y} · %{x}: %{z:.3f} (%{text})<extra></extra>"
      }], layout("Language × category: best-layer " + metric, { height: tall(order.length), xaxis: everyLabel(categories.length), yaxis: everyLabel(order.length) }), config);
      // category x layer (mean over the languages shown)
      Plotly.react("plot-layer-cat", [{
        type: "heatmap", x: layers, y: categories, colorscale: "Viridis", hoverongaps: false,
        z: categories.map(function (c) { return layers.map(function (k) { return mean(kept.filter(function (r) { return r.category === c && r.layer === k; }).map(function (r) { return r[metric]; })); }); }),
        hovertemplate: "%{y}, layer %{x}: %{z:.3f}<extra></extra>"
      }], layout("Category × layer: " + metric + " (mean over shown languages)", { height: tall(categories.length), xaxis: { title: { text: "layer" }, dtick: 1 }, yaxis: everyLabel(categories.length) }), config);
      // layer curves per task (at most 8), with control and majority
      const tasks = uniq(kept.map(function (r) { return r.task + " · " + r.aggregation + " · " + r.probe + " · " + r.model; })).slice(0, 5);
      const traces = [];
      tasks.forEach(function (t, i) {
        const own = kept.filter(function (r) { return r.task + " · " + r.aggregation + " · " + r.probe + " · " + r.model === t; }).sort(function (a, b) { return a.layer - b.layer; });
        const colour = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"][i];
        traces.push({ x: own.map(function (r) { return r.layer; }), y: own.map(function (r) { return r.accuracy; }), name: t, mode: "lines+markers", line: { color: colour } });
        if (own.some(function (r) { return r.control_accuracy !== null && r.control_accuracy !== undefined; })) {
          traces.push({ x: own.map(function (r) { return r.layer; }), y: own.map(function (r) { return r.control_accuracy; }), name: "control · " + t, mode: "lines", line: { color: colour, dash: "dash" } });
          traces.push({ x: own.map(function (r) { return r.layer; }), y: own.map(function (r) { return r.selectivity; }), name: "selectivity · " + t, mode: "lines", line: { color: colour, dash: "dashdot", width: 1 }, visible: "legendonly" });
        }
        const maj = own.length ? own[0].majority : null;
        if (maj !== null && maj !== undefined) traces.push({ x: [layers[0], layers[layers.length - 1]], y: [maj, maj], name: "majority · " + t, mode: "lines", line: { color: colour, dash: "dot", width: 1 } });
      });
      Plotly.react("plot-curves", traces, layout("Layer curves (first " + tasks.length + " tasks shown; filter to choose)", { height: 460, xaxis: { title: { text: "layer" }, dtick: 1 }, yaxis: { title: { text: "test accuracy" } }, legend: { font: { size: 10 } } }), config);
      // language similarity in cluster order
      const r = order.map(function (a) { return order.map(function (b) { const cats = Object.keys(profile[a]).filter(function (c) { return c in profile[b]; }); return pearson(cats.map(function (c) { return profile[a][c]; }), cats.map(function (c) { return profile[b][c]; })); }); });
      Plotly.react("plot-clusters", [{
        type: "heatmap", x: order, y: order, colorscale: "RdBu", zmin: -1, zmax: 1, hoverongaps: false, z: r,
        text: r.map(function (row) { return row.map(function (v) { return v === null ? "— (undefined: too few shared categories or a constant profile)" : v.toFixed(2); }); }),
        hovertemplate: "%{y} vs %{x}: r = %{text}<extra></extra>"
      }], layout("Language clustering: Pearson r of best-layer profiles (blank: r undefined)", { height: tall(order.length), xaxis: everyLabel(order.length), yaxis: everyLabel(order.length) }), config);
      document.getElementById("plot-clusters").dataset.undefinedPairs = r.reduce(function (n, row) { return n + row.filter(function (v) { return v === null; }).length; }, 0);
    }
    draw();
  }
})();
