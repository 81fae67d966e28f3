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

  /* Set a node's text only when it differs (a live region reads only news). */
  function setText(node, text) { if (node.textContent !== text) node.textContent = text; }

  /* Lower case, letters and digits only: "GPT 5" finds "gpt-5". */
  function folded(text) { return text.toLowerCase().replace(/[^a-z0-9]/g, ""); }

  /* Save a view in the address: a new history entry (Back undoes it), or the current one
     rewritten (`replace`: each key typed into a field after its first). Nothing when the
     address already says it. */
  function setQuery(query, replace) {
    var text = query.toString();
    if (("?" + text) === location.search || (!text && !location.search)) return;
    var url = text ? "?" + text : location.pathname;
    if (replace) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
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
    // Typing: the first key of a run in one field adds a history entry, the next ones
    // rewrite it; a choice (select, date, reset, sort) adds one. `change` after typing
    // (leaving the field) finds the view already shown and changes nothing, so the click
    // that moved the focus lands on the row it was aimed at.
    this.typing = null;
    this.form.addEventListener("input", function (event) {
      var field = event.target;
      var replace = self.typing === field;
      self.typing = field.type === "search" ? field : null;
      self.update(replace ? "replace" : "push");
    });
    this.form.addEventListener("change", function () { self.update("push"); });
    this.form.addEventListener("submit", function (event) { event.preventDefault(); });
    this.form.addEventListener("reset", function () {
      self.sort = "rank";
      self.dir = "asc";
      self.typing = null;
      setTimeout(function () { self.update("push"); }, 0);  // after the fields are reset
    });
    this.link.addEventListener("click", function (event) {
      if (self.picked.length < 2) event.preventDefault();
    });
    window.addEventListener("popstate", function () {  // Back and Forward: the entry's view
      var picked = self.picked;
      self.restore(new URLSearchParams(location.search));
      self.picked = picked;  // ticks are a selection, not a view: Back keeps them
      self.typing = null;
      self.update("replace");
    });
    this.update(null);
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
      self.typing = null;
      self.update("push");
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
      self.update("replace");
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
    var known = this.heads.some(function (th) { return th.dataset.key === key; });
    this.sort = key && known ? key : "rank";
    this.dir = key && known && query.get("dir") === "desc" ? "desc" : "asc";
    var ids = this.rows.map(function (row) { return row.dataset.id; });
    this.picked = (query.get("compare") || "").split(",").filter(function (id, i, all) {
      return ids.indexOf(id) >= 0 && all.indexOf(id) === i;
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

  /* Show the view the fields, sort and picks say; `save`: "push" or "replace" the address
     (null: leave it). Only what changed is touched: a row is moved only when the order
     changed and hidden only when it was shown, so nothing moves under the pointer. */
  Leaderboard.prototype.update = function (save) {
    var self = this;
    var f = this.filters();
    var shown = 0;
    var order = this.ordered();
    var moved = order.some(function (row, i) { return self.body.rows[i] !== row; });
    order.forEach(function (row) {
      var visible = self.shows(row, f);
      if (row.hidden === visible) row.hidden = !visible;
      shown += visible ? 1 : 0;
      if (moved) self.body.appendChild(row);
    });
    var label = "";
    this.heads.forEach(function (th) {
      if (th.dataset.key === self.sort) {
        th.setAttribute("aria-sort", self.dir === "asc" ? "ascending" : "descending");
        label = th.dataset.label || th.querySelector("button").textContent.trim();
      } else th.removeAttribute("aria-sort");
    });
    // groups are runs of the rank order: shaded only while the table is in it
    this.table.classList.toggle("resorted", this.sort !== "rank" || this.dir !== "asc");
    this.updatePicks();
    var status = "Showing " + shown + " of " + this.rows.length + " models, sorted by " +
      label + (this.dir === "asc" ? ", ascending." : ", descending.");
    setText(this.status, status);
    if (save) setQuery(this.query(f), save === "replace");
  };

  Leaderboard.prototype.updatePicks = function () {
    var picked = this.picked;
    var full = picked.length >= MAX_COMPARED;
    this.rows.forEach(function (row) {
      var box = row.querySelector("input.pick");
      var checked = picked.indexOf(box.value) >= 0;
      if (box.checked !== checked) box.checked = checked;
      if (box.disabled !== (full && !checked)) box.disabled = full && !checked;
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
    setText(this.link, "Compare " + picked.length + " selected");
    setText(byId("compare-hint"), full ? "Four is the most to compare." :
      "Tick 2 to 4 models to compare them.");
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
    row("Response time per task", function (m) {
      var s = m.speed.responseTimeSec;
      return valueCell(s === null || s === undefined ? "–" : s + " s", "", false);
    });
    row("Cost per task", function (m) { return valueCell(money(m.costPerTask.usd), "", false); });
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

  /* The models the address asks for (`m`, repeated or comma-separated), each by id, name or
     alias (case and punctuation ignored); what names no published model is `junk`, what
     comes after the fourth model is `dropped`. `models`: [id, name, alias...] each. */
  function comparedIds(models) {
    function find(value) {
      var key = folded(value);
      var exact = models.filter(function (m) { return m.indexOf(value) >= 0; })[0];
      var loose = models.filter(function (m) {
        return key && m.some(function (n) { return folded(n) === key; });
      })[0];
      return (exact || loose || [null])[0];
    }
    var out = { ids: [], junk: [], dropped: [] };
    new URLSearchParams(location.search).getAll("m").forEach(function (value) {
      var whole = find(value.trim());  // a name may hold a comma
      var parts = whole ? [value] : value.split(",");
      parts.forEach(function (part) {
        part = part.trim();
        var id = part && find(part);
        if (!part || out.ids.indexOf(id) >= 0) return;
        if (!id) out.junk.push(part);
        else if (out.ids.length < MAX_COMPARED) out.ids.push(id);
        else out.dropped.push(part);
      });
    });
    return out;
  }

  function compareView(root) {
    var form = byId("compare-form");
    var out = byId("compare-result");
    var status = byId("compare-status");
    var api = root.dataset.api;
    var site = root.dataset.site;
    var names = JSON.parse(byId("compare-dimensions").textContent);
    var picked = comparedIds(JSON.parse(byId("compare-names").textContent));
    var ids = picked.ids;
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (select, i) {
      select.value = ids[i] || "";
    });
    var notes = [];
    if (picked.junk.length) {
      notes.push("Skipped, not a published model: " + picked.junk.join(", ") + ".");
    }
    if (picked.dropped.length) {
      notes.push("Four is the most to compare: left out " + picked.dropped.join(", ") + ".");
    }
    var note = byId("compare-note");
    note.textContent = notes.join(" ");
    note.hidden = !notes.length;
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
