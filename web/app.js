// The damero explorer: draws the board of the variant, asks the server's API for the
// value of the position and of each move, and keeps variant and FEN in the URL so that
// a link shows the same position and the browser's back and forward step through it.
"use strict";

const CELL = 40;                          // SVG units per square
const SVG = "http://www.w3.org/2000/svg";
const WDL_WORDS = { win: "wins", draw: "draws", loss: "loses" };

const state = {
  boards: {},         // variant name -> its board, as /api/variants gives it
  variant: "",
  side: "W",          // "W" or "B" to move
  pieces: new Map(),  // square number -> "wm", "wk", "bm" or "bk"
  editing: false,
  brush: "wm",        // what a click puts on a square while editing ("" removes)
  request: 0,         // the latest probe asked: older answers are dropped
  game: null,         // a pasted game: {plies: [{move, after, category}], at: ply shown}
  edited: false,      // the position comes from editing the board, not from a FEN given
};

const $ = (id) => document.getElementById(id);

// ---- FEN: "W:W31,32,K45:B1-3,K7" or "B:WKa1,Kc3:BKh8" ----

// The pieces and side of a FEN, as far as it can be read; the server checks it properly.
function readFen(board, fen) {
  const squareOf = new Map(board.names.map((name, i) => [name.toLowerCase(), i + 1]));
  const pieces = new Map();
  const parts = fen.trim().replace(/\.$/, "").split(":");
  const side = parts[0].trim().toUpperCase() === "B" ? "B" : "W";
  for (const part of parts.slice(1)) {
    const color = part.trim().charAt(0).toUpperCase();
    if (color !== "W" && color !== "B") continue;
    for (let item of part.trim().slice(1).split(",")) {
      item = item.trim();
      const king = /^k/i.test(item);
      if (king) item = item.slice(1);
      const kind = (color === "W" ? "w" : "b") + (king ? "k" : "m");
      const range = item.match(/^(\d+)-(\d+)$/);
      if (range) {
        for (let n = Number(range[1]); n <= Number(range[2]); n++) pieces.set(n, kind);
      } else if (squareOf.has(item.toLowerCase())) {
        pieces.set(squareOf.get(item.toLowerCase()), kind);
      }
    }
  }
  return { side, pieces };
}

function writeFen(board, side, pieces) {
  const lists = { w: [], b: [] };
  [...pieces.keys()].sort((a, b) => a - b).forEach((square) => {
    const kind = pieces.get(square);
    lists[kind[0]].push((kind[1] === "k" ? "K" : "") + board.names[square - 1]);
  });
  return `${side}:W${lists.w.join(",")}:B${lists.b.join(",")}`;
}

// ---- the board ----

function svgElement(name, attributes, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  parent.appendChild(element);
  return element;
}

function drawPiece(svg, x, y, kind) {
  const color = kind[0] === "w" ? "white" : "black";
  const cx = x + CELL / 2, cy = y + CELL / 2;
  svgElement("circle", { cx, cy, r: CELL * 0.38, class: `piece ${color}` }, svg);
  if (kind[1] === "k")
    svgElement("circle", { cx, cy, r: CELL * 0.2, class: `piece crown ${color}-crown` }, svg);
}

// Draws the board as the variant's players see it, White at the bottom, each playable
// square with its number or name.
function drawBoard() {
  const board = state.boards[state.variant];
  const host = $("board");
  host.textContent = "";
  if (!board) return;
  const svg = svgElement("svg", {
    viewBox: `0 0 ${board.columns * CELL} ${board.rows * CELL}`,
    role: "img",
    "aria-label": `${state.variant} board`,
  }, host);
  const everySquare = board.names.length === board.columns * board.rows;
  board.grid.forEach((row, r) => row.forEach((square, c) => {
    const x = c * CELL, y = r * CELL;
    // on a board played on every square (turkish) the colours only alternate
    const dark = everySquare ? (board.rows - 1 - r + c) % 2 === 0 : square !== 0;
    const rect = svgElement("rect", {
      x, y, width: CELL, height: CELL, class: dark ? "dark" : "light",
    }, svg);
    if (!square) return;
    rect.dataset.square = square;
    if (state.editing) {
      rect.classList.add("editable");
      rect.addEventListener("click", () => editSquare(square));
    }
    svgElement("text", { x: x + 2, y: y + 9, class: "number" }, svg).textContent =
      board.names[square - 1];
    if (state.pieces.has(square)) drawPiece(svg, x, y, state.pieces.get(square));
  }));
}

