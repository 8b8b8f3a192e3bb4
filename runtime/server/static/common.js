// Shared by the pages: the language, the UI strings from the catalogues, cards as symbols.
"use strict";
const LANGS = ["en", "nl", "nb", "da", "ar", "pt"];
const SYMBOL = { S: "\u2660", C: "\u2663", D: "\u2666", H: "\u2665" };
let UI = {};
// How the page's language writes cards and bids (the books' notation): rank letters, no trumps.
let NOTATION = { ranks: {}, nt: "%(level)sNT" };
// The table's special bids by code, each by its name in the page's language (MIS -> misère),
// as the table's state gives them: a person reads the name, the page sends the code.
let SPECIALS = {};
function specialName(code) { return Object.hasOwn(SPECIALS, code) ? SPECIALS[code] : null; }

function pageLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(asked)) return asked;
  const nav = (navigator.language || "en").slice(0, 2);
  if (nav === "no" || nav === "nn") return "nb";
  return LANGS.includes(nav) ? nav : "en";
}

async function loadStrings(lang) {
  const answer = await (await fetch(`/api/strings/${lang}`)).json();
  UI = answer.strings;
  NOTATION = answer.notation || NOTATION;
  document.documentElement.lang = lang;
  document.documentElement.dir = answer.dir;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
}

// A UI string by id, its %(name)s placeholders filled from params.
function t(id, params) {
  const text = UI[id] ?? id;
  return text.replace(/%\((\w+)\)s/g, (_, k) => (params && k in params ? String(params[k]) : ""));
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// A card or bid code with suit symbols, laid out left to right even in Arabic pages.
// ``bid``: the code is a call (6S is six spades, not the six of spades).
function codeEl(code, extra, bid) {
  const name = specialName(code);
  if (name !== null) {
    // a special bid by its name: words of the language, isolated in the direction they take
    return el("span", { class: "code bid special " + (extra || ""), dir: "auto", "data-code": code }, name);
  }
  const span = el("span", { class: "code " + (extra || ""), dir: "ltr", "data-code": code });
  const m = bid ? null : /^(10|11|12|13|[2-9JQKA])([SCDH])$/.exec(code);
  if (m) {
    span.classList.add("card", m[2] === "H" || m[2] === "D" ? "red" : "black");
    span.append(rankText(m[1]), el("span", { class: "suit" }, SYMBOL[m[2]]));
    return span;
  }
  if (code === "JK" || code === "BJ") {
    span.classList.add("card", "joker", code === "JK" ? "red" : "black");
    span.append("\u2605", el("span", { class: "small" }, code));
    return span;
  }
  // a bid (6S, 7NT, MIS), a joker lead (JK:S) or a word
  const call = /^(\d+)(S|C|D|H|NT)$/.exec(code);
  if (call) {
    span.classList.add("bid", call[2] === "H" || call[2] === "D" ? "red" : "black");
    if (call[2] === "NT") span.append(el("span", { class: "nt" }, ntText(call[1])));
    else span.append(call[1], el("span", { class: "suit" }, SYMBOL[call[2]]));
    return span;
  }
  const lead = /^(JK|BJ):([SCDH])$/.exec(code);
  if (lead) {
    span.classList.add("card", "joker", lead[2] === "H" || lead[2] === "D" ? "red" : "black");
    span.append("\u2605", el("span", { class: "suit" }, SYMBOL[lead[2]]));
    return span;
  }
  span.append(code);
  return span;
}

function rankText(rank) { return NOTATION.ranks[rank] ?? rank; }
function ntText(level) { return NOTATION.nt.replace("%(level)s", level); }

// A code as plain text in the page's notation (B\u2665, 7 SA), isolated left to right (U+2066
// .. U+2069) so that it reads the same inside a sentence of a right-to-left page; a special
// bid by its name in the language (misère), isolated in its own direction (U+2068 .. U+2069).
function codeText(code, bid) {
  const name = specialName(code);
  if (name !== null) return "\u2068" + name + "\u2069"; // FIRST STRONG ISOLATE: the name's own direction
  const m = bid ? null : /^(10|11|12|13|[2-9JQKA])([SCDH])$/.exec(code);
  let text = code;
  if (m) text = rankText(m[1]) + SYMBOL[m[2]];
  const call = /^(\d+)(S|C|D|H|NT)$/.exec(code);
  if (!m && call) text = call[2] === "NT" ? ntText(call[1]) : call[1] + SYMBOL[call[2]];
  const lead = /^(JK|BJ):([SCDH])$/.exec(code);
  if (lead) text = lead[1] + ":" + SYMBOL[lead[2]];
  return "\u2066" + text + "\u2069";
}

// An action of the record grammar (``discard JH 4D``, ``7NT``) as plain text in the notation.
function actionText(action) {
  const words = String(action).split(" ");
  if (words.length === 1) return codeText(words[0], /^\d+(S|C|D|H|NT)$/.test(words[0]));
  return words.map((w, i) => i === 0 ? w : codeText(w)).join(" ");
}

function langSwitch(current, onPick) {
  return el("span", { class: "langs" }, LANGS.map((code) =>
    el("a", { href: "#", hreflang: code, class: code === current ? "on" : "", onclick: (e) => { e.preventDefault(); onPick(code); } }, code)));
}

// Replace a node's children, leaving out null, undefined and false.
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}
