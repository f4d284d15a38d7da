// The page of `tiao gui`. It draws what the server's `state` says (board,
// legal moves with their paths, history, result) and sends what a person
// does as intents over one WebSocket (docs/gui.md). It knows no rule: a
// move is one of the `moves` the server listed, chosen by the squares
// clicked; notation, search and verdicts all come from the server.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const S = 60;        // square size in board units
const M = 26;        // margin for the notation on the edges
const $ = (id) => document.getElementById(id);

let ws = null;
let state = null;
let selection = [];  // squares clicked for the move being made
let flipped = false;
let analysing = false;   // the person asked for analysis until Stop
let lines = [];          // search lines by multipv index
let linesKey = '';       // the position and search the lines are of
let edit = null;         // while placing pieces: square number -> piece code
let drag = null;         // {from, el, x0, y0} while a piece is dragged

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function showMessage(text, isError) {
  const m = $('message');
  m.textContent = text;
  m.className = isError ? 'message error' : 'message';
  m.hidden = !text;
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => { $('connection').textContent = 'connected'; $('connection').className = 'badge ok'; };
  ws.onclose = () => { $('connection').textContent = 'disconnected'; $('connection').className = 'badge bad'; };
  ws.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (_) { return; }
    onMessage(m);
  };
}

function onMessage(m) {
  switch (m.type) {
    case 'hello': {
      const select = $('variant');
      select.innerHTML = '';
      for (const v of m.variants) {
        const o = document.createElement('option');
        o.value = v; o.textContent = v;
        select.appendChild(o);
      }
      break;
    }
    case 'state':
      state = m;
      selection = [];
      // A new search of lines (not the graph's walk) starts a new table.
      if (m.searching && m.searching !== 'eval_game' && linesKey !== m.fen + m.searching) {
        lines = [];
        linesKey = m.fen + m.searching;
      }
      showMessage('', false);
      render();
      next();
      break;
    case 'info':
      lines[m.multipv - 1] = m;
      renderLines();
      break;
    case 'eval':
      if (state) {
        state.evals = state.evals.filter((p) => p.ply !== m.ply).concat([{ ply: m.ply, score: m.score }]);
        renderGraph();
      }
      break;
    case 'bestmove':
      break;
    case 'pdn': {
      $('pdn').value = m.pdn;
      const a = $('download');
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([m.pdn], { type: 'application/x-chess-pdn' }));
      a.hidden = false;
      break;
    }
    case 'error':
      showMessage(m.message, true);
      break;
  }
}

// Whose moves Tiao makes.
function tiaoPlays(side) {
  const who = $('tiao-side').value;
  return who === 'both' || who === side;
}

function limit() {
  const value = Number($('limit-value').value);
  if ($('limit-kind').value === 'depth') return { depth: Math.max(1, Math.round(value) || 1) };
  return { time: value > 0 ? value : 1 };
}

// After each state: Tiao moves when it is its turn; else an analysis the
// person asked for goes on in the new position.
function next() {
  // Draughts plays on after a draw by the rules (for GUIs that do not
  // apply them); Tiao playing itself stops there.
  if (!state || state.searching || edit || state.result || state.moves.length === 0) return;
  if (tiaoPlays(state.side)) {
    send(Object.assign({ type: 'engine_move' }, limit()));
  } else if (analysing) {
    send({ type: 'analyse', multipv: multipv() });
  }
}

function multipv() {
  return Math.min(10, Math.max(1, Math.round(Number($('multipv').value)) || 1));
}

// ------------------------------------------------------------ the board

function display(sq) {
  const n = state.size;
  return flipped ? { row: n - 1 - sq.row, file: n - 1 - sq.file } : { row: sq.row, file: sq.file };
}

function centre(sq) {
  const d = display(sq);
  return { x: M + d.file * S + S / 2, y: M + d.row * S + S / 2 };
}

// The moves still fitting the squares clicked: same origin, and every
// square clicked after it lies on one of the move's paths.
function candidates(sel) {
  if (sel.length === 0) return [];
  return state.moves.filter((m) => m.from === sel[0] &&
    m.paths.some((p) => sel.slice(1).every((s) => p.indexOf(s, 1) > 0)));
}