// ---- the value and the moves ----

// A move's or position's DTM or MTC: "-" in a draw, "not built" where the tables lack it.
function plies(n, metric, notBuilt) {
  if ((notBuilt || []).includes(metric)) return "not built";
  return n === null ? "-" : String(n);
}

function inPlies(n) {
  return n === 1 ? "1 ply" : `${n} plies`;
}

function valueSentence(data) {
  const side = data.fen.startsWith("B") ? "Black" : "White";
  const verb = WDL_WORDS[data.wdl];
  if (data.moves.length === 0)
    return `${side} to move ${verb}: the game is over.`;
  if (data.wdl === "draw")
    return `${side} to move draws.`;
  const notBuilt = data.not_built || [];
  if (notBuilt.includes("mtc"))
    return `${side} to move ${verb} (no DTM or MTC table).`;
  if (notBuilt.includes("dtm"))
    return `${side} to move ${verb} (no DTM table; MTC ${inPlies(data.mtc)}).`;
  const moves = Math.floor((data.dtm + 1) / 2);
  return `${side} to move ${verb} in ${inPlies(data.dtm)} (${moves} move${moves === 1 ? "" : "s"});` +
    ` MTC ${inPlies(data.mtc)}.`;
}

// A move's value under the move-limit rules, as the API's category names it.
function categoryText(category) {
  return category ? category : "?";
}

function showMoves(moves) {
  const body = $("moves").tBodies[0];
  body.textContent = "";
  for (const move of moves) {
    const row = body.insertRow();
    row.dataset.after = move.after;
    row.tabIndex = 0;
    row.className = move.wdl || "unknown";
    for (const text of [move.move, move.wdl || "?", categoryText(move.category),
                        plies(move.dtm, "dtm", move.not_built),
                        plies(move.mtc, "mtc", move.not_built)])
      row.insertCell().textContent = text;
    row.cells[2].className = `category ${move.category || "unknown"}`;
    row.addEventListener("click", () => go(state.variant, move.after, true));
    row.addEventListener("keydown", (event) => {
      if (event.key === "Enter") go(state.variant, move.after, true);
    });
  }
}

function showError(message) {
  const value = $("value");
  value.textContent = message;
  value.className = "error";
  value.dataset.wdl = "";
  showMoves([]);
}

// A bad FEN given (not a board being edited): the message, and no board, rather than
// the part of it that could be read.
function showBadPosition(message) {
  $("board").textContent = "";
  showError(message);
}

async function getJson(url) {
  const response = await fetch(url);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.status = response.status;
    error.reason = data.reason;
    throw error;
  }
  return data;
}

// A position beyond the tables (a table not built, as the start position is): said
// plainly, not as an error, with its legal moves without values, so that a game can
// still be played on into the tables.
async function showMovesOnly(asked, fen, message) {
  const value = $("value");
  try {
    const data = await getJson(`api/${state.variant}/moves?fen=${encodeURIComponent(fen)}`);
    if (asked !== state.request) return;
    value.textContent = `Beyond the tables: ${message}. The moves, without their values:`;
    value.className = "beyond";
    value.dataset.wdl = "unknown";
    showMoves(data.moves.map((m) => ({ move: m.move, after: m.after, dtm: null, mtc: null })));
  } catch (error) {
    if (asked === state.request) showError(message);
  }
}

