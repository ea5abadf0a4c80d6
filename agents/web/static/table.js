/* Jass web page: drawing one view of a table (the board and the info panel).
 *
 * Classic script: defines window.Jass.table and the small DOM helper window.Jass.h. It draws what
 * the view holds and offers exactly the view's `legal` actions: it knows no rule of any game.
 */
(function (J) {
  'use strict';
  const t = (k, p) => J.i18n.t(k, p);

  /** Create an element: h('button', {class: 'x', onclick: fn, 'aria-label': 'y'}, child, ...). */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [key, value] of Object.entries(attrs)) {
        if (value === null || value === undefined || value === false) continue;
        if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
        else if (key === 'class') el.className = value;
        else if (key === 'dataset') Object.assign(el.dataset, value);
        else if (key === 'text') el.textContent = value;
        else el.setAttribute(key, value === true ? '' : String(value));
      }
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  /* False while drawing a review: the viewpoint seat is named like the others, not "You". */
  let youNamed = true;

  function seatName(view, s) {
    if (s === null || s === undefined) return '?';
    return youNamed && view.seat === s ? t('table.you') : t('table.player', { n: s });
  }

  function sideName(view, side) {
    return view.teams ? t('table.team', { n: side }) : t('table.player', { n: side });
  }

  function seatInfo(view, s) {
    return (view.seats || []).find((x) => x.seat === s) || { seat: s };
  }

  function handOf(view, s) {
    if (view.seat === s && Array.isArray(view.hand)) return view.hand;
    const hands = view.hands;
    if (!hands) return null;
    const hand = hands[s] !== undefined ? hands[s] : hands[String(s)];
    return Array.isArray(hand) ? hand : null;
  }

  function cardsLeftText(n) {
    return n === 1 ? t('table.cardsLeft1') : t('table.cardsLeft', { n });
  }

  /**
   * A card: a button when `onPlay` is given (aria-disabled unless `legal`), else a labelled span.
   * `digit`: the number key that plays it; `mark`: {chosen, best, p} from a review; `hidden`: only
   * drawn (its words are given next to it).
   */
  function cardEl(name, opts) {
    const o = opts || {};
    const parsed = J.i18n.parseCard(name);
    const suit = parsed ? parsed.suit : 'X';
    const classes = ['card', `suit-${suit}`];
    let label = J.i18n.cardName(name);
    const mark = o.mark;
    if (mark) {
      if (mark.chosen) { classes.push('chosen'); label += ` (${t('table.chosen')})`; }
      if (mark.best) { classes.push('best'); label += ` (${t('table.best')})`; }
      if (typeof mark.p === 'number') label += `, ${pct(mark.p)}`;
    }
    const face = [
      h('span', { class: 'rank', 'aria-hidden': 'true' }, parsed ? parsed.rank : name),
      h('span', { class: 'suit', 'aria-hidden': 'true' }, parsed ? J.i18n.SUIT_SYMBOL[suit] : ''),
    ];
    if (o.digit) face.push(h('span', { class: 'digit', 'aria-hidden': 'true' }, o.digit));
    if (mark && typeof mark.p === 'number') face.push(probBar(mark.p, true));
    if (o.onPlay) {
      if (!o.legal) classes.push('illegal');
      return h('button', {
        type: 'button', class: classes.join(' '), 'aria-label': label,
        'aria-disabled': o.legal ? null : 'true', 'aria-keyshortcuts': o.digit ? String(o.digit) : null,
        dataset: { focusKey: `card:${name}` }, tabindex: '-1',
        onclick: () => { if (o.legal) o.onPlay(); },
      }, face);
    }
    if (o.hidden) return h('span', { class: classes.join(' '), 'aria-hidden': 'true' }, face);
    return h('span', { class: classes.join(' '), role: 'img', 'aria-label': label }, face);
  }

  function pct(p) {
    return `${(100 * p).toFixed(p > 0 && p < 0.1 ? 1 : 0)} %`;
  }

  function probBar(p, small) {
    const bar = h('span', { class: small ? 'prob prob-small' : 'prob', 'aria-hidden': 'true' },
      h('span', { class: 'prob-fill' }));
    bar.firstChild.style.width = `${Math.max(0, Math.min(1, p)) * 100}%`;
    return bar;
  }

  /* Where the other seats sit, seen from `base` at the bottom: play goes to the right (counter-
   * clockwise), so the next seat sits right, the one before `base` left, the rest across the top. */
  function placeOthers(n, base) {
    const others = [];
    for (let i = 1; i < n; i += 1) others.push((base + i) % n);
    const k = others.length;
    return others.map((seat, i) => {
      let area = 'top';
      if (k >= 2 && i === 0) area = 'right';
      else if (k >= 2 && i === k - 1) area = 'left';
      return { seat, area };
    });
  }

  function seatBox(view, s, opts) {
    const info = seatInfo(view, s);
    const toMove = !view.round_over && view.to_move === s;
    const meta = [];
    if (info.side !== undefined && info.side !== null && view.teams) {
      meta.push(sideName(view, info.side));
    }
    if (typeof info.cards_left === 'number') meta.push(cardsLeftText(info.cards_left));
    if (view.dealer === s) meta.push(t('table.dealer'));
    if (view.forehand === s) meta.push(t('table.forehand'));
    const hand = opts.openHands ? handOf(view, s) : null;
    const name = seatName(view, s);
    return h('section', {
      class: `seat side-${info.side ?? 'x'}${toMove ? ' to-move' : ''}`,
      'aria-label': name,
    },
    h('h3', { class: 'seat-name' }, name,
      info.who ? h('span', { class: 'who' }, ` · ${info.who}`) : null,
      toMove ? h('span', { class: 'badge' }, t('table.toMove')) : null),
    h('p', { class: 'seat-meta' }, meta.join(' · ')),
    info.warning ? h('p', { class: 'seat-warning' }, `⚠ ${info.warning}`) : null,
    hand ? h('div', { class: 'mini-hand', role: 'group', 'aria-label': t('table.handOf', { name }) },
      hand.map((c) => cardEl(c, { mark: opts.marks && opts.marks[c] }))) : null);
  }

  function trickList(view, plays, label) {
    return h('ol', { class: 'trick-cards', 'aria-label': label },
      plays.map((p) => h('li', { class: 'trick-play' }, cardEl(p.card),
        h('span', { class: 'trick-seat' }, seatName(view, p.seat)))));
  }

  function centre(view) {
    const parts = [];
    const trump = J.i18n.trumpText(view.trump);
    const contract = J.i18n.trumpText(view.contract);
    const facts = [];
    if (trump) facts.push(`${t('table.trump')}: ${trump}`);
    if (contract && contract !== trump) facts.push(`${t('table.contract')}: ${contract}`);
    if (facts.length) parts.push(h('p', { class: 'contract' }, facts.join(' · ')));
    const trick = Array.isArray(view.trick) ? view.trick : [];
    const tricks = Array.isArray(view.tricks) ? view.tricks : [];
    const last = tricks[tricks.length - 1];
    const lastTitle = last ? `${t('table.lastTrick')} (${tricks.length}): `
      + t('table.wonBy', { name: seatName(view, last.winner), points: last.points ?? '?' }) : '';
    if (trick.length) {
      parts.push(h('h3', { class: 'sr-only' }, t('table.trick')));
      parts.push(trickList(view, trick, t('table.trick')));
      if (last && Array.isArray(last.plays)) {
        parts.push(h('details', { class: 'last-trick' }, h('summary', null, lastTitle),
          trickList(view, last.plays, t('table.lastTrick'))));
      }
    } else if (last && Array.isArray(last.plays)) {
      // no card played yet: the trick just won stays in view until the next card
      parts.push(h('p', { class: 'last-title' }, lastTitle));
      parts.push(h('div', { class: 'previous' }, trickList(view, last.plays, t('table.lastTrick'))));
    } else {
      parts.push(h('p', { class: 'trick-empty' }, t('table.trickEmpty')));
    }
    return h('div', { class: 'centre' }, parts);
  }

  function turnText(view) {
    if (view.match_over) return t('table.matchOver');
    if (view.round_over) return t('table.roundOver');
    if (view.to_move === null || view.to_move === undefined) return '';
    if (youNamed && view.seat === view.to_move && Array.isArray(view.legal) && view.legal.length) return t('table.yourTurn');
    const name = seatName(view, view.to_move);
    const who = seatInfo(view, view.to_move).who;
    return youNamed && who && who !== 'human' ? t('table.waitAgent', { name }) : t('table.turnOf', { name });
  }

  const MANY_ACTIONS = 24;

  /** Phase actions: buttons, or for many options (predictions) a select and a button. */
  function phaseActions(view, legal, onAction) {
    const phase = legal.filter((a) => !a.card);
    if (!phase.length) return null;
    const digitOf = (a) => { const i = legal.indexOf(a); return i < 9 ? i + 1 : null; };
    if (phase.length <= MANY_ACTIONS) {
      return h('div', { class: 'phase-actions', role: 'group', 'aria-label': t('table.choices') },
        phase.map((a) => {
          const d = digitOf(a);
          return h('button', {
            type: 'button', class: 'action', dataset: { focusKey: `act:${a.action}` },
            'aria-keyshortcuts': d ? String(d) : null,
            onclick: () => onAction(a.action),
          }, d ? h('span', { class: 'digit', 'aria-hidden': 'true' }, d) : null, J.i18n.actionLabel(a.label));
        }));
    }
    const id = 'many-actions';
    const select = h('select', { id, dataset: { focusKey: 'act:select' } },
      phase.map((a) => h('option', { value: a.action }, J.i18n.actionLabel(a.label))));
    return h('div', { class: 'phase-actions many', role: 'group', 'aria-label': t('table.choices') },
      h('label', { for: id }, t('table.chooseAmong', { n: phase.length })), select,
      h('button', {
        type: 'button', class: 'action', dataset: { focusKey: 'act:choose' },
        onclick: () => onAction(Number(select.value)),
      }, t('table.choose')));
  }

  /* Keyboard within the hand: one tab stop, arrows / Home / End move between the cards. */
  function rovingHand(hand) {
    const cards = () => Array.from(hand.querySelectorAll('button.card'));
    hand.addEventListener('keydown', (ev) => {
      const list = cards();
      const i = list.indexOf(document.activeElement);
      if (i < 0) return;
      let j = null;
      if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') j = (i + 1) % list.length;
      else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') j = (i - 1 + list.length) % list.length;
      else if (ev.key === 'Home') j = 0;
      else if (ev.key === 'End') j = list.length - 1;
      if (j === null) return;
      ev.preventDefault();
      ev.stopPropagation();
      list[i].tabIndex = -1;
      list[j].tabIndex = 0;
      list[j].focus();
    });
    hand.addEventListener('focusin', (ev) => {
      if (!ev.target.matches('button.card')) return;
      cards().forEach((c) => { c.tabIndex = c === ev.target ? 0 : -1; });
    });
  }

  function ownArea(view, opts) {
    const base = view.seat ?? opts.base ?? 0;
    const legal = opts.interactive && Array.isArray(view.legal) ? view.legal : [];
    const byCard = new Map(legal.filter((a) => a.card).map((a) => [a.card, a]));
    const info = seatInfo(view, base);
    const hand = handOf(view, base) || [];
    const parts = [];
    const meta = [seatName(view, base)];
    if (youNamed && view.seat === base) meta.push(t('table.player', { n: base }));
    if (info.side !== undefined && view.teams) meta.push(sideName(view, info.side));
    if (info.who && view.seat !== base) meta.push(info.who);
    if (view.dealer === base) meta.push(t('table.dealer'));
    if (view.forehand === base) meta.push(t('table.forehand'));
    if (view.seat === null || view.seat === undefined) {
      if (typeof info.cards_left === 'number') meta.push(cardsLeftText(info.cards_left));
    }
    parts.push(h('h3', { class: 'seat-name' }, meta.join(' · ')));
    const turn = turnText(view);
    const myTurn = legal.length > 0;
    parts.push(h('p', { class: `turn${myTurn ? ' my-turn' : ''}`, id: 'turn-line' }, turn));
    if (myTurn) parts.push(phaseActions(view, legal, opts.onAction));
    const handLabel = view.seat === base ? t('table.hand', { n: hand.length }) : t('table.handOf', { name: seatName(view, base) });
    const handEl = h('div', { class: 'hand', role: 'group', 'aria-label': handLabel },
      hand.map((c) => {
        const a = byCard.get(c);
        const i = a ? legal.indexOf(a) : -1;
        if (!opts.interactive) return cardEl(c, { mark: opts.marks && opts.marks[c] });
        return cardEl(c, {
          legal: !!a, digit: i >= 0 && i < 9 ? i + 1 : null,
          onPlay: () => opts.onAction(a.action), mark: opts.marks && opts.marks[c],
        });
      }));
    if (opts.interactive) {
      const buttons = handEl.querySelectorAll('button.card');
      const first = handEl.querySelector('button.card:not(.illegal)') || buttons[0];
      if (first) first.tabIndex = 0;
      rovingHand(handEl);
    }
    parts.push(handEl);
    return h('section', {
      class: `own seat side-${info.side ?? 'x'}${!view.round_over && view.to_move === base ? ' to-move' : ''}`,
      'aria-label': seatName(view, base),
    }, parts);
  }

  /**
   * Draw the board of `view` into `root`. opts: interactive (the hand plays), onAction(action id),
   * openHands (show view.hands of the other seats), marks ({card: {chosen, best, p}}), base (the
   * seat at the bottom for a watcher), you (false: name the bottom seat "Player k", not "You", as a
 * review does).
   */
  function renderBoard(root, view, opts) {
    const o = opts || {};
    youNamed = o.you !== false;
    const focusKey = document.activeElement && root.contains(document.activeElement)
      ? document.activeElement.dataset.focusKey : null;
    const n = view.players || (view.seats || []).length || 4;
    const base = view.seat ?? o.base ?? 0;
    const areas = { top: [], left: [], right: [] };
    placeOthers(n, base).forEach(({ seat, area }) => {
      areas[area].push(seatBox(view, seat, { openHands: o.openHands !== false, marks: o.marks }));
    });
    const felt = h('div', { class: `felt players-${n}` },
      h('div', { class: 'seats-top' }, areas.top),
      h('div', { class: 'seats-left' }, areas.left),
      centre(view),
      h('div', { class: 'seats-right' }, areas.right));
    root.replaceChildren(felt, ownArea(view, { ...o, base }));
    if (focusKey) {
      const same = root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      const usable = same && !same.matches('button.card.illegal') ? same : null;
      const target = usable || root.querySelector('.hand button.card:not(.illegal)')
        || root.querySelector('.phase-actions button, .phase-actions select') || same
        || root.querySelector('.hand button.card[tabindex="0"]');
      if (target) target.focus();
    }
  }

  /** The info panel: result, the game's lines, the scores and the event log. */
  function renderInfo(root, view, opts) {
    const o = opts || {};
    youNamed = o.you !== false;
    const parts = [];
    if (view.round_over && view.result) {
      parts.push(h('p', { class: 'result', role: 'status' }, view.result));
    }
    if (o.controls) parts.push(o.controls);
    parts.push(scores(view));
    if (Array.isArray(view.lines) && view.lines.length) {
      parts.push(h('h3', null, t('table.lines')));
      parts.push(h('pre', { class: 'lines', tabindex: '0', 'aria-label': t('table.lines') }, view.lines.join('\n')));
    }
    if (Array.isArray(view.log) && o.log !== false) {
      parts.push(h('h3', null, t('table.log')));
      const log = h('ol', { class: 'log', tabindex: '0', 'aria-label': t('table.log') },
        view.log.map((line) => h('li', null, line)));
      parts.push(log);
      requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
    }
    root.replaceChildren(...parts);
  }

  /* Scores per side: sides as columns for up to three sides, as rows beyond (phone width). */
  function scores(view) {
    const rows = [
      ['table.points', view.points], ['table.tricks', view.tricks_won],
      ['table.score', view.score], ['table.match', view.match_scores],
    ].filter(([, v]) => Array.isArray(v));
    if (!rows.length) return null;
    const sides = Math.max(...rows.map(([, v]) => v.length));
    const cell = (x) => h('td', null, x === null || x === undefined ? '–' : String(x));
    const caption = view.round_no ? `${t('table.scores')} · ${t('table.round', { n: view.round_no })}` : t('table.scores');
    const sideIds = Array.from({ length: sides }, (_, i) => i);
    let head;
    let body;
    if (sides <= 3) {
      head = [h('td'), sideIds.map((i) => h('th', { scope: 'col' }, sideName(view, i)))];
      body = rows.map(([key, v]) => h('tr', null, h('th', { scope: 'row' }, t(key)), sideIds.map((i) => cell(v[i]))));
    } else {
      head = [h('td'), rows.map(([key]) => h('th', { scope: 'col' }, t(key)))];
      body = sideIds.map((i) => h('tr', null, h('th', { scope: 'row' }, sideName(view, i)), rows.map(([, v]) => cell(v[i]))));
    }
    return h('div', { class: 'scores-wrap' }, h('table', { class: 'scores' },
      h('caption', null, caption), h('thead', null, h('tr', null, head)), h('tbody', null, body)));
  }

  J.h = h;
  J.table = { renderBoard, renderInfo, cardEl, probBar, pct, seatName, sideName, turnText, handOf };
})(window.Jass = window.Jass || {});