function clickSquare(n) {
  if (edit) { place(n); return; }
  if (!state || state.searching === 'engine' || tiaoPlays(state.side)) return;
  const movable = state.moves.some((m) => m.from === n);
  if (selection.length === 0 || (selection.length === 1 && n === selection[0])) {
    selection = movable && selection.length === 0 ? [n] : [];
    render();
    return;
  }
  const sel = selection.concat([n]);
  const fits = candidates(sel);
  if (fits.length === 0) {
    selection = movable ? [n] : [];
    render();
    return;
  }
  const ending = fits.filter((m) => m.to === n);
  if (ending.length === 1) {
    play(ending[0]);
  } else if (fits.length === 1 && sel.includes(fits[0].to)) {
    play(fits[0]);
  } else {
    selection = sel;
    if (ending.length > 1) showMessage('Several captures end there: click a square on the way.', false);
    render();
  }
}

function play(move) {
  selection = [];
  send({ type: 'move', move: move.move });
}

function render() {
  renderBoard();
  renderStatus();
  renderHistory();
  renderLines();
  renderGraph();
  if (document.activeElement !== $('fen')) $('fen').value = state.fen;
  $('undo').disabled = !state.can_undo;
  $('redo').disabled = !state.can_redo;
  $('stop').disabled = !state.searching;
  $('analyse').textContent = analysing ? 'Stop analysis' : 'Analyse';
  $('variant').value = state.variant;
}

function renderBoard() {
  const svg = $('board');
  const n = state.size;
  const w = n * S + 2 * M;
  svg.setAttribute('viewBox', `0 0 ${w} ${w}`);
  svg.setAttribute('data-variant', state.variant);
  svg.setAttribute('data-fen', state.fen);
  svg.innerHTML = '';
  el('rect', { x: 0, y: 0, width: w, height: w, class: 'frame', rx: 6 }, svg);
  el('rect', { x: M, y: M, width: n * S, height: n * S, class: 'light' }, svg);
  const numeric = state.squares.length > 0 && /^[0-9]+$/.test(state.squares[0].name);
  const fits = candidates(selection);
  const dest = new Set(fits.map((m) => m.to));
  const steps = new Set();
  for (const m of fits) for (const p of m.paths) for (const s of p.slice(1, -1)) if (!selection.includes(s)) steps.add(s);
  const last = new Set(state.last_move ? state.last_move.paths[0] || [state.last_move.from, state.last_move.to] : []);
  const pieces = el('g', { class: 'pieces' });
  for (const sq of state.squares) {
    const d = display(sq);
    const x = M + d.file * S, y = M + d.row * S;
    let cls = 'dark';
    if (last.has(sq.number)) cls += ' last';
    if (selection.includes(sq.number)) cls += ' selected';
    el('rect', { x, y, width: S, height: S, class: cls, 'data-square': sq.number, 'data-name': sq.name }, svg);
    if (numeric) {
      const t = el('text', { x: x + 3, y: y + 11, class: 'num' }, svg);
      t.textContent = sq.name;
    }
    edgeLabels(svg, sq, d, numeric);
    const piece = edit ? edit.get(sq.number) : sq.piece;
    if (piece) drawPiece(pieces, sq, piece);
    if (dest.has(sq.number)) el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.16, class: 'dest', 'data-square': sq.number }, svg);
    else if (steps.has(sq.number)) el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.1, class: 'step', 'data-square': sq.number }, svg);
  }
  svg.appendChild(pieces);
  // Destinations above the pieces they may sit on (a capture's path).
  for (const c of svg.querySelectorAll('circle.dest, circle.step')) svg.appendChild(c);
}

// The variant's notation on the board's edges: the numbers of the edge
// squares for numbered boards; for algebraic ones every file's letter
// below the board and every rank's number on its left, as printed boards
// have them (each read from the names of the squares on that file or rank).
function edgeLabels(svg, sq, d, numeric) {
  const n = state.size;
  const x = M + d.file * S + S / 2, y = M + d.row * S + S / 2;
  const label = (lx, ly, text) => { const t = el('text', { x: lx, y: ly, class: 'edge' }, svg); t.textContent = text; };
  if (numeric) {
    if (d.row === 0) label(x, M / 2 + 4, sq.name);
    if (d.row === n - 1) label(x, M + n * S + M / 2 + 4, sq.name);
    if (d.file === 0) label(M / 2, y + 4, sq.name);
    if (d.file === n - 1) label(M + n * S + M / 2, y + 4, sq.name);
    return;
  }
  const file = sq.name.slice(0, 1), rank = sq.name.slice(1);
  // One label per file and per rank: from the square in the board's
  // bottom two rows (every file has one there) and left two files.
  if (d.row >= n - 2) label(x, M + n * S + M / 2 + 4, file);
  if (d.file <= 1) label(M / 2, y + 4, rank);
}