async function probe(fen) {
  const asked = ++state.request;
  for (const id of ["line", "line-end", "rules-line", "rules-line-end"]) $(id).textContent = "";
  if (state.pieces.size === 0) {
    showError("Put pieces on the board (edit position), or give a FEN.");
    return;
  }
  const value = $("value");
  value.dataset.wdl = "";  // until the answer comes: nothing stale is read as this position's
  value.textContent = "…";
  value.className = "pending";
  try {
    const data = await getJson(`api/${state.variant}?fen=${encodeURIComponent(fen)}`);
    if (asked !== state.request) return;
    value.textContent = valueSentence(data);
    value.className = data.wdl;
    value.dataset.wdl = data.wdl;
    showMoves(data.moves);
    showRules(asked, fen);
  } catch (error) {
    if (asked !== state.request) return;
    if (error.reason === "table_missing") showMovesOnly(asked, fen, error.message);
    else if (error.status === 400 && !state.edited) showBadPosition(error.message);
    else showError(error.message);
  }
}

// The value under the variant's move-limit rules, every count starting here (a search:
// it may take a moment, or fail for want of room, and the plain value stands meanwhile).
function rulesSentence(rules) {
  if (rules.wdl !== "draw" && rules.dtz !== null)
    return `Under the move-limit rules: ${WDL_WORDS[rules.wdl]} in ${inPlies(rules.plies)}; ` +
      `the next zeroing move (a count starts or resets, or the game ends) in ${inPlies(rules.dtz)}.`;
  if (rules.wdl !== "draw")
    return `Under the move-limit rules: ${WDL_WORDS[rules.wdl]} in ${inPlies(rules.plies)}.`;
  const kind = rules.cursed ? " (a win the rules make a draw)" :
    rules.blessed ? " (a loss the rules make a draw)" : "";
  const binding = rules.binding ? `: the ${rules.binding} count runs out first` : "";
  return `Under the move-limit rules: draws${kind}${binding}.`;
}

async function showRules(asked, fen) {
  const rules = $("rules");
  rules.textContent = "";
  rules.dataset.wdl = "";
  if (!state.boards[state.variant].rules) return;
  try {
    const data = await getJson(`api/${state.variant}/rules?fen=${encodeURIComponent(fen)}`);
    if (asked !== state.request) return;
    rules.textContent = rulesSentence(data.rules);
    rules.dataset.wdl = data.rules.wdl;
    showRuleCategories(data.moves);
  } catch (error) {
    if (asked === state.request) rules.textContent = `Under the move-limit rules: ${error.message}.`;
  }
}

// The full search's values under the rules (/rules) in the moves table: they settle the
// moves the quick answer left "unknown".
function showRuleCategories(moves) {
  const byAfter = new Map(moves.map((m) => [m.after, m.category]));
  for (const row of $("moves").tBodies[0].rows) {
    const category = byAfter.get(row.dataset.after);
    if (!category) continue;
    row.cells[2].textContent = categoryText(category);
    row.cells[2].className = `category ${category}`;
  }
}

// Moves numbered in pairs as `damero line` and PDN write them, a pair starting with a
// move of the side the variant lets move first: "1. 32-28 19-23", or "1... 19-23" when
// the other side moves first here. Each move is made by makeMove(text, ply).
function numberedMoves(list, moves, fen, makeMove) {
  const secondFirst = fen.charAt(0).toUpperCase() !== state.boards[state.variant].first;
  list.textContent = "";
  let item = null;
  moves.forEach((move, ply) => {
    const place = ply + (secondFirst ? 1 : 0);
    if (place % 2 === 0 || !item) {
      item = list.appendChild(document.createElement("li"));
      item.appendChild(document.createElement("span")).className = "move-number";
      item.firstChild.textContent = `${Math.floor(place / 2) + 1}.${place % 2 ? ".." : ""}`;
    }
    item.append(" ", makeMove(move, ply));
  });
}

function plySpan(text) {
  const span = document.createElement("span");
  span.className = "ply";
  span.textContent = text;
  return span;
}

function lineEnd(data) {
  return `${data.plies} plies; the line ends: ${data.end}` +
    (data.played_by === "mtc" ? "; played by MTC (no DTM table)." : ".");
}

