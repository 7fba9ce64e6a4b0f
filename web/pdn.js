// Reading a pasted PDN game on the page: its FEN tag and the moves of its main line, and
// finding each written move among a position's legal moves. The server checks every
// position; this only reads what the player wrote.
"use strict";

const RESULTS = new Set(["1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "1/2-1/2", "*"]);

// Removes (variations), innermost first, so that nested ones go too.
function withoutVariations(text) {
  let before;
  do {
    before = text;
    text = text.replace(/\([^()]*\)/g, " ");
  } while (text !== before);
  return text;
}

// {fen (the FEN tag, or ""), gametype (the number the GameType tag starts with, as in
// "25" or "20,W,10,10,N2,0"; null without one), moves: [written move, ...]} of the first
// game in text.
function readPdn(text) {
  const fenTag = text.match(/\[\s*FEN\s+"([^"]*)"\s*\]/i);
  const typeTag = text.match(/\[\s*GameType\s+"\s*(\d+)[^"]*"\s*\]/i);
  const body = withoutVariations(text.replace(/\[[^\]]*\]/g, " ").replace(/\{[^}]*\}/g, " "))
    .replace(/;[^\n]*/g, " ");
  const moves = [];
  for (let token of body.split(/\s+/)) {
    token = token.replace(/^\d+\.(\.\.)?/, "").replace(/[!?]+$/, "");
    if (!token || RESULTS.has(token) || /^\$\d+$/.test(token)) continue;
    moves.push(token);
  }
  return { fen: fenTag ? fenTag[1].trim() : "", gametype: typeTag ? Number(typeTag[1]) : null,
           moves };
}

function squaresOf(text) {
  return text.toLowerCase().split(/[-x:]/);
}

// The legal move (of `legal`, each {move, after, ...}) that `written` names: the same
// squares, or where a capture is written by its first and last square only, the one
// move with those. null when none or several fit.
function findMove(written, legal) {
  const want = squaresOf(written);
  const exact = legal.filter((m) => squaresOf(m.move).join() === want.join());
  if (exact.length === 1) return exact[0];
  const ends = legal.filter((m) => {
    const have = squaresOf(m.move);
    return have[0] === want[0] && have[have.length - 1] === want[want.length - 1];
  });
  return ends.length === 1 ? ends[0] : null;
}
