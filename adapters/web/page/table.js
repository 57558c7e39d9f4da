/* table.js: draws the table from a view (the server's data); it computes no rule. */
"use strict";

var Table = (function () {
  var PHASE = { draw: "to draw or pick up", play: "to meld and discard", ask: "asks to go out", over: "" };
  var KIND = { clean: "clean canasta", dirty: "dirty canasta", wild: "wild canasta", sevens: "sevens canasta" };

  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* A card in a figure with its text alternative. */
  function card(name, extra) {
    var f = h("span", "cardbox" + (extra ? " " + extra : ""));
    f.setAttribute("role", "img");
    f.setAttribute("aria-label", name === null ? "face-down card" : Cards.label(name));
    f.appendChild(Cards.draw(name));
    return f;
  }

  function sideNames(v, side) {
    var n = [], i;
    for (i = 0; i < v.seats.length; i++) if (v.seats[i].side === side) n.push(v.seats[i].name);
    return n.join(" & ");
  }

  function turnLine(v) {
    if (v.phase === "over") {
      if (v.winner >= 0) return "Game over: " + sideNames(v, v.winner) + " won.";
      return "Game over: a tie.";
    }
    var who = v.seats[v.turn] ? v.seats[v.turn].name : "?";
    var s = "Round " + v.round + " \u00b7 " + who + " " + PHASE[v.phase];
    if (v.seat === v.turn && v.phase !== "ask") s = "Round " + v.round + " \u00b7 your turn: " + PHASE[v.phase];
    return s + ".";
  }

  function seats(v, box) {
    var i, s, li, ul = h("ul", "seats");
    box.replaceChildren(ul);
    for (i = 0; i < v.seats.length; i++) {
      s = v.seats[i];
      li = h("li", "seat side" + (s.side % 4) + (i === v.turn && v.phase !== "over" ? " now" : "") +
        (i === v.seat ? " me" : ""));
      li.appendChild(h("span", "name", s.name + (s.computer ? " (computer)" : s.away ? " (away)" : "")));
      li.appendChild(h("span", "counts", s.in_foot ? "foot: " + s.hand + (s.hand === 1 ? " card" : " cards") :
        "hand " + s.hand + " \u00b7 foot " + s.foot));
      if (i === v.turn && v.phase !== "over") li.setAttribute("aria-current", "true");
      ul.appendChild(li);
    }
  }

  function middle(v, box) {
    var stock = h("div", "pilebox"), pile = h("div", "pilebox");
    stock.appendChild(card(null));
    stock.appendChild(h("span", "cap", "stock " + v.stock));
    if (v.pile.top) pile.appendChild(card(v.pile.top, v.pile.frozen ? "frozen" : ""));
    else pile.appendChild(h("span", "empty", "empty"));
    pile.appendChild(h("span", "cap", "pile " + v.pile.size + (v.pile.frozen ? " \u00b7 frozen" : "")));
    box.replaceChildren(stock, pile);
  }

  /* One meld: open ones fanned (naturals, then wilds); a closed canasta stacked, its kind marked. */
  function meld(m, onPick) {
    var box = h(onPick ? "button" : "div", "meld " + m.kind), i, fan = h("span", "fan");
    var n = m.naturals + m.twos + m.jokers, rank = m.rank;
    /* named first by what its first card shows in its corner, as a card of the hand is ("K, 3 kings") */
    var first = m.kind === "wild" ? "JK" : m.kind !== "open" || m.naturals ? rank : m.twos ? "2" : "JK";
    var what = Cards.shown(first) + ", " + n + " " + Cards.label(rank) + (n === 1 ? "" : "s") +
      (m.twos + m.jokers ? ", " + (m.twos + m.jokers) + " wild" : "") + (KIND[m.kind] ? ", " + KIND[m.kind] : "");
    box.setAttribute("aria-label", what + (onPick ? ": add the selected cards" : ""));
    if (onPick) {
      box.type = "button";
      box.setAttribute("data-key", "meld-" + rank);
      box.addEventListener("click", function () { onPick(rank); });
    }
    if (m.kind !== "open") {
      fan.className = "stack";
      fan.appendChild(card(m.kind === "wild" ? "JK" : rank));
      box.appendChild(fan);
      box.appendChild(h("span", "badge " + m.kind, KIND[m.kind] + " \u00b7 " + n));
      return box;
    }
    for (i = 0; i < m.naturals; i++) fan.appendChild(card(rank));
    for (i = 0; i < m.twos; i++) fan.appendChild(card("2"));
    for (i = 0; i < m.jokers; i++) fan.appendChild(card("JK"));
    box.appendChild(fan);
    return box;
  }

  function sides(v, box, onPick) {
    var i, k, sd, sec, melds, r3, mySide = v.seat >= 0 ? v.seats[v.seat].side : -1;
    box.replaceChildren();
    for (i = 0; i < v.sides.length; i++) {
      sd = v.sides[i];
      sec = h("section", "side side" + (i % 4));
      sec.appendChild(h("h2", "", sideNames(v, i) + " \u00b7 " + sd.score + " points" +
        (sd.down ? "" : " \u00b7 to open: " + sd.open_min)));
      if (sd.red3s > 0) {
        r3 = h("div", "red3s");
        r3.setAttribute("aria-label", sd.red3s + " red threes laid out");
        for (k = 0; k < sd.red3s; k++) r3.appendChild(card("3h"));
        sec.appendChild(r3);
      }
      melds = h("div", "melds");
      for (k = 0; k < sd.melds.length; k++)
        melds.appendChild(meld(sd.melds[k], i === mySide && onPick ? onPick : null));
      if (!sd.melds.length) melds.appendChild(h("p", "none", "no melds yet"));
      sec.appendChild(melds);
      box.appendChild(sec);
    }
  }

  function scores(v, box) {
    var t = h("table", "scores"), tr = h("tr"), i, r, td;
    box.replaceChildren();
    if (!v.rounds.length) return;
    tr.appendChild(h("th", "", "Round"));
    for (i = 0; i < v.sides.length; i++) tr.appendChild(h("th", "", sideNames(v, i)));
    t.appendChild(tr);
    for (r = 0; r < v.rounds.length; r++) {
      tr = h("tr");
      tr.appendChild(h("td", "", String(r + 1)));
      for (i = 0; i < v.rounds[r].length; i++) tr.appendChild(h("td", "", String(v.rounds[r][i])));
      t.appendChild(tr);
    }
    tr = h("tr", "total");
    tr.appendChild(h("td", "", "Total"));
    for (i = 0; i < v.sides.length; i++) tr.appendChild(h("td", "", String(v.sides[i].score)));
    t.appendChild(tr);
    box.appendChild(h("h2", "", "Scores"));
    box.appendChild(t);
    if (v.sheet.length) {
      var d = h("details"), sum = h("summary", "", "Last round's score sheet"), ul = h("ul", "sheet");
      d.appendChild(sum);
      for (i = 0; i < v.sheet.length; i++) {
        td = v.sheet[i];
        ul.appendChild(h("li", "", sideNames(v, i) + ": going out " + td.going_out + ", red 3s " + td.red3s +
          ", clean " + td.clean + ", dirty " + td.dirty + ", wild " + td.wild + ", sevens " + td.sevens +
          ", laid out " + td.laid_out + ", caught " + td.caught + ", penalty " + td.penalty + ", deal " +
          td.deal_bonus + " = " + td.total));
      }
      d.appendChild(ul);
      box.appendChild(d);
    }
  }

  /* The round's story: only lines not shown yet are added, so the live region says each new one
   * once; a round's first lines (or a page's first view) fill it quietly. */
  var told = { round: -1, upto: 0 };
  var STORY_KEEP = 200;

  function story(v, list) {
    var st = v.story, i, fresh, atEnd;
    if (!st) return;
    fresh = st.round !== told.round || told.upto < st.from;
    if (fresh) {
      list.setAttribute("aria-live", "off");
      list.replaceChildren();
      told.round = st.round;
      told.upto = st.from;
    }
    atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    for (i = told.upto - st.from; i < st.lines.length; i++) list.appendChild(h("li", "", st.lines[i]));
    told.upto = Math.max(told.upto, st.from + st.lines.length);
    while (list.childElementCount > STORY_KEEP) list.firstElementChild.remove();
    if (fresh || atEnd) list.scrollTop = list.scrollHeight;
    /* the history is in place before the list speaks again: only what comes after is said */
    if (fresh) setTimeout(function () { list.setAttribute("aria-live", "polite"); }, 0);
  }

  function render(v, onPick) {
    document.querySelector("main").classList.remove("waiting");
    document.getElementById("title").textContent = "Hand and Foot \u00b7 " + v.rules;
    document.getElementById("turn").textContent = turnLine(v);
    seats(v, document.getElementById("seats"));
    middle(v, document.getElementById("middle"));
    sides(v, document.getElementById("sides"), onPick);
    scores(v, document.getElementById("scores"));
    story(v, document.getElementById("story-lines"));
  }

  return { render: render, card: card, h: h };
})();