async function showLine() {
  const fen = $("fen").value;
  $("rules-line").textContent = "";
  $("rules-line-end").textContent = "";
  try {
    const data = await getJson(`api/${state.variant}/line?fen=${encodeURIComponent(fen)}`);
    numberedMoves($("line"), data.moves, data.fen, plySpan);
    $("line-end").textContent = lineEnd(data);
    if (state.boards[state.variant].rules) showRulesLine(fen, data);
  } catch (error) {
    $("line-end").textContent = error.message;
  }
}

// The best line under the move-limit rules, where it differs from the plain one (a
// search: it may take a moment, or fail for want of time).
async function showRulesLine(fen, plain) {
  const end = $("rules-line-end");
  end.textContent = "Under the move-limit rules: …";
  try {
    const data = await getJson(`api/${state.variant}/rules/line?fen=${encodeURIComponent(fen)}`);
    if ($("fen").value !== fen) return;
    if (data.moves.join() === plain.moves.join() && data.rules_result === plain.result) {
      end.textContent = "Under the move-limit rules: the same line.";
      return;
    }
    numberedMoves($("rules-line"), data.moves, data.fen, plySpan);
    end.textContent = `Under the move-limit rules (${WDL_WORDS[data.rules_result]}): ` +
      lineEnd(data);
  } catch (error) {
    end.textContent = `Under the move-limit rules: ${error.message}.`;
  }
}

// ---- navigation: the URL holds the variant and the FEN ----

// Shows variant and fen; a new entry in the browser's history when `remember`.
function go(variant, fen, remember) {
  if (!state.boards[variant]) variant = Object.keys(state.boards)[0];
  state.variant = variant;
  $("variant").value = variant;
  const read = readFen(state.boards[variant], fen || "W");
  state.edited = false;
  state.side = read.side;
  state.pieces = read.pieces;
  showPosition(fen || writeFen(state.boards[variant], state.side, state.pieces), remember);
}

function showPosition(fen, remember) {
  markGamePly(fen);
  const url = `?variant=${encodeURIComponent(state.variant)}&fen=${encodeURIComponent(fen)}`;
  if (remember) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
  $("fen").value = fen;
  $("side").textContent = state.side === "W" ? "White to move" : "Black to move";
  drawBoard();
  probe(fen);
}

function fromUrl() {
  const params = new URLSearchParams(location.search);
  go(params.get("variant") || "", params.get("fen") || "", false);
}

// ---- editing ----

function edited() {
  state.edited = true;
  showPosition(writeFen(state.boards[state.variant], state.side, state.pieces), false);
}

function editSquare(square) {
  if (!state.brush || state.pieces.get(square) === state.brush) state.pieces.delete(square);
  else state.pieces.set(square, state.brush);
  edited();
}

function setEditing(on) {
  state.editing = on;
  $("edit").setAttribute("aria-pressed", String(on));
  $("palette").hidden = !on;
  drawBoard();
}

// ---- a pasted game: its moves, numbered, each with its value under the rules ----

// The position a pasted game of `variant` starts from: its FEN tag, or the variant's start.
async function gameStart(variant, fenTag) {
  if (fenTag) return fenTag;
  return (await getJson(`api/${variant}/start`)).fen;
}

// The legal moves of fen with their values where the tables hold them ({move, after,
// category}), else without ({move, after}).
async function movesOf(variant, fen) {
  try {
    return (await getJson(`api/${variant}?fen=${encodeURIComponent(fen)}`)).moves;
  } catch (error) {
    if (error.reason !== "table_missing") throw error;
    return (await getJson(`api/${variant}/moves?fen=${encodeURIComponent(fen)}`)).moves;
  }
}

// The served variant whose PDN GameType a pasted game's tag names (the page's own when
// the game has no tag), or null when none is served.
function gameVariant(gametype) {
  if (gametype === null) return state.variant;
  const board = Object.values(state.boards).find((b) => b.gametype === gametype);
  return board ? board.variant : null;
}

