/* cardenvs browser game (cardenvs.web): draws GET /state with Table.render from the human
   seat's view; a legal card of the human's hand is clicked to play it, every other legal action
   is a button (both carry data-legal); POST /act sends the choice with the step it was made
   at, POST /new starts the next game. Every request but the page's own carries the server's
   token (the page's #cardenvs-data) in the X-Cardenvs-Token header. body[data-step], [data-over]
   and [data-busy] say where the page is (for people and tests alike). */
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var body = document.body;
  var current = null;
  var lastMine = 0; // the step of the human's last move: what happened since is highlighted
  var token = JSON.parse($("cardenvs-data").textContent).token;

  function request(method, path, payload) {
    body.dataset.busy = "1";
    var init = {
      method: method,
      headers: { "Content-Type": "application/json", "X-Cardenvs-Token": token }
    };
    if (payload !== undefined) init.body = JSON.stringify(payload);
    return fetch(path, init).then(function (r) {
      return r.json().then(function (j) { return { ok: r.ok, status: r.status, body: j }; });
    });
  }

  function message(html, cls) {
    var m = $("message");
    m.hidden = !html;
    m.className = "bar msg" + (cls ? " " + cls : "");
    m.innerHTML = html || "";
  }

  function esc(t) {
    var d = document.createElement("div");
    d.textContent = t;
    return d.innerHTML;
  }

  function act(a) {
    if (body.dataset.busy === "1") return;
    lastMine = current.step + 1;
    request("POST", "/act", { action: a.id, step: current.step }).then(function (r) {
      if (!r.ok) {
        message("Not played: " + esc(r.body.error), "error");
        return load();
      }
      message("");
      show(r.body);
    }).catch(fail);
  }

  /* A choice of several cards (s.choice: Piquet's discards): the cards are picked in any
     order (data-pick; a picked one also gets class "picked"), then one button (#confirm) sends
     them together; the server plays them in the engine's order. */
  var picked = [];
  var pickedAt = -1;

  function sendCards() {
    if (body.dataset.busy === "1") return;
    lastMine = current.step + 1;
    request("POST", "/act", { cards: picked.slice(), step: current.step }).then(function (r) {
      if (!r.ok) {
        message("Not played: " + esc(r.body.error), "error");
        return load();
      }
      message("");
      show(r.body);
    }).catch(fail);
  }

  var cardText = Table.cardText;

  /* text into node, its cards (QH, 10S) written with suit symbols as on the table, hearts and
     diamonds red */
  var CARDS = /(^|[^0-9A-Za-z])((?:10|[2-9JQKA])[SHDC])(?![0-9A-Za-z])/g;
  function withSuits(node, text) {
    var at = 0;
    text.replace(CARDS, function (m, before, c, k) {
      node.appendChild(document.createTextNode(text.slice(at, k + before.length)));
      Table.el("span", /[HD]$/.test(c) ? "suit red" : "suit", node, cardText(c));
      at = k + m.length;
      return m;
    });
    node.appendChild(document.createTextNode(text.slice(at)));
  }

  /* The table scaled to the window: at most its own size, so that the actions below it stay in
     view (at least at 0.6); on a narrow window (a phone) the panel goes under the felt and the
     table takes the width. */
  function fit() {
    // twice: the scaled width may wrap the bars below the table, which then need more room
    for (var k = 0; k < 3 && fitOnce(); k++);
  }

  /* One pass of fit; true when the scale changed. */
  function fitOnce() {
    var root = $("table");
    var stage = root.firstChild;
    if (!stage) return false;
    var felt = stage.querySelector(".felt");
    var panel = stage.querySelector(".panel");
    var W = parseFloat(stage.dataset.w || stage.style.width);
    var H = parseFloat(stage.dataset.h || stage.style.height);
    stage.dataset.w = W;
    stage.dataset.h = H;
    var room = document.documentElement.clientWidth - 2 * parseFloat(getComputedStyle(body).paddingLeft);
    var narrow = room < 700;
    body.classList.toggle("narrow", narrow);
    var w = W, h = H, s;
    if (narrow) {
      w = parseFloat(felt.style.width);
      panel.style.left = "0px";
      panel.style.top = H + "px";
      panel.style.width = w + "px";
      h = H + panel.offsetHeight;
      s = room / w;
    } else {
      var other = 0;
      Array.prototype.forEach.call($("app").children, function (e) {
        if (e !== root && !e.classList.contains("lower") && !e.hidden) {
          other += e.offsetHeight + 10;
        }
      });
      var high = window.innerHeight - 2 * parseFloat(getComputedStyle(body).paddingTop) - other;
      s = Math.max(0.6, Math.min(1, room / W, high / H));
    }
    stage.style.width = w + "px";
    stage.style.height = h + "px";
    stage.style.transformOrigin = "0 0";
    stage.style.transform = s === 1 ? "" : "scale(" + s + ")";
    $("app").style.maxWidth = narrow ? "" : Math.ceil(w * s) + "px";
    root.style.width = w * s + "px";
    root.style.height = h * s + "px";
    var changed = stage.dataset.s !== String(s);
    stage.dataset.s = String(s);
    return changed;
  }
  window.addEventListener("resize", fit);

  /* The rule that keeps the own hand face down (Esel's trump choice), said on the table. */
  function faceDownNote(s) {
    var mine = s.scene.seats[s.seat];
    var choosing = s.legal.some(function (a) { return a.name.indexOf("trump ") === 0; });
    if (!choosing || !mine.hand.length || mine.hand.some(function (c) { return c !== null; })) {
      return;
    }
    var felt = $("table").querySelector(".felt");
    Table.el("div", "rule", felt,
      "By the rules, nobody sees their cards until every trump suit is chosen.").id = "rule";
  }

  function show(s) {
    current = s;
    var legal = {};
    var buttons = [];
    var choice = s.choice;
    if (pickedAt !== s.step || !choice) picked = [];
    pickedAt = s.step;
    s.legal.forEach(function (a) {
      if (choice && (a.name.indexOf(choice.verb + " ") === 0 || a.name === "stop")) return;
      if (a.card) legal[a.card] = { name: a.name, onclick: function () { act(a); } };
      else buttons.push(a);
    });
    if (choice) {
      choice.cards.forEach(function (c) {
        legal[c] = { name: choice.verb + " " + c, onclick: function () {
          var k = picked.indexOf(c);
          if (k >= 0) picked.splice(k, 1); else picked.push(c);
          show(current);
        } };
      });
    }
    Table.render($("table"), s.scene, { legal: legal, dimOthers: s.legal.length > 0 });
    faceDownNote(s);
    var box = $("actions");
    box.textContent = "";
    if (choice) {
      Array.prototype.forEach.call($("table").querySelectorAll("[data-legal]"), function (e) {
        var c = e.dataset.legal.slice(choice.verb.length + 1);
        if (e.dataset.legal.indexOf(choice.verb + " ") !== 0) return;
        delete e.dataset.legal;
        e.dataset.pick = c;
        if (picked.indexOf(c) >= 0) e.classList.add("picked");
      });
      var n = picked.length;
      var ok = n >= choice.min && n <= choice.max;
      var label = n ? choice.verb + " " + picked.map(cardText).join(" ") :
        choice.verb + " none";
      var c = Table.el("button", "legal confirm", box, label);
      c.id = "confirm";
      c.dataset.min = String(choice.min);
      c.dataset.max = String(choice.max);
      c.disabled = !ok;
      if (ok) c.dataset.legal = label;
      c.onclick = sendCards;
    }
    buttons.forEach(function (a) {
      var b = Table.el("button", "legal", box, a.name);
      b.dataset.legal = a.name;
      b.onclick = function () { act(a); };
    });
    var prompt = $("prompt");
    if (s.over) {
      prompt.innerHTML = '<span class="over"><b>Game over:</b> </span>';
      withSuits(prompt.firstChild, s.result || "");
      var b = Table.el("button", "", box, "new game");
      b.id = "newgame";
      b.onclick = function () {
        request("POST", "/new", {}).then(function (r) {
          if (!r.ok) return refused(r);
          message("");
          lastMine = 0;
          show(r.body);
        }).catch(fail);
      };
      if (s.record_path) {
        message('<div>Record saved to <code id="record-path">' + esc(s.record_path) +
          "</code> (seed " + esc(String(s.seed)) + ")</div><div>View it: <code>" +
          esc(s.viewer_command) + "</code></div>");
      }
    } else if (choice) {
      var span = choice.min < choice.max ? choice.min + " to " + choice.max :
        "exactly " + choice.max;
      prompt.textContent = "Your turn (" + s.names[s.seat] + "): " + choice.verb + " " + span +
        " cards: click them in any order (again to put one back), then \u201c" + choice.verb +
        "\u201d (" + picked.length + " chosen).";
    } else if (s.legal.length) {
      var cards = Object.keys(legal).length;
      prompt.textContent = "Your turn (" + s.names[s.seat] + "): " +
        (cards ? "click a lifted card" + (buttons.length ? " or an action" : "") : "choose") + ".";
    } else {
      prompt.textContent = "Waiting for " + s.names[s.to_act] + "\u2026";
    }
    var log = $("log");
    log.textContent = "";
    s.log.forEach(function (e) {
      var d = Table.el("div", e.kind, log);
      Table.el("span", "n", d, e.step ? String(e.step) : "");
      withSuits(d, e.text);
      if (e.step >= lastMine && lastMine > 0 && e.seat !== s.seat) d.classList.add("now");
    });
    log.scrollTop = log.scrollHeight;
    Table.chart($("chart"), s.timeline, s.names, s.deal_starts, s.timeline.length - 1, null);
    fit();
    body.dataset.step = String(s.step);
    body.dataset.over = s.over ? "1" : "0";
    body.dataset.busy = "0";
    body.dataset.ready = "1";
  }

  function load() {
    return request("GET", "/state").then(function (r) {
      if (!r.ok) return refused(r);
      show(r.body);
    }).catch(fail);
  }

  function refused(r) {
    body.dataset.busy = "0";
    message("The game server refused (" + r.status + "): " + esc(r.body.error || ""), "error");
  }

  function fail(err) {
    body.dataset.busy = "0";
    message("The game server did not answer (" + esc(String(err)) + "); is it still running?",
      "error");
  }

  load();
})();
