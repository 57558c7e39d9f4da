/* room.js: a room's page: its recent finished games (the server's list), each with its replay's link. */
"use strict";

(function () {
  var $ = function (id) { return document.getElementById(id); };

  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function when(s) {
    return s ? new Date(s * 1000).toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric",
      hour: "2-digit", minute: "2-digit" }) : "";
  }

  function sideNames(g, side) {
    return g.players.filter(function (p) { return p.side === side; })
      .map(function (p) { return p.name + (p.computer ? " (computer)" : ""); }).join(" & ");
  }

  function game(g) {
    var li = h("li", "game"), sides = [], i, res, link;
    for (i = 0; g.scores && i < g.scores.length; i++) sides.push(i);
    if (!sides.length) sides = [0, 1];
    li.appendChild(h("span", "when", when(g.ended || g.created) + " \u00b7 " + g.rules));
    li.appendChild(h("span", "who", sides.map(function (s) { return sideNames(g, s); }).join(" vs ")));
    res = h("span", "result");
    if (g.scores) {
      res.textContent = sides.map(function (s) { return g.scores[s]; }).join(" \u2013 ") + " \u00b7 ";
      res.appendChild(h("span", "won", g.winner >= 0 ? sideNames(g, g.winner) + " won" : "a tie"));
    }
    li.appendChild(res);
    if (g.replay) {
      link = h("a", "", "Watch the replay");
      link.href = g.replay;
      link.setAttribute("aria-label", "Watch the replay of " + g.rules + ", " + when(g.ended || g.created));
      li.appendChild(link);
    } else li.appendChild(h("span", "none", "no replay kept"));
    return li;
  }

  function listed(m) {
    var list = $("games"), i;
    $("title").textContent = "Hand and Foot \u00b7 " + m.room;
    document.title = "Hand and Foot \u00b7 " + m.room + "'s games";
    list.replaceChildren();
    for (i = 0; i < m.games.length; i++) list.appendChild(game(m.games[i]));
    status((m.games.length === 1 ? "The last game finished here" : m.games.length ? "The last " + m.games.length +
      " games finished here" : "No game has finished here yet") + "; replays are kept " + m.days + " days.");
  }

  function status(t) { $("status").textContent = t; }

  var ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname,
    "handfoot-1");
  ws.onmessage = function (e) {
    var m;
    try { m = JSON.parse(e.data); } catch (x) { return; }
    if (m && m.v === 1 && m.type === "room") listed(m);
    ws.close(1000);
  };
  ws.onerror = function () { status("The list could not be loaded; try again later."); };
})();
