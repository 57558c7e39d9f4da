/* actions.js: a seat's hand and what it may do: select cards, then an action; every action is the typed command. */
"use strict";

var Actions = (function () {
  var LABEL = { draw: "Draw", pickup: "Pick up", meld: "Meld", discard: "Discard", out: "Ask to go out",
    yes: "Yes", no: "No", hint: "Hint", auto: "Auto" };
  var selected = [];   /* indexes into the hand as drawn */
  var cards = [];      /* the hand as drawn, one name per card */
  var send = null;
  var last = null;

  function selectedNames() {
    return selected.slice().sort(function (a, b) { return a - b; }).map(function (i) { return cards[i]; });
  }

  function cmd(name, rank) {
    var sel = selectedNames().join(" ");
    if (name === "meld" && rank) return "meld " + rank + ": " + sel;
    if (name === "meld" || name === "pickup" || name === "discard") return (name + " " + sel).trim();
    return name;
  }

  function act(name, rank) {
    if (!send) return;
    if ((name === "meld" && !selected.length) || (name === "discard" && selected.length !== 1)) {
      say(name === "meld" ? "Select the cards to meld first." : "Select the one card to discard.");
      return;
    }
    send(cmd(name, rank));
    selected = [];
    if (last) draw(last);
  }

  function say(text) { document.getElementById("answer").textContent = text; }

  function toggle(i, btn) {
    var k = selected.indexOf(i);
    if (k >= 0) selected.splice(k, 1); else selected.push(i);
    btn.setAttribute("aria-pressed", k >= 0 ? "false" : "true");
  }

  function hand(v) {
    var box = document.getElementById("hand"), g, i, n = 0, grp, b;
    cards = [];
    box.replaceChildren();
    for (g = 0; g < v.hand.length; g++) {
      grp = Table.h("span", "group");
      grp.setAttribute("role", "group");
      grp.setAttribute("aria-label", v.hand[g].n + " \u00d7 " + Cards.label(v.hand[g].card));
      for (i = 0; i < v.hand[g].n; i++, n++) {
        cards.push(v.hand[g].card);
        b = document.createElement("button");
        b.type = "button";
        b.className = "pick";
        b.setAttribute("data-key", "card-" + n);
        b.setAttribute("aria-pressed", selected.indexOf(n) >= 0 ? "true" : "false");
        b.setAttribute("aria-label", Cards.shown(v.hand[g].card) + ", " + Cards.label(v.hand[g].card));
        b.appendChild(Cards.draw(v.hand[g].card));
        b.addEventListener("click", (function (k, btn) { return function () { toggle(k, btn); }; })(n, b));
        grp.appendChild(b);
      }
      box.appendChild(grp);
    }
    if (!v.hand.length) box.appendChild(Table.h("p", "none", "(empty)"));
    document.getElementById("mine-title").textContent = (v.in_foot ? "Your foot" : "Your hand") + " (" + n + ")";
    document.getElementById("foot").textContent = v.in_foot ? "" : "Foot: " + v.foot_waiting + " cards waiting.";
  }

  function buttons(v) {
    var box = document.getElementById("actions"), i, b, name;
    box.replaceChildren();
    for (i = 0; i < v.may.length; i++) {
      name = v.may[i];
      b = document.createElement("button");
      b.type = "button";
      b.className = "act act-" + name;
      b.setAttribute("data-key", "act-" + name);
      b.textContent = LABEL[name] || name;
      b.addEventListener("click", (function (n) { return function () { act(n); }; })(name));
      box.appendChild(b);
    }
  }

  /* Drawing again replaces the buttons: the focus goes back to the same one (by its data-key), else to the
     hand's first card, so that a keyboard keeps its place after each action. */
  function focusKey() {
    var e = document.activeElement;
    return e && e.getAttribute && e.getAttribute("data-key");
  }

  function refocus(key) {
    var e;
    if (!key || document.activeElement && document.activeElement !== document.body) return;
    e = document.querySelector('[data-key="' + key + '"]') || document.querySelector("#hand .pick") ||
      document.querySelector("#actions .act");
    if (e) e.focus();
  }

  function draw(v) {
    var key = focusKey();
    last = v;
    Cards.setWilds(v.wilds);
    Table.render(v, v.seat >= 0 && v.may.indexOf("meld") >= 0 ? function (rank) { act("meld", rank); } : null);
    if (v.seat < 0) return;
    document.getElementById("mine").hidden = false;
    /* a new hand keeps no selection of the old one */
    if (selected.some(function (k) { return k >= v.hand.reduce(function (a, g) { return a + g.n; }, 0); }))
      selected = [];
    hand(v);
    buttons(v);
    refocus(key);
  }

  function setSend(fn) { send = fn; }

  return { draw: draw, say: say, setSend: setSend };
})();