// Follows the pasted game move by move; stops at the first move that is not legal. A game
// of another variant than the page's (its GameType tag) switches the page to it.
async function loadGame() {
  const status = $("game-status");
  const read = readPdn($("pdn").value);
  const plies = [];
  const variant = gameVariant(read.gametype);
  if (!variant) {
    const served = Object.values(state.boards).filter((b) => b.gametype)
      .map((b) => `${b.gametype} ${b.variant}`).join(", ");
    status.textContent = `This game is of GameType ${read.gametype}, a variant this server ` +
      `has no tables of (it serves GameType ${served}): the game is not followed.`;
    return;
  }
  const switched = variant !== state.variant;
  status.textContent = "…";
  try {
    const start = await gameStart(variant, read.fen);
    let fen = start;
    for (const written of read.moves) {
      const move = findMove(written, await movesOf(variant, fen));
      if (!move) {
        status.textContent = `Move ${plies.length + 1}, ${written}, is not legal in ${fen}: ` +
          "the game is followed up to it.";
        break;
      }
      plies.push({ move: move.move, after: move.after, category: move.category || "unknown" });
      fen = move.after;
    }
    if (plies.length === read.moves.length)
      status.textContent = (switched ? `A ${variant} game (its GameType tag): the page ` +
        `shows ${variant}. ` : "") + `${plies.length} plies; the value under the rules is ` +
        "the mover's.";
    state.game = { start, plies, at: -1 };
    go(variant, start, true);
    showGame();
  } catch (error) {
    status.textContent = error.message;
  }
}

function showGame() {
  const game = state.game;
  numberedMoves($("game"), game.plies.map((p) => p.move), game.start, (text, ply) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `ply ${game.plies[ply].category}`;
    button.dataset.ply = ply;
    button.dataset.category = game.plies[ply].category;
    button.title = `under the rules: ${game.plies[ply].category}`;
    button.textContent = text;
    button.addEventListener("click", () => stepGame(ply));
    return button;
  });
}

// Shows the position after ply (-1: the start) of the pasted game.
function stepGame(ply) {
  const game = state.game;
  if (!game || ply < -1 || ply >= game.plies.length) return;
  go(state.variant, ply < 0 ? game.start : game.plies[ply].after, true);
}

// Marks the pasted game's ply whose position is shown, if any.
function markGamePly(fen) {
  const game = state.game;
  if (!game) return;
  const ply = game.plies.findIndex((p) => p.after === fen);
  if (ply >= 0 || fen === game.start) game.at = ply;
  for (const button of $("game").querySelectorAll("button.ply"))
    button.setAttribute("aria-current", String(Number(button.dataset.ply) === game.at));
}

function setup() {
  $("variant").addEventListener("change", (event) => go(event.target.value, "", true));
  $("fen-form").addEventListener("submit", (event) => {
    event.preventDefault();
    go(state.variant, $("fen").value.trim(), true);
  });
  $("back").addEventListener("click", () => history.back());
  $("forward").addEventListener("click", () => history.forward());
  window.addEventListener("popstate", fromUrl);
  $("line-button").addEventListener("click", showLine);
  $("pdn-load").addEventListener("click", loadGame);
  $("game-back").addEventListener("click", () => state.game && stepGame(state.game.at - 1));
  $("game-forward").addEventListener("click", () => state.game && stepGame(state.game.at + 1));
  $("edit").addEventListener("click", () => setEditing(!state.editing));
  for (const button of document.querySelectorAll("#palette [data-piece]")) {
    button.addEventListener("click", () => {
      state.brush = button.dataset.piece;
      for (const other of document.querySelectorAll("#palette [data-piece]"))
        other.setAttribute("aria-pressed", String(other === button));
    });
  }
  $("side").addEventListener("click", () => {
    state.side = state.side === "W" ? "B" : "W";
    edited();
  });
  $("start").addEventListener("click", async () => {
    try {
      go(state.variant, (await getJson(`api/${state.variant}/start`)).fen, true);
    } catch (error) {
      showError(error.message);
    }
  });
  $("clear").addEventListener("click", () => {
    state.pieces.clear();
    edited();
  });
}

async function start() {
  setup();
  try {
    for (const board of await getJson("api/variants")) {
      state.boards[board.variant] = board;
      const option = $("variant").appendChild(document.createElement("option"));
      option.value = option.textContent = board.variant;
    }
    fromUrl();
  } catch (error) {
    showError(`The server did not answer: ${error.message}`);
  }
}

start();
