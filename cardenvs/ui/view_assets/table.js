/* cardenvs table renderer: draws one scene (cardenvs.core.scene) in HTML, laid out as
   cardenvs.core.picture draws it (the same seat boxes, middle and panel; the constants come from
   LOOK, written by cardenvs.view from core.picture). Used by the replay viewer (viewer.js) and
   the browser game (web.js). No external resources: cards are HTML with inline SVG suits.

   Table.render(root, scene, opts): root is emptied and gets the stage; opts.legal maps a card
   string of the viewer's own hand (or exposed cards) to a callback, making that card clickable
   (class "legal", attribute data-legal). */
"use strict";
var Table = (function () {
  var L = JSON.parse(document.getElementById("cardenvs-look").textContent);
  // suit shapes in a 100 x 100 box, as core.picture._suit draws them (s = 100, centre 50, 50)
  var SUIT = {
    D: '<polygon points="50,0 88,50 50,100 12,50"/>',
    H: '<circle cx="26.5" cy="30" r="26"/><circle cx="73.5" cy="30" r="26"/>' +
      '<polygon points="1,37 99,37 50,98"/>',
    S: '<circle cx="26.5" cy="60" r="26"/><circle cx="73.5" cy="60" r="26"/>' +
      '<polygon points="1,53 99,53 50,0"/><polygon points="50,45 33,100 67,100"/>',
    C: '<circle cx="50" cy="26" r="21.5"/><circle cx="25" cy="56" r="21.5"/>' +
      '<circle cx="75" cy="56" r="21.5"/><circle cx="50" cy="50" r="15"/>' +
      '<polygon points="50,45 33,100 67,100"/>',
  };
  var STAR = (function () {
    var pts = [];
    for (var i = 0; i < 10; i++) {
      var a = -Math.PI / 2 + (i * Math.PI) / 5, r = i % 2 === 0 ? 50 : 21;
      pts.push((50 + r * Math.cos(a)).toFixed(1) + "," + (52 + r * Math.sin(a)).toFixed(1));
    }
    return '<polygon points="' + pts.join(" ") + '"/>';
  })();
  var SUIT_CHAR = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

  function svg(inner) {
    return '<svg viewBox="0 0 100 100" aria-hidden="true">' + inner + "</svg>";
  }
  function esc(t) {
    return String(t).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  function el(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function place(e, x, y, w, h) {
    e.style.left = x + "px";
    e.style.top = y + "px";
    if (w !== undefined) e.style.width = w + "px";
    if (h !== undefined) e.style.height = h + "px";
    return e;
  }
  /* A card string ("KH", "10S", "JK") in words with a suit sign, for titles: "K♥". */
  function cardText(c) {
    if (c === null) return "a face-down card";
    if (c.indexOf("JK") === 0) return "joker";
    return c.slice(0, -1) + SUIT_CHAR[c.slice(-1)];
  }

  /* One card (null: the back) of w x h pixels, not yet placed. */
  function card(c, w, h) {
    var d = el("div", "card");
    d.style.setProperty("--w", w);
    d.style.setProperty("--h", h);
    d.style.width = w + "px";
    d.style.height = h + "px";
    if (c === null) {
      d.classList.add("back");
      d.title = "face down";
      return d;
    }
    d.dataset.card = c;
    d.title = cardText(c);
    if (c.indexOf("JK") === 0) {
      d.classList.add("joker");
      d.innerHTML = '<div class="idx"><b>JK</b></div><div class="big">' + svg(STAR) + "</div>";
      return d;
    }
    var rank = c.slice(0, -1), suit = c.slice(-1);
    d.classList.add(suit === "H" || suit === "D" ? "red" : "black");
    var idx = '<div class="idx' + (rank.length > 1 ? " ten" : "") + '"><b>' + esc(rank) +
      "</b>" + svg(SUIT[suit]) + "</div>";
    var mid = "JQK".indexOf(rank) >= 0
      ? '<div class="court"><b>' + rank + "</b>" + svg(SUIT[suit]) + "</div>"
      : '<div class="big">' + svg(SUIT[suit]) + "</div>";
    d.innerHTML = idx + mid;
    return d;
  }

  /* core.picture._hand_layout: card size, cards per row, steps across and down. */
  function handLayout(n, aw, ah, sizes, faceUp) {
    var minStep = faceUp ? 21 : 9;
    for (var s = 0; s < sizes.length; s++) {
      var cw = sizes[s][0], ch = sizes[s][1];
      for (var rows = 1; rows <= 3; rows++) {
        var per = Math.max(1, Math.ceil(n / rows));
        var step = per === 1 ? cw + 4 : Math.min(cw + 4, (aw - cw) / (per - 1));
        var down = ch * 0.62;
        if (step >= minStep && ch + (rows - 1) * down <= ah) {
          return { cw: cw, ch: ch, per: per, step: step, down: down };
        }
      }
    }
    var last = sizes[sizes.length - 1];
    var r = Math.max(1, Math.floor((ah - last[1]) / (last[1] * 0.62)) + 1);
    var p = Math.max(1, Math.ceil(n / r));
    return {
      cw: last[0], ch: last[1], per: p, step: p === 1 ? last[0] : (aw - last[0]) / (p - 1),
      down: last[1] * 0.62,
    };
  }

  /* Cards in rows inside a box (core.picture._cards_block); returns the layout used. */
  function block(parent, cards, x, y, aw, ah, sizes, opts) {
    if (!cards.length) return null;
    var faceUp = cards.some(function (c) { return c !== null; });
    var lay = handLayout(cards.length, aw, ah, sizes, faceUp);
    var width = lay.cw + lay.step * (Math.min(lay.per, cards.length) - 1);
    var left = x + (aw - width) / 2;
    cards.forEach(function (c, i) {
      var row = Math.floor(i / lay.per), col = i % lay.per;
      var e = card(c, lay.cw, lay.ch);
      place(e, left + col * lay.step, y + row * lay.down);
      mark(e, c, opts);
      parent.appendChild(e);
    });
    lay.left = left;
    lay.width = width;
    return lay;
  }

  /* Make a card of the viewer's own seat clickable when opts.legal has it. */
  function mark(e, c, opts) {
    if (!opts || !opts.legal) return;
    if (c !== null && opts.legal[c]) {
      var act = opts.legal[c];
      e.classList.add("legal");
      e.dataset.legal = act.name;
      e.title = act.name;
      e.addEventListener("click", function () { act.onclick(); });
    } else if (opts.dimOthers) {
      e.classList.add("dim");
    }
  }

  function textWidth(text, px, bold) {
    var ctx = textWidth.ctx || (textWidth.ctx = document.createElement("canvas").getContext("2d"));
    ctx.font = (bold ? "bold " : "") + px + 'px "DejaVu Sans", sans-serif';
    return ctx.measureText(text).width;
  }

  function plate(parent, x, y, w, seat, toAct, viewer) {
    var p = place(el("div", "plate", parent), x, y, w);
    if (toAct) p.classList.add("act");
    else if (!seat.active) p.classList.add("out");
    if (viewer) p.classList.add("viewer");
    el("span", "name", p, seat.name + (toAct ? " \u25b8" : ""));
    var parts = [seat.role, seat.active ? "" : "out", viewer ? "view" : ""].filter(Boolean);
    var role = parts.join(" \u00b7 ");
    var room = w - 16 - textWidth(seat.name + "  ", 14, true) - textWidth(seat.score, 14, true);
    var spill = "";
    if (role && textWidth(role, 12) > room - 14) spill = role;
    else if (role) el("span", "role", p, role);
    if (seat.score) el("span", "score", p, seat.score);
    return spill;
  }

  function seatBox(parent, box, seat, toAct, viewer, bottom, opts) {
    var x = box[0], y = box[1], w = box[2], h = box[3];
    var spill = plate(parent, x, y, w, seat, toAct, viewer);
    var words = (spill ? [spill] : []).concat(seat.lines);
    var lines = [], cur = "";
    words.forEach(function (wd) {
      var cand = cur ? cur + "  \u00b7  " + wd : wd;
      if (cur && textWidth(cand, 12) > w - 8) { lines.push(cur); cur = wd; } else cur = cand;
    });
    if (cur) lines.push(cur);
    lines = lines.slice(0, 2);
    lines.forEach(function (line, i) {
      place(el("div", "seatlines", parent, line), x + 4, y + 27 + 15 * i, w - 8);
    });
    var top = y + 28 + 15 * Math.max(1, lines.length) + 2;
    var sizes = bottom ? [L.cards.L, L.cards.M, L.cards.S] : [L.cards.M, L.cards.S];
    var mine = viewer ? opts : null;
    if (mine && mine.legal && bottom) top += 10; // room for the lift of a legal card
    if (seat.exposed.length) {
      handAndExposed(parent, seat.hand, seat.exposed, [x, top, w, y + h - top], sizes, mine);
    } else if (seat.hand.length) {
      block(parent, seat.hand, x, top, w, y + h - top, sizes, mine);
    } else {
      place(el("div", "nocards", parent, "no cards"), x + w / 2, top + 10);
    }
  }

  /* core.picture._hand_and_exposed: Four Aces' hidden hand and exposed hand, each named. */
  function handAndExposed(parent, hand, exposed, box, sizes, opts) {
    var x = box[0], y = box[1], w = box[2], h = box[3];
    var groups = [[hand, "hand"], [exposed, "exposed"]].filter(function (g) { return g[0].length; });
    var gap = 26;
    if (w >= 300) {
      var n = groups.reduce(function (a, g) { return a + g[0].length; }, 0);
      var cw, ch, step;
      for (var s = 0; s < sizes.length; s++) {
        cw = sizes[s][0];
        ch = sizes[s][1];
        var room = w - gap * (groups.length - 1) - cw * groups.length;
        step = Math.min(cw + 5, room / Math.max(1, n - groups.length));
        if ((step >= 21 && ch + 14 <= h) || s === sizes.length - 1) break;
      }
      var widths = groups.map(function (g) { return cw + step * (g[0].length - 1); });
      var left = x + (w - widths.reduce(function (a, b) { return a + b; }, 0) -
        gap * (groups.length - 1)) / 2;
      groups.forEach(function (g, k) {
        g[0].forEach(function (c, i) {
          var e = place(card(c, cw, ch), left + i * step, y);
          mark(e, c, opts);
          parent.appendChild(e);
        });
        place(el("div", "label", parent, g[1]), left + widths[k] / 2, y + ch + 1);
        left += widths[k] + gap;
      });
      return;
    }
    var rowH = (h - 14 * groups.length) / groups.length;
    groups.forEach(function (g, k) {
      var top = y + k * (rowH + 14);
      var fitting = sizes.filter(function (s) { return s[1] <= rowH; });
      if (!fitting.length) fitting = [sizes[sizes.length - 1]];
      var lay = block(parent, g[0], x, top, w, rowH, fitting, opts);
      place(el("div", "label", parent, g[1]), x + w / 2, top + lay.ch);
    });
  }

  /* core.picture._row_of_plays: cards in a row centred in the box, each named under it. */
  function plays(parent, list, box, size, short) {
    var x = box[0], y = box[1], w = box[2], h = box[3];
    var n = list.length;
    if (!n) return;
    var cw = size[0], ch = size[1];
    var step = Math.min(cw + 12, (w - cw) / Math.max(1, n - 1));
    var width = cw + step * (n - 1);
    var left = x + (w - width) / 2, top = y + (h - ch - 16) / 2;
    list.forEach(function (p, i) {
      parent.appendChild(place(card(p.card, cw, ch), left + i * step, top));
    });
    list.forEach(function (p, i) {
      var who = p.seat === null ? (short ? "\u00b7" : "no owner") :
        (short || step < cw ? "p" + p.seat : "player_" + p.seat);
      var cx = left + i * step + Math.min(step, cw) / 2;
      place(el("div", "who", parent, who), cx, top + ch + 2).style.fontSize =
        (short ? 11 : 12) + "px";
    });
  }

  function pile(parent, p, w) {
    el("div", "cap", parent, p.name + " \u00b7 " + p.count);
    var cw = L.cards.S[0], ch = L.cards.S[1];
    var row = el("div", "row", parent);
    row.style.height = ch + 6 + "px";
    var cards = p.cards;
    if (!cards.length) {
      place(el("div", "card empty", row), 0, 2, cw, ch);
      return;
    }
    if (cards.every(function (c) { return c === null; })) {
      for (var i = 0; i < Math.min(cards.length, 10); i++) {
        row.appendChild(place(card(null, cw, ch), 2 * i, 2));
      }
      return;
    }
    var fit = Math.max(1, Math.floor((w - cw) / 17) + 1);
    var x0 = 0;
    if (cards.length > fit) {
      var more = el("div", "abs", row, "+" + (cards.length - fit + 1));
      place(more, 0, ch / 2 - 6).style.cssText += ";font-weight:700;color:var(--muted)";
      cards = fit > 1 ? cards.slice(cards.length - fit + 1) : cards.slice(-1);
      x0 = 26;
    }
    var step = Math.min(cw + 3, (w - x0 - cw) / Math.max(1, cards.length - 1));
    cards.forEach(function (c, i) { row.appendChild(place(card(c, cw, ch), x0 + i * step, 2)); });
  }

  function panel(parent, scene) {
    var w = L.size[0] - L.table_w;
    var pn = place(el("div", "panel", parent), L.table_w, 0, w);
    var inner = w - 26;
    el("h1", "", pn, scene.title);
    var status = "phase: " + scene.phase;
    if (scene.to_act !== null) status += "  \u00b7  to act: player_" + scene.to_act;
    el("div", "status", pn, status);
    el("div", "viewline", pn, "view: " +
      (scene.viewer === null ? "open (every card)" : "player_" + scene.viewer));
    el("hr", "", pn);
    if (scene.info.length) {
      scene.info.forEach(function (line) { el("p", "info", pn, line); });
      el("hr", "", pn);
    }
    var last = scene.last_trick;
    if (last) {
      el("div", "cap", pn, "last trick" +
        (last.winner === null ? "" : " \u00b7 won by player_" + last.winner));
      var row = el("div", "row", pn);
      row.style.height = L.cards.S[1] + 22 + "px";
      plays(row, last.cards, [-4, 0, inner + 8, L.cards.S[1] + 18], L.cards.S, true);
    }
    scene.piles.forEach(function (p) { pile(pn, p, inner); });
  }

  function banner(parent, scene) {
    var mid = L.middle[String(Math.min(scene.seats.length, 5))];
    var b = place(el("div", "banner", parent), mid[0] + mid[2] / 2, mid[1] + mid[3] / 2);
    el("small", "", b, "GAME OVER");
    el("span", "", b, scene.result || "game over");
  }

  /* Draw scene into root (emptied first). */
  function render(root, scene, opts) {
    root.textContent = "";
    var stage = el("div", "stage", root);
    stage.style.width = L.size[0] + "px";
    stage.style.height = L.size[1] + "px";
    var felt = place(el("div", "felt", stage), 0, 0, L.table_w, L.size[1]);
    var p = scene.seats.length;
    var base = scene.viewer === null ? 0 : scene.viewer;
    var boxes = L.boxes[String(p)];
    scene.seats.forEach(function (seat) {
      var r = (((seat.seat - base) % p) + p) % p;
      seatBox(felt, boxes[r], seat, seat.seat === scene.to_act, seat.seat === scene.viewer,
        r === 0, opts);
    });
    var mid = L.middle[String(p)];
    if (scene.trick.length) {
      var size = p <= 3 && scene.trick.length <= 6 ? L.cards.L : L.cards.M;
      plays(felt, scene.trick, mid, size, false);
    }
    if (scene.over) banner(felt, scene);
    panel(stage, scene);
    return stage;
  }

  /* The score timeline: an inline SVG line per seat (values: [step][seat], null = no number),
     dashed lines where a deal starts, a cursor at step now. Each seat has its own colour and
     dash pattern (the legend shows both), and lines of equal scores are drawn 3 px apart, so a
     line under another one still shows between its dashes. */
  var COLOURS = ["#f4c542", "#5ec8f2", "#f27a6b", "#9be37a", "#d49bf5"];
  var DASHES = ["", "8,4", "2,3", "10,3,2,3", "5,5"];
  function chart(root, values, names, dealStarts, now, onpick) {
    root.textContent = "";
    var W = 420, H = 150, pad = [34, 8, 10, 22]; // left, right, top, bottom
    var n = values.length, lo = Infinity, hi = -Infinity;
    values.forEach(function (row) {
      row.forEach(function (v) { if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    });
    if (lo === Infinity) { lo = 0; hi = 1; }
    if (lo === hi) { lo -= 1; hi += 1; }
    function X(i) { return pad[0] + (n > 1 ? (i * (W - pad[0] - pad[1])) / (n - 1) : 0); }
    function Y(v) { return H - pad[3] - ((v - lo) * (H - pad[2] - pad[3])) / (hi - lo); }
    var parts = ['<svg width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + " " + H + '">'];
    parts.push('<rect x="' + pad[0] + '" y="' + pad[2] + '" width="' + (W - pad[0] - pad[1]) +
      '" height="' + (H - pad[2] - pad[3]) + '" fill="rgba(255,255,255,0.04)"/>');
    [lo, hi].forEach(function (v) {
      parts.push('<text x="' + (pad[0] - 4) + '" y="' + (Y(v) + 4) + '" font-size="10" ' +
        'text-anchor="end" fill="#aab">' + Math.round(v) + "</text>");
    });
    if (lo < 0 && hi > 0) {
      parts.push('<line x1="' + pad[0] + '" x2="' + (W - pad[1]) + '" y1="' + Y(0) + '" y2="' +
        Y(0) + '" stroke="#667" stroke-width="1"/>');
    }
    dealStarts.forEach(function (s, k) {
      if (s === 0) return;
      parts.push('<line x1="' + X(s) + '" x2="' + X(s) + '" y1="' + pad[2] + '" y2="' +
        (H - pad[3]) + '" stroke="#778" stroke-dasharray="3,3"/>');
      parts.push('<text x="' + (X(s) + 2) + '" y="' + (H - pad[3] + 12) + '" font-size="9" ' +
        'fill="#99a">deal ' + (k + 1) + "</text>");
    });
    names.forEach(function (name, seat) {
      var pts = [];
      var shift = (seat - (names.length - 1) / 2) * 3; // equal scores stay apart
      var dash = DASHES[seat % DASHES.length];
      values.forEach(function (row, i) {
        if (row[seat] !== null) {
          pts.push(X(i).toFixed(1) + "," + (Y(row[seat]) + shift).toFixed(1));
        }
      });
      parts.push('<polyline data-seat="' + seat + '" fill="none" stroke="' +
        COLOURS[seat % COLOURS.length] + '" stroke-width="2"' +
        (dash ? ' stroke-dasharray="' + dash + '"' : "") + ' points="' + pts.join(" ") + '"/>');
    });
    parts.push('<line class="cursor" x1="' + X(now) + '" x2="' + X(now) + '" y1="' + pad[2] +
      '" y2="' + (H - pad[3]) + '" stroke="#fff" stroke-width="1.5"/>');
    parts.push("</svg>");
    var holder = el("div", "", root);
    holder.innerHTML = parts.join("");
    if (onpick) {
      holder.firstChild.style.cursor = "pointer";
      holder.firstChild.addEventListener("click", function (ev) {
        var r = holder.firstChild.getBoundingClientRect();
        var i = Math.round(((ev.clientX - r.left - pad[0]) / (W - pad[0] - pad[1])) * (n - 1));
        onpick(Math.max(0, Math.min(n - 1, i)));
      });
    }
    var legend = el("div", "legend", root);
    names.forEach(function (name, seat) {
      var item = el("span", "", legend), dash = DASHES[seat % DASHES.length];
      var key = el("i", "", item); // the seat's line: its colour and dashes
      key.style.background = dash ? "none" : COLOURS[seat % COLOURS.length];
      if (dash) {
        key.style.borderTop = "3px dashed " + COLOURS[seat % COLOURS.length];
        key.style.height = "0";
        key.style.width = "18px";
      }
      item.appendChild(document.createTextNode(name));
    });
  }

  /* The log: entries {step, kind, text} (kind: core.events.KINDS, "start", the CSS class); those
     after step now are not shown (no spoilers). */
  function log(root, entries, now, onpick) {
    root.textContent = "";
    var current = null;
    entries.forEach(function (e) {
      if (e.step > now) return;
      var d = el("div", e.kind, root);
      el("span", "n", d, e.step ? String(e.step) : "");
      d.appendChild(document.createTextNode(e.text));
      if (e.step === now) { d.classList.add("now"); current = current || d; }
      if (onpick) d.addEventListener("click", function () { onpick(e.step); });
    });
    root.scrollTop = root.scrollHeight;
  }

  return { render: render, card: card, chart: chart, log: log, el: el, cardText: cardText };
})();
