/* modelscores: sort, filter, search and pick models on the leaderboard; draw the compare view.
   No dependencies, no build step. Without it the pages are complete documents; it reads the
   leaderboard's own rows (data-* attributes) and, for the compare view, the static API JSON.
   A view's state lives in the URL query, so a link to it restores the same view. */
(function () {
  "use strict";

  var MAX_COMPARED = 4;
  var FILTERS = ["q", "provider", "open", "after", "composite", "evidence", "provisional"];

  function byId(id) { return document.getElementById(id); }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  /* Lower case, letters and digits only: "GPT 5" finds "gpt-5". */
  function folded(text) { return text.toLowerCase().replace(/[^a-z0-9]/g, ""); }

  function setQuery(query) {
    var text = query.toString();
    history.replaceState(null, "", text ? "?" + text : location.pathname);
  }

  /* ---- the leaderboard ------------------------------------------------------------------ */

  function Leaderboard(table, form) {
    this.table = table;
    this.form = form;
    this.body = table.tBodies[0];
    this.rows = Array.prototype.slice.call(this.body.rows);
    this.heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    this.status = byId("leaderboard-status");
    this.link = byId("compare-link");
    this.compareUrl = this.link.getAttribute("href");
    this.sort = "rank";
    this.dir = "asc";
    this.picked = [];
    this.rows.forEach(function (row, index) { row.dataset.order = index; });
  }

  Leaderboard.prototype.start = function () {
    var self = this;
    this.heads.forEach(function (th) { if (th.dataset.key) self.sortButton(th); });
    this.rows.forEach(function (row) { self.pickBox(row); });
    this.restore(new URLSearchParams(location.search));
    var more = byId("f-more");
    var filters = this.filters();
    this.expand(more, FILTERS.some(function (name) { return name !== "q" && filters[name]; }));
    more.addEventListener("click", function () {
      self.expand(more, more.getAttribute("aria-expanded") !== "true");
    });
    this.form.hidden = false;
    this.form.addEventListener("input", function () { self.update(true); });
    this.form.addEventListener("change", function () { self.update(true); });
    this.form.addEventListener("submit", function (event) { event.preventDefault(); });
    this.form.addEventListener("reset", function () {
      self.sort = "rank";
      self.dir = "asc";
      setTimeout(function () { self.update(true); }, 0);  // after the fields are reset
    });
    this.link.addEventListener("click", function (event) {
      if (self.picked.length < 2) event.preventDefault();
    });
    this.update(false);
  };

  /* Show or fold the filters besides the search box (folded only on a phone, by CSS). */
  Leaderboard.prototype.expand = function (button, open) {
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.textContent = open ? "Fewer filters" : "More filters";
    this.form.classList.toggle("expanded", open);
  };

  Leaderboard.prototype.sortButton = function (th) {
    var self = this;
    var button = el("button", { type: "button", "class": "sort" });
    while (th.firstChild) button.appendChild(th.firstChild);
    button.appendChild(el("span", { "class": "arrow", "aria-hidden": "true" }));
    th.appendChild(button);
    button.addEventListener("click", function () {
      var key = th.dataset.key;
      if (self.sort === key) self.dir = self.dir === "asc" ? "desc" : "asc";
      else { self.sort = key; self.dir = th.dataset.dir || "asc"; }
      self.update(true);
    });
  };

  /* A checkbox in the rank cell (not in the row header, whose name it would change). */
  Leaderboard.prototype.pickBox = function (row) {
    var self = this;
    var name = row.querySelector("th a").textContent.trim();
    var box = el("input", { type: "checkbox", "class": "pick", value: row.dataset.id,
      "aria-label": "Compare " + name });
    row.cells[0].insertBefore(box, row.cells[0].firstChild);
    box.addEventListener("change", function () {
      var at = self.picked.indexOf(box.value);
      if (box.checked && at < 0) self.picked.push(box.value);
      if (!box.checked && at >= 0) self.picked.splice(at, 1);
      self.update(true);
    });
  };

  Leaderboard.prototype.restore = function (query) {
    var form = this.form;
    FILTERS.forEach(function (name) {
      var field = form.elements[name];
      var value = query.get(name) || "";
      field.value = value;
      if (field.value !== value) field.value = "";  // not one of a select's options
    });
    var key = query.get("sort");
    if (key && this.heads.some(function (th) { return th.dataset.key === key; })) {
      this.sort = key;
      this.dir = query.get("dir") === "desc" ? "desc" : "asc";
    }
    var known = this.rows.map(function (row) { return row.dataset.id; });
    this.picked = (query.get("compare") || "").split(",").filter(function (id, i, all) {
      return known.indexOf(id) >= 0 && all.indexOf(id) === i;
    }).slice(0, MAX_COMPARED);
  };

  Leaderboard.prototype.filters = function () {
    var form = this.form;
    var out = {};
    FILTERS.forEach(function (name) { out[name] = form.elements[name].value.trim(); });
    return out;
  };

  Leaderboard.prototype.shows = function (row, f) {
    var d = row.dataset;
    if (f.q) {
      var q = folded(f.q);
      if (!d.names.split("|").some(function (n) { return folded(n).indexOf(q) >= 0; })) return false;
    }
    if (f.provider && d.provider !== f.provider) return false;
    if (f.open && d.open !== (f.open === "open" ? "1" : "0")) return false;
    if (f.after && !(d.released && d.released > f.after)) return false;
    var ranked = row.cells[0].dataset.v !== "";
    if (f.composite && ranked !== (f.composite === "yes")) return false;
    if (f.evidence && (d.imputed === "0") !== (f.evidence === "measured")) return false;
    if (f.provisional === "hide" && d.provisional === "1") return false;
    return true;
  };

  Leaderboard.prototype.column = function () {
    var key = this.sort;
    var index = 0;
    this.heads.forEach(function (th, i) { if (th.dataset.key === key) index = i; });
    return index;
  };

  /* Sort value of a row's cell: a number (data-v), its text (data-s, else the cell's), or
     null for no value (always last). */
  function sortValue(cell) {
    if (cell.dataset.s !== undefined) return cell.dataset.s.toLowerCase();
    var raw = cell.dataset.v;
    if (raw === undefined) return cell.textContent.trim().toLowerCase();
    return raw === "" ? null : parseFloat(raw);
  }

  Leaderboard.prototype.ordered = function () {
    var column = this.column();
    var sign = this.dir === "desc" ? -1 : 1;
    return this.rows.slice().sort(function (a, b) {
      var x = sortValue(a.cells[column]);
      var y = sortValue(b.cells[column]);
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else if (x !== y) {
        return sign * (x < y ? -1 : 1);  // numbers, or text by code point (lower case)
      }
      return a.dataset.order - b.dataset.order;
    });
  };

  Leaderboard.prototype.update = function (save) {
    var self = this;
    var f = this.filters();
    var shown = 0;
    this.ordered().forEach(function (row) {
      var visible = self.shows(row, f);
      row.hidden = !visible;
      shown += visible ? 1 : 0;
      self.body.appendChild(row);
    });
    var label = "";
    this.heads.forEach(function (th) {
      if (th.dataset.key === self.sort) {
        th.setAttribute("aria-sort", self.dir === "asc" ? "ascending" : "descending");
        label = th.querySelector("button").textContent.trim();
      } else th.removeAttribute("aria-sort");
    });
    // groups are runs of the rank order: shaded only while the table is in it
    this.table.classList.toggle("resorted", this.sort !== "rank" || this.dir !== "asc");
    this.updatePicks();
    this.status.textContent = "Showing " + shown + " of " + this.rows.length + " models, sorted by " +
      label + (this.dir === "asc" ? ", ascending." : ", descending.");
    if (save) setQuery(this.query(f));
  };

  Leaderboard.prototype.updatePicks = function () {
    var picked = this.picked;
    var full = picked.length >= MAX_COMPARED;
    this.rows.forEach(function (row) {
      var box = row.querySelector("input.pick");
      box.checked = picked.indexOf(box.value) >= 0;
      box.disabled = full && !box.checked;
    });
    var query = new URLSearchParams();
    picked.forEach(function (id) { query.append("m", id); });
    if (picked.length >= 2) {
      this.link.setAttribute("href", this.compareUrl + "?" + query.toString());
      this.link.removeAttribute("aria-disabled");
    } else {
      this.link.setAttribute("href", this.compareUrl);
      this.link.setAttribute("aria-disabled", "true");
    }
    this.link.textContent = "Compare " + picked.length + " selected";
    byId("compare-hint").textContent = full ? "Four is the most to compare." :
      "Tick 2 to 4 models to compare them.";
  };

  Leaderboard.prototype.query = function (f) {
    var query = new URLSearchParams();
    FILTERS.forEach(function (name) { if (f[name]) query.set(name, f[name]); });
    if (this.sort !== "rank" || this.dir !== "asc") {
      query.set("sort", this.sort);
      query.set("dir", this.dir);
    }
    if (this.picked.length) query.set("compare", this.picked.join(","));
    return query;
  };

  /* ---- the compare view ----------------------------------------------------------------- */

  function whole(x) { return x === null || x === undefined ? "–" : String(Math.round(x)); }

  function money(x) {
    if (x === null || x === undefined) return "–";
    if (x >= 1 || x === 0) {
      return "$" + x.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    var digits = x.toFixed(4).replace(/0+$/, "");
    return "$" + (digits.split(".")[1].length >= 2 ? digits : x.toFixed(2));
  }

  function range(low, high) {
    return low === null || low === undefined ? "" : whole(low) + "–" + whole(high);
  }

  /* Which pairs the rank bands separate: the rule of the MCP tool compare_models. */
  function distinguishability(models) {
    var banded = models.filter(function (m) { return m.rank !== null && m.rankLow !== null; })
      .sort(function (a, b) { return a.rank - b.rank; });
    var pairs = [];
    banded.forEach(function (upper, i) {
      banded.slice(i + 1).forEach(function (lower) {
        pairs.push({ upper: upper, lower: lower, apart: lower.rankLow > upper.rankHigh });
      });
    });
    return { pairs: pairs, unranked: models.filter(function (m) { return banded.indexOf(m) < 0; }) };
  }

  function valueCell(main, sub, imputed) {
    var cell = el("td", { "class": "num" });
    var value = el("span", { "class": imputed ? "imp strong" : "strong", text: main });
    if (imputed) {
      value.appendChild(el("span", { "class": "mark", "aria-hidden": "true", text: "i" }));
      value.appendChild(el("span", { "class": "visually-hidden", text: " (imputed)" }));
    }
    cell.appendChild(value);
    if (sub) cell.appendChild(el("span", { "class": "sub", text: " " + sub }));
    return cell;
  }

  /* A provisional composite's cell says so, and what it rests on (METHODOLOGY 3.3). */
  function provisional(cell, m) {
    if (m.provisional && m.iqCoverage) {
      cell.appendChild(el("span", { "class": "sub prov", text: " provisional: " +
        m.iqCoverage.directDimensions + " of " + m.iqCoverage.totalDimensions +
        " dimensions measured" }));
    }
    return cell;
  }

  function compareTable(models, names, link) {
    var head = el("tr", {}, [el("th", { scope: "col", text: "Model" })]);
    models.forEach(function (m) {
      head.appendChild(el("th", { scope: "col" }, [el("a", { href: link(m.url), text: m.name })]));
    });
    var body = el("tbody");
    function row(label, cell) {
      var tr = el("tr", {}, [el("th", { scope: "row", text: label })]);
      models.forEach(function (m) { tr.appendChild(cell(m)); });
      body.appendChild(tr);
    }
    row("Composite IQ (95% range)", function (m) {
      return provisional(valueCell(whole(m.iq), range(m.iqLow95, m.iqHigh95), false), m);
    });
    row("Rank (band)", function (m) {
      return provisional(valueCell(m.rank === null ? "not ranked" : "#" + m.rank,
        m.rankLow === null ? "" : "band " + m.rankLow + "–" + m.rankHigh, false), m);
    });
    names.forEach(function (pair) {
      var slug = pair[0];
      row(pair[1], function (m) {
        var d = m.dimensions[slug];
        return valueCell(whole(d.iq), range(d.iqLow95, d.iqHigh95), d.imputed && d.iq !== null);
      });
    });
    row("Imputed dimensions", function (m) {
      var count = names.filter(function (pair) {
        var d = m.dimensions[pair[0]];
        return d.imputed && d.iq !== null;
      }).length;
      return el("td", { "class": "num", text: count + " of " + names.length });
    });
    row("Emotional reasoning (EQ)", function (m) { return valueCell(whole(m.emotionalReasoning), "", false); });
    row("Effective cost", function (m) { return valueCell(money(m.cost.effectivePer1M), "", false); });
    row("Provider", function (m) { return el("td", { text: m.provider }); });
    row("Released", function (m) { return el("td", { "class": "date", text: m.releaseDate || "–" }); });
    row("Weights", function (m) { return el("td", { text: m.openSource ? "open" : "closed" }); });
    return el("table", { id: "compare-table" }, [
      el("caption", { text: "Compared models (95% ranges)" }),
      el("thead", {}, [head]), body
    ]);
  }

  function verdicts(models) {
    var found = distinguishability(models);
    var list = el("ul", { id: "compare-verdicts" });
    found.pairs.forEach(function (p) {
      var bands = " (rank bands " + p.upper.rankLow + "–" + p.upper.rankHigh + " and " +
        p.lower.rankLow + "–" + p.lower.rankHigh + (p.apart ? " do not overlap)" : " overlap)");
      list.appendChild(el("li", { "data-pair": p.upper.id + " " + p.lower.id,
        "data-apart": p.apart ? "yes" : "no",
        text: p.apart ? p.upper.name + " ranks above " + p.lower.name + bands
          : p.upper.name + " and " + p.lower.name + ": not distinguishable" + bands }));
    });
    found.unranked.forEach(function (m) {
      list.appendChild(el("li", { "data-unranked": m.id, text: m.name + ": no composite rank, so no band" }));
    });
    return list;
  }

  function compareView(root) {
    var form = byId("compare-form");
    var out = byId("compare-result");
    var status = byId("compare-status");
    var api = root.dataset.api;
    var site = root.dataset.site;
    var names = JSON.parse(byId("compare-dimensions").textContent);
    var ids = [];
    new URLSearchParams(location.search).getAll("m").forEach(function (value) {
      value.split(",").forEach(function (id) {
        if (id && ids.indexOf(id) < 0 && ids.length < MAX_COMPARED) ids.push(id);
      });
    });
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (select, i) {
      select.value = ids[i] || "";
    });
    if (ids.length < 2) {
      status.textContent = "Choose 2 to 4 models and press Compare.";
      return;
    }
    status.textContent = "Loading " + ids.length + " models…";
    function link(url) { return url.indexOf(site) === 0 ? root.dataset.root + url.slice(site.length) : url; }
    Promise.all(ids.map(function (id) {
      return fetch(api + encodeURIComponent(id)).then(function (r) { return r.ok ? r.json() : null; });
    })).then(function (models) {
      var missing = ids.filter(function (id, i) { return !models[i]; });
      models = models.filter(Boolean);
      out.textContent = "";
      if (models.length < 2) {
        status.textContent = "Not enough published models to compare: " + missing.join(", ") + " not found.";
        return;
      }
      var wrap = el("div", { "class": "table-wrap", tabindex: "0", role: "region",
        "aria-label": "Comparison table" }, [compareTable(models, names, link)]);
      out.appendChild(wrap);
      out.appendChild(el("h2", { id: "apart", text: "Can the data tell them apart?" }));
      out.appendChild(el("p", { "class": "note", text: "By composite IQ at 95% confidence: two " +
        "models are told apart when their rank bands do not overlap." }));
      out.appendChild(verdicts(models));
      status.textContent = "Comparing " + models.map(function (m) { return m.name; }).join(", ") + "." +
        (missing.length ? " Not found: " + missing.join(", ") + "." : "");
    }).catch(function () {
      status.textContent = "The model data could not be loaded.";
    });
  }

  var table = byId("leaderboard-table");
  var controls = byId("leaderboard-controls");
  if (table && controls) new Leaderboard(table, controls).start();
  var compare = byId("compare");
  if (compare) compareView(compare);
})();