function drawPiece(parent, sq, piece) {
  const c = centre(sq);
  const g = el('g', {
    class: `piece ${piece.colour}${piece.king ? ' king' : ''}`,
    'data-square': sq.number, 'data-colour': piece.colour, 'data-king': piece.king ? '1' : '0',
  }, parent);
  el('circle', { cx: c.x + 1.5, cy: c.y + 2.5, r: S * 0.4, class: 'shadow' }, g);
  el('circle', { cx: c.x, cy: c.y, r: S * 0.4, class: 'body' }, g);
  el('circle', { cx: c.x, cy: c.y, r: S * 0.29, class: 'ring' }, g);
  if (piece.king) {
    const k = S * 0.17;
    const pts = [
      [-k, k * 0.55], [-k, -k * 0.45], [-k * 0.5, k * 0.05], [0, -k * 0.75],
      [k * 0.5, k * 0.05], [k, -k * 0.45], [k, k * 0.55],
    ].map(([px, py]) => `${c.x + px},${c.y + py}`).join(' ');
    el('polygon', { points: pts, class: 'crown' }, g);
  }
}

function squareAt(clientX, clientY) {
  const hit = document.elementFromPoint(clientX, clientY);
  const sq = hit && hit.closest('[data-square]');
  return sq ? Number(sq.getAttribute('data-square')) : null;
}

function setUpBoardInput() {
  const svg = $('board');
  svg.addEventListener('click', (e) => {
    const sq = e.target.closest('[data-square]');
    if (sq && state) clickSquare(Number(sq.getAttribute('data-square')));
  });
  // Dragging: press on a piece that can move, let go on its destination.
  svg.addEventListener('pointerdown', (e) => {
    if (!state || edit || e.button !== 0) return;
    const g = e.target.closest('g.piece');
    if (!g) return;
    const from = Number(g.getAttribute('data-square'));
    if (!state.moves.some((m) => m.from === from)) return;
    drag = { from, el: g, x0: e.clientX, y0: e.clientY, moved: false };
  });
  window.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const scale = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width;
    const dx = (e.clientX - drag.x0) * scale, dy = (e.clientY - drag.y0) * scale;
    if (Math.abs(dx) + Math.abs(dy) > 6) drag.moved = true;
    if (drag.moved) {
      drag.el.setAttribute('transform', `translate(${dx},${dy})`);
      drag.el.classList.add('dragging');
    }
  });
  window.addEventListener('pointerup', (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;  // a plain click: the click handler has it
    d.el.style.pointerEvents = 'none';
    const to = squareAt(e.clientX, e.clientY);
    d.el.removeAttribute('transform');
    if (to === null || to === d.from) { render(); return; }
    selection = [d.from];
    clickSquare(to);
    // A click event follows on the square let go on: it must not count twice.
    suppressClick();
  });
}

function suppressClick() {
  const stop = (e) => { e.stopPropagation(); window.removeEventListener('click', stop, true); };
  window.addEventListener('click', stop, true);
  setTimeout(() => window.removeEventListener('click', stop, true), 0);
}

// ------------------------------------------------------------ the panel

function sideName(side) { return side === 'white' ? 'White' : 'Black'; }

function renderStatus() {
  const turn = $('turn');
  turn.textContent = state.result ? '' : `${sideName(state.side)} to move`;
  turn.setAttribute('data-side', state.side);
  if (state.searching === 'engine') turn.textContent += ' · Tiao is thinking…';
  $('result').textContent = state.result ? state.result : '';
  const v = $('verdict');
  if (state.verdict) {
    const words = { win: 'wins', loss: 'loses', draw: 'draws' };
    v.textContent = `Endgame database: ${sideName(state.side)} to move ${words[state.verdict]}`;
    v.hidden = false;
  } else {
    v.textContent = '';
    v.hidden = true;
  }
  v.setAttribute('data-verdict', state.verdict || '');
}

function renderHistory() {
  const list = $('history');
  list.innerHTML = '';
  const h = state.history;
  // The side that made the first move, so that moves pair up by number.
  const blackFirst = (h.length % 2 === 0) === (state.side === 'black');
  let i = 0, number = 1;
  while (i < h.length) {
    const li = document.createElement('li');
    const white = blackFirst && i === 0 ? '…' : h[i++];
    const black = i < h.length ? h[i++] : '';
    li.textContent = `${number}. ${white} ${black}`;
    list.appendChild(li);
    number++;
  }
  list.scrollTop = list.scrollHeight;
}

