/* cards.js: one function draws every card (hand, meld, pile) as SVG from its data: rank, suit, wild
   (which cards are wild, the view says: its "wilds" names them). */
"use strict";

var Cards = (function () {
  var NS = "http://www.w3.org/2000/svg";
  var NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", "10": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five", "4": "four", "3h": "red three", "3c": "black three",
    "2": "two", JK: "joker" };
  var wilds = {};

  /* The names of the cards the game makes wild, from each view: the page keeps no list of its own. */
  function setWilds(names) {
    var i;
    wilds = {};
    for (i = 0; names && i < names.length; i++) wilds[names[i]] = true;
  }

  /* What a card is, from the server's name ("A", "10", "3h", "3c", "2", "JK"). */
  function parse(name) {
    var c = { name: name, rank: name, suit: "", wild: wilds[name] === true, kind: "plain" };
    if (name === "3h") { c.rank = "3"; c.suit = "\u2666"; c.kind = "red3"; }
    else if (name === "3c") { c.rank = "3"; c.suit = "\u2663"; c.kind = "black3"; }
    else if (name === "2") c.kind = "two";
    else if (name === "JK") { c.kind = "joker"; c.suit = "\u2605"; }
    return c;
  }

  function label(name) { return (NAMES[name] || name) + (wilds[name] === true ? ", wild" : ""); }

  /* What a card shows in its corner ("K", "3\u2666", "JK\u2605"): a button's name starts with it. */
  function shown(name) { var c = parse(name); return c.rank + (c.kind === "plain" || c.wild && c.kind !== "joker" ?
    "" : c.suit); }

  /* The big sign and the "wild" mark repeat the corner: drawn by <use> from one hidden set, they are
     pictures, not text, so a card's text is its corner alone. */
  var PIPS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "\u2666", "\u2663", "\u2605", "wild"];
  var pipIds = {};
  function pipId(sign) {
    var svg, defs, i;
    if (!pipIds[sign]) {
      svg = el("svg", { "class": "sprite", "aria-hidden": "true", focusable: "false" });
      defs = el("defs", {});
      for (i = 0; i < PIPS.length; i++) {
        pipIds[PIPS[i]] = "pip" + i;
        defs.appendChild(el("text", { id: "pip" + i, "text-anchor": i === PIPS.length - 1 ? "end" : "middle" },
          PIPS[i]));
      }
      svg.appendChild(defs);
      document.body.appendChild(svg);
    }
    return "#" + pipIds[sign];
  }

  function el(tag, attrs, text) {
    var e = document.createElementNS(NS, tag), k;
    for (k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* A card face (or its back when name is null) as an <svg>, sized by CSS. */
  function draw(name) {
    var svg = el("svg", { viewBox: "0 0 60 84", "class": "card", "aria-hidden": "true", focusable: "false" });
    if (name === null) {
      svg.setAttribute("class", "card back");
      svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, "class": "edge" }));
      svg.appendChild(el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, "class": "weave" }));
      return svg;
    }
    var c = parse(name);
    svg.setAttribute("class", "card k-" + c.kind + (c.wild ? " wild" : ""));
    svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, "class": "edge" }));
    if (c.wild) svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 12, rx: 6, "class": "band" }));
    /* "10" and "JK" are two signs: narrower, so a fan's strip shows them whole */
    svg.appendChild(el("text", { x: c.rank.length > 1 ? 3 : 6, y: 26, "class": "corner" +
      (c.rank.length > 1 ? " two" : "") }, c.rank));
    if (c.suit) svg.appendChild(el("text", { x: 6, y: 44, "class": "csuit" }, c.suit));
    /* the big sign sits right of the middle: in a fan only the corner of a card shows, whole */
    svg.appendChild(el("use", { x: 41, y: 72, "class": "pip", href: pipId(c.suit && c.kind !== "joker" ? c.suit :
      (c.kind === "joker" ? "\u2605" : c.rank)) }));
    if (c.wild) svg.appendChild(el("use", { x: 54, y: 10, "class": "wildmark", href: pipId("wild") }));
    return svg;
  }

  return { draw: draw, label: label, parse: parse, setWilds: setWilds, shown: shown };
})();