function renderLines() {
  const body = $('lines').querySelector('tbody');
  body.innerHTML = '';
  lines.forEach((l, i) => {
    if (!l) return;
    const tr = document.createElement('tr');
    tr.className = 'line';
    tr.setAttribute('data-multipv', String(i + 1));
    for (const text of [String(i + 1), String(l.depth), l.score_text, l.pv.join(' ')]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  });
}

function renderGraph() {
  const svg = $('graph');
  svg.innerHTML = '';
  const W = 320, H = 120, P = 8;
  const clamp = 300;  // centi-men: three men either way fill the graph
  const plies = Math.max(state.history.length, 1);
  const x = (ply) => P + (W - 2 * P) * ply / plies;
  const y = (score) => H / 2 - (H / 2 - P) * Math.max(-clamp, Math.min(clamp, score)) / clamp;
  el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'white-half' }, svg);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'black-half' }, svg);
  el('line', { x1: P, y1: H / 2, x2: W - P, y2: H / 2, class: 'axis' }, svg);
  el('line', { x1: x(state.history.length), y1: P, x2: x(state.history.length), y2: H - P, class: 'now' }, svg);
  const points = state.evals.filter((p) => p.ply <= state.history.length).sort((a, b) => a.ply - b.ply);
  if (points.length > 1) {
    el('polyline', { points: points.map((p) => `${x(p.ply)},${y(p.score)}`).join(' '), class: 'curve' }, svg);
  }
  for (const p of points) {
    const c = el('circle', { cx: x(p.ply), cy: y(p.score), r: 2.6, class: 'pt', 'data-ply': p.ply, 'data-score': p.score }, svg);
    const title = el('title', {}, c);
    title.textContent = `ply ${p.ply}: ${(p.score / 100).toFixed(2)}`;
  }
}

// ------------------------------------------------------------ setting up

function startEdit() {
  edit = new Map();
  for (const sq of state.squares) if (sq.piece) edit.set(sq.number, sq.piece);
  $('edit-side').value = state.side;
  $('edit-tools').hidden = false;
  $('edit').disabled = true;
  render();
}

function endEdit() {
  edit = null;
  $('edit-tools').hidden = true;
  $('edit').disabled = false;
}

function place(n) {
  const code = $('palette').value;
  if (code === 'empty') edit.delete(n);
  else edit.set(n, { colour: code[0] === 'w' ? 'white' : 'black', king: code[1] === 'k' });
  renderBoard();
}

function setUpPanel() {
  $('new-game').onclick = () => { endEdit(); send({ type: 'new_game', variant: $('variant').value }); };
  $('variant').onchange = () => { endEdit(); send({ type: 'new_game', variant: $('variant').value }); };
  $('undo').onclick = () => send({ type: 'undo' });
  $('redo').onclick = () => send({ type: 'redo' });
  $('stop').onclick = () => { analysing = false; send({ type: 'stop' }); };
  $('flip').onclick = () => { flipped = !flipped; if (state) render(); };
  $('engine-move').onclick = () => send(Object.assign({ type: 'engine_move' }, limit()));
  $('tiao-side').onchange = () => {
    // The person's side at the bottom: Black's when Tiao plays White.
    flipped = $('tiao-side').value === 'white';
    if (state) render();
    next();
  };
  $('analyse').onclick = () => {
    analysing = !analysing;
    if (analysing) { lines = []; send({ type: 'analyse', multipv: multipv() }); } else send({ type: 'stop' });
    $('analyse').textContent = analysing ? 'Stop analysis' : 'Analyse';
  };
  $('eval-game').onclick = () => send({ type: 'eval_game' });
  $('set-fen').onclick = () => send({ type: 'set_fen', fen: $('fen').value });
  $('fen').addEventListener('keydown', (e) => { if (e.key === 'Enter') send({ type: 'set_fen', fen: $('fen').value }); });
  $('load-pdn').onclick = () => send({ type: 'load_pdn', pdn: $('pdn').value });
  $('save-pdn').onclick = () => {
    const tiao = $('tiao-side').value;
    send({
      type: 'save_pdn',
      white: tiao === 'white' || tiao === 'both' ? 'Tiao' : 'Player',
      black: tiao === 'black' || tiao === 'both' ? 'Tiao' : 'Player',
    });
  };
  $('edit').onclick = () => { if (state) startEdit(); };
  $('edit-clear').onclick = () => { edit = new Map(); renderBoard(); };
  $('edit-cancel').onclick = () => { endEdit(); render(); };
  $('edit-apply').onclick = () => {
    const pieces = [...edit.entries()].map(([square, p]) => ({ square, colour: p.colour, king: p.king }));
    const side = $('edit-side').value;
    endEdit();
    send({ type: 'set_pieces', side, pieces });
  };
}

setUpBoardInput();
setUpPanel();
connect();
