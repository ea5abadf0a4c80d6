/* Jass web page: the Review mode (a record file card by card, an agent's view of each decision).
 *
 * Classic script: defines window.Jass.review. It works with the server (POST /api/reviews, GET a
 * record per viewpoint and open/closed hands, POST analysis and playon) or without one, from the
 * JSON embedded in the page (<script type="application/json" id="embedded-review">), where every
 * viewpoint and both hand modes come precomputed and play-on is not available.
 */
(function (J) {
  'use strict';
  const t = (k, p) => J.i18n.t(k, p);
  const h = (...a) => J.h(...a);
  const $ = (id) => document.getElementById(id);

  const S = {
    offline: false,      // no server: data comes from the embedded JSON
    embedded: null,
    reviewId: null,
    name: '',
    records: [],
    problems: [],
    rec: null,           // index of the chosen record
    data: null,          // review JSON of that record for the chosen viewpoint / hand mode
    pos: 0,              // 0..decisions.length (the last: the end of the round)
    viewpoint: 0,
    open: false,
    analysis: {},        // record index -> analysis JSON
    threshold: 0.2,
    onlyDiffers: false,
    loading: false,
  };

  function showError(message) { J.app.showError(message); }

  function decisions() { return S.data && Array.isArray(S.data.decisions) ? S.data.decisions : []; }

  /* ---------- loading ---------- */

  async function loadText(text, name) {
    if (S.offline) return;
    const format = $('review-format').value;
    try {
      const resp = await J.api.post('/api/reviews', { text, name, format });
      S.reviewId = resp.review;
      S.name = resp.name || name;
      S.records = resp.records || [];
      S.problems = resp.problems || [];
      S.analysis = {};
      S.rec = null;
      S.data = null;
      renderRecords();
      if (S.records.length === 1) await chooseRecord(S.records[0].index);
      else if (S.records.length) $('review-records').querySelector('button')?.focus();
    } catch (e) {
      showError(e.message);
    }
  }

  async function loadFile(file) {
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (e) {
      showError(t('err.file', { detail: e.message }));
      return;
    }
    await loadText(text, file.name);
  }

  /** Start from the embedded JSON (W3's export format, or one plain review JSON object). */
  function loadEmbedded(data) {
    S.offline = true;
    if (data && Array.isArray(data.decisions)) {
      const index = data.record ?? 0;
      const analysis = data.analysis && Array.isArray(data.analysis.decisions) ? data.analysis : null;
      data = {
        name: data.id || '', records: [{ index, id: data.id, rules: data.rules, title: data.title, decisions: data.decisions.length }],
        reviews: { [index]: { [data.viewpoint ?? 0]: { [data.open ? 'open' : 'closed']: data } } },
        analysis: analysis ? { [index]: analysis } : {}, agent: analysis ? analysis.agent : null,
        threshold: analysis && typeof analysis.threshold === 'number' ? analysis.threshold : 0.2,
      };
    }
    S.embedded = data || {};
    S.name = S.embedded.name || '';
    S.records = S.embedded.records || Object.keys(S.embedded.reviews || {}).map((k) => ({ index: Number(k) }));
    S.problems = S.embedded.problems || [];
    S.analysis = S.embedded.analysis || {};
    if (typeof S.embedded.threshold === 'number') S.threshold = S.embedded.threshold;
    $('review-threshold').value = String(S.threshold);
    $('review-load').hidden = true;
    $('review-offline').hidden = false;
    renderRecords();
    if (S.records.length) chooseRecord(S.records[0].index);
  }

  function embeddedVariants(rec) {
    const byRec = (S.embedded.reviews || {})[rec] || (S.embedded.reviews || {})[String(rec)] || {};
    return byRec;
  }

  function embeddedReview(rec, viewpoint, open) {
    const byVp = embeddedVariants(rec);
    const variants = byVp[viewpoint] || byVp[String(viewpoint)] || byVp[Object.keys(byVp)[0]] || {};
    return variants[open ? 'open' : 'closed'] || variants.open || variants.closed || null;
  }

  async function fetchRecord() {
    if (S.rec === null) return;
    if (S.offline) {
      S.data = embeddedReview(S.rec, S.viewpoint, S.open);
      if (!S.data) showError(t('err.embedded', { detail: `record ${S.rec}` }));
      return;
    }
    const path = `/api/reviews/${encodeURIComponent(S.reviewId)}/${encodeURIComponent(S.rec)}`
      + `?viewpoint=${encodeURIComponent(S.viewpoint)}&open=${S.open ? 1 : 0}`;
    S.loading = true;
    try {
      S.data = await J.api.get(path);
    } catch (e) {
      showError(e.message);
    } finally {
      S.loading = false;
    }
  }

  /** The viewpoint kept when another record is chosen, if that record has the seat, else 0. */
  function keptViewpoint(index) {
    if (S.offline) {
      const seats = Object.keys(embeddedVariants(index)).map(Number);
      return seats.includes(S.viewpoint) ? S.viewpoint : (seats.length ? Math.min(...seats) : 0);
    }
    const record = S.records.find((r) => r.index === index);
    const preset = record ? J.app.presetOf(record.rules) : null;
    return preset && S.viewpoint < preset.players ? S.viewpoint : 0;
  }

  async function chooseRecord(index) {
    S.viewpoint = keptViewpoint(index);
    S.rec = index;
    S.pos = 0;
    await fetchRecord();
    if (S.data) {
      S.viewpoint = S.data.viewpoint ?? 0;
      S.pos = 0;
    }
    renderRecords();
    fillControls();
    render();
    $('review-main').hidden = !S.data;
  }

  /* ---------- analysis ---------- */

  function analysisOf(index) {
    const a = S.analysis[S.rec] || S.analysis[String(S.rec)];
    if (!a || !Array.isArray(a.decisions)) return null;
    return a.decisions.find((d) => d.index === index) || null;
  }

  function prob(probs, action) {
    if (!probs) return null;
    const p = probs[action] ?? probs[String(action)];
    return typeof p === 'number' ? p : 0;
  }

  /** p(agent's best) - p(chosen) > threshold, from the probabilities when the analysis has them. */
  function differs(d) {
    const a = analysisOf(d.index);
    if (!a) return false;
    if (a.probs && a.best !== undefined && a.best !== null) {
      return prob(a.probs, a.best) - prob(a.probs, d.chosen) > S.threshold;
    }
    return !!a.differs;
  }

  function readThreshold() {
    const raw = $('review-threshold').value.trim().replace(',', '.');
    const v = Number(raw);
    if (raw === '' || !Number.isFinite(v) || v < 0 || v > 1) {
      showError(t('err.threshold', { value: raw }));
      return null;
    }
    return v;
  }

  function agentSpec() {
    const sel = $('review-agent');
    if (sel.value === '__custom__') return $('review-agent-custom').value.trim();
    return sel.value;
  }

  async function analyse() {
    if (S.rec === null) { showError(t('err.noRecord')); return; }
    const threshold = readThreshold();
    if (threshold === null) return;
    S.threshold = threshold;
    const agent = agentSpec();
    if (!agent) { showError(t('err.customEmpty', { seat: '–' })); return; }
    const status = $('review-analysis-status');
    status.textContent = t('review.analysing');
    $('review-analyse').disabled = true;
    try {
      const path = `/api/reviews/${encodeURIComponent(S.reviewId)}/${encodeURIComponent(S.rec)}/analysis`;
      S.analysis[S.rec] = await J.api.post(path, { agent, threshold });
      status.textContent = '';
    } catch (e) {
      status.textContent = '';
      showError(e.message);
    } finally {
      $('review-analyse').disabled = false;
    }
    render();
  }

  /* ---------- navigation ---------- */

  function trickAt(p) {
    const ds = decisions();
    return p >= ds.length ? Infinity : (ds[p].trick ?? 0);
  }

  function go(p, announce) {
    const n = decisions().length;
    S.pos = Math.max(0, Math.min(n, p));
    render();
    if (announce !== false) J.app.announce(positionText() + '. ' + decisionText());
  }

  function step(dir) {
    const ds = decisions();
    if (!S.onlyDiffers) { go(S.pos + dir); return; }
    for (let p = S.pos + dir; p >= 0 && p < ds.length; p += dir) {
      if (differs(ds[p])) { go(p); return; }
    }
    J.app.announce(t('review.noDiffers'));
  }

  function nextTrick() {
    const ds = decisions();
    const cur = trickAt(S.pos);
    let p = S.pos + 1;
    while (p < ds.length && trickAt(p) <= cur) p += 1;
    go(p);
  }

  function prevTrick() {
    const startOf = (q) => { let s = q; while (s > 0 && trickAt(s - 1) === trickAt(q)) s -= 1; return s; };
    const start = startOf(S.pos);
    go(S.pos > start ? start : (start > 0 ? startOf(start - 1) : 0));
  }

  /** Keyboard of the review mode; true when the key was used. */
  function onKey(ev) {
    if (!S.data || $('review-main').hidden) return false;
    if (J.app.isTyping(ev.target)) return false;
    const keys = {
      ArrowLeft: () => step(-1), ArrowRight: () => step(1),
      ArrowUp: prevTrick, PageUp: prevTrick, ArrowDown: nextTrick, PageDown: nextTrick,
      Home: () => go(0), End: () => go(decisions().length),
    };
    const fn = keys[ev.key];
    if (!fn || ev.altKey || ev.ctrlKey || ev.metaKey) return false;
    fn();
    return true;
  }

  /* ---------- drawing ---------- */

  function seatLabel(s) {
    return S.data && S.viewpoint === s ? `${t('table.player', { n: s })} (${t('review.viewpoint')})` : t('table.player', { n: s });
  }

  function positionText() {
    const ds = decisions();
    if (S.pos >= ds.length) return t('review.final');
    const d = ds[S.pos];
    const base = t('review.position', { d: S.pos + 1, n: ds.length });
    return d.trick ? `${base} · ${t('review.positionTrick', { t: d.trick })}` : base;
  }

  function decisionText() {
    const ds = decisions();
    if (S.pos >= ds.length) {
      const final = S.data && S.data.final;
      return final && final.result ? final.result : '';
    }
    const d = ds[S.pos];
    const label = d.legal?.find((a) => a.action === d.chosen)?.card
      ? J.i18n.cardName(d.legal.find((a) => a.action === d.chosen).card)
      : J.i18n.actionLabel(d.chosen_label ?? d.chosen);
    return t('review.decision', { name: t('table.player', { n: d.seat }), label });
  }

  function renderRecords() {
    const nav = $('review-records');
    const items = S.records.map((r) => {
      const title = [`#${r.index}`, r.title || r.rules, r.id ? `(${r.id})` : null,
        typeof r.decisions === 'number' ? `· ${r.decisions}` : null].filter(Boolean).join(' ');
      const notes = Array.isArray(r.notes) && r.notes.length ? ` ⚠ ${r.notes.length}` : '';
      return h('li', null, h('button', {
        type: 'button', class: 'record', 'aria-current': r.index === S.rec ? 'true' : null,
        onclick: () => chooseRecord(r.index),
      }, title + notes));
    });
    const parts = [];
    if (S.records.length) {
      parts.push(h('h3', null, `${t('review.records')}${S.name ? ` · ${S.name}` : ''}`), h('ol', { class: 'records' }, items));
    } else if (!S.offline) {
      parts.push(h('p', null, t('review.empty')));
    }
    if (S.problems.length) {
      parts.push(h('details', { class: 'problems' }, h('summary', null, `${t('review.problems')} (${S.problems.length})`),
        h('ul', null, S.problems.map((p) => h('li', null, String(p))))));
    }
    nav.replaceChildren(...parts);
  }

  function fillControls() {
    if (!S.data) return;
    const players = S.data.players || (S.data.final && S.data.final.players) || 4;
    const vpSel = $('review-viewpoint');
    let seats = [];
    for (let s = 0; s < players; s += 1) seats.push(s);
    if (S.offline) {
      const avail = Object.keys(embeddedVariants(S.rec)).map(Number);
      if (avail.length) seats = seats.filter((s) => avail.includes(s));
    }
    vpSel.replaceChildren(...seats.map((s) => h('option', { value: s }, t('table.player', { n: s }))));
    vpSel.value = String(S.viewpoint);
    $('review-open').checked = S.open;
    const agentSel = $('review-agent');
    if (S.offline) {
      const a = S.analysis[S.rec] || S.analysis[String(S.rec)];
      const name = (a && a.agent) || S.embedded.agent;
      agentSel.replaceChildren(h('option', { value: name || '' }, name || '–'));
      agentSel.disabled = true;
      $('review-analyse').hidden = true;
      $('review-agent-custom').hidden = true;
    } else {
      const preset = J.app.presetOf(S.data.rules);
      const agents = preset && Array.isArray(preset.agents) ? preset.agents : ['random', 'heuristic'];
      const keep = agentSel.value;
      agentSel.replaceChildren(...agents.map((a) => h('option', { value: a }, a)),
        h('option', { value: '__custom__' }, t('lobby.customOpt')));
      agentSel.value = agents.includes(keep) || keep === '__custom__' ? keep : (agents.includes('policy') ? 'policy' : agents[0]);
      $('review-agent-custom').hidden = agentSel.value !== '__custom__';
      renderPlayOn(preset, players);
    }
    $('review-playon').hidden = S.offline;
  }

  function renderPlayOn(preset, players) {
    const box = $('review-playon-seats');
    const seat = decisions()[S.pos]?.seat ?? S.viewpoint;
    J.app.seatEditor(box, preset || { players, agents: ['random', 'heuristic'] }, { mode: 'play', human: seat, idPrefix: 'playon' });
  }

  /* Options of a decision with many (predictions): the chosen one, the agent's choice and its most
   * likely ones are shown, the others folded away. */
  const MANY_OPTIONS = 24;
  const LIKELY_SHOWN = 8;

  function splitOptions(d, an) {
    const legal = d.legal || [];
    if (legal.length <= MANY_OPTIONS) return { shown: legal, rest: [] };
    const keep = new Set([d.chosen]);
    if (an) keep.add(an.best);
    if (an && an.probs) {
      legal.slice().sort((a, b) => prob(an.probs, b.action) - prob(an.probs, a.action))
        .slice(0, LIKELY_SHOWN).forEach((o) => keep.add(o.action));
    }
    return { shown: legal.filter((o) => keep.has(o.action)), rest: legal.filter((o) => !keep.has(o.action)) };
  }

  function renderDecision() {
    const box = $('review-decision');
    const ds = decisions();
    const parts = [h('p', { class: 'review-pos' }, positionText())];
    const a = S.analysis[S.rec] || S.analysis[String(S.rec)];
    if (a) {
      const diffs = ds.filter(differs).length;
      const mode = a.mode === 'choice only' || (ds.length && ds.every((d) => !analysisOf(d.index)?.probs))
        ? ` · ${t('review.choiceOnly')}` : '';
      parts.push(h('p', { class: 'analysis-summary' },
        `${t('review.agent')}: ${a.agent || '?'} · ${diffs ? t('review.differs', { n: diffs }) : t('review.noDiffers')}${mode}`));
      if (a.warning) parts.push(h('p', { class: 'warning' }, a.warning));
    }
    if (S.pos < ds.length) {
      const d = ds[S.pos];
      const an = analysisOf(d.index);
      parts.push(h('h3', { class: 'decision-title' }, decisionText()));
      const row = (opt) => {
        const chosen = opt.action === d.chosen;
        const best = an && an.best === opt.action;
        const p = an ? prob(an.probs, opt.action) : null;
        const v = an && an.values ? an.values[opt.action] ?? an.values[String(opt.action)] : null;
        const name = opt.card ? J.i18n.cardName(opt.card) : J.i18n.actionLabel(opt.label);
        const said = [name];
        if (p !== null) said.push(J.table.pct(p));
        if (typeof v === 'number') said.push(t('review.value', { v: v.toFixed(2) }));
        if (chosen) said.push(t('table.chosen'));
        if (best) said.push(t('table.best'));
        return h('li', { class: `option${chosen ? ' chosen' : ''}${best ? ' best' : ''}` },
          h('span', { class: 'sr-only' }, said.join(', ')),
          opt.card ? J.table.cardEl(opt.card, { hidden: true })
            : h('span', { class: 'opt-label', 'aria-hidden': 'true' }, J.i18n.actionLabel(opt.label)),
          p !== null ? J.table.probBar(p) : null,
          h('span', { class: 'opt-text', 'aria-hidden': 'true' }, said.slice(1).join(' · ')));
      };
      const { shown, rest } = splitOptions(d, an);
      parts.push(h('ul', { class: 'options', 'aria-label': t('table.legal') }, shown.map(row)));
      if (rest.length) {
        parts.push(h('details', { class: 'more-options' },
          h('summary', null, t('review.moreOptions', { n: rest.length })),
          h('ul', { class: 'options' }, rest.map(row))));
      }
      if (S.data.stopped && S.pos === ds.length - 1) parts.push(h('p', { class: 'warning' }, `${t('review.stopped')}: ${S.data.stopped}`));
    } else if (S.data && S.data.stopped) {
      parts.push(h('p', { class: 'warning' }, `${t('review.stopped')}: ${S.data.stopped}`));
    }
    if (S.data && Array.isArray(S.data.notes) && S.data.notes.length) {
      parts.push(h('details', { class: 'notes' }, h('summary', null, `${t('review.notes')} (${S.data.notes.length})`),
        h('ul', null, S.data.notes.map((n) => h('li', null, String(n))))));
    }
    if (S.onlyDiffers && a) {
      const list = ds.filter(differs);
      if (list.length) {
        parts.push(h('ol', { class: 'differs-list', 'aria-label': t('review.onlyDiffers') },
          list.map((d) => h('li', null, h('button', {
            type: 'button', class: 'link', 'aria-current': d.index === S.pos ? 'true' : null,
            onclick: () => go(ds.indexOf(d)),
          }, `${d.index + 1}: ${t('table.player', { n: d.seat })} ${J.i18n.actionLabel(d.chosen_label ?? '')}`)))));
      }
    }
    box.replaceChildren(...parts);
  }

  function marksOf(d) {
    if (!d) return null;
    const an = analysisOf(d.index);
    const marks = {};
    (d.legal || []).forEach((opt) => {
      if (!opt.card) return;
      marks[opt.card] = {
        chosen: opt.action === d.chosen,
        best: !!an && an.best === opt.action,
        p: an && an.probs ? prob(an.probs, opt.action) : undefined,
      };
    });
    return marks;
  }

  function render() {
    if (!S.data) { $('review-main').hidden = true; return; }
    $('review-main').hidden = false;
    const ds = decisions();
    const d = S.pos < ds.length ? ds[S.pos] : null;
    const view = d ? d.view : S.data.final;
    renderDecision();
    const nav = { first: S.pos === 0, last: S.pos >= ds.length };
    $('review-first').disabled = nav.first;
    $('review-prev-trick').disabled = nav.first;
    $('review-prev').disabled = nav.first;
    $('review-next').disabled = nav.last;
    $('review-next-trick').disabled = nav.last;
    $('review-last').disabled = nav.last;
    $('review-playon-go').disabled = !d;
    if (!view) {
      $('review-board').replaceChildren();
      $('review-info').replaceChildren();
      return;
    }
    const shown = { ...view, seat: view.seat ?? S.viewpoint };
    const opts = { interactive: false, openHands: S.open, marks: marksOf(d), base: S.viewpoint, you: false };
    J.table.renderBoard($('review-board'), shown, opts);
    J.table.renderInfo($('review-info'), shown, opts);
  }

  async function playOn() {
    const ds = decisions();
    if (S.pos >= ds.length) { showError(t('err.endOfRound')); return; }
    const seats = J.app.readSeats($('review-playon-seats'));
    if (!seats) return;
    try {
      const path = `/api/reviews/${encodeURIComponent(S.reviewId)}/${encodeURIComponent(S.rec)}/playon`;
      const resp = await J.api.post(path, { decision: ds[S.pos].index, seats });
      J.app.startFromTable('play', resp);
    } catch (e) {
      showError(e.message);
    }
  }

  /* ---------- wiring ---------- */

  function init() {
    $('review-file').addEventListener('change', (ev) => loadFile(ev.target.files[0]));
    const drop = $('review-drop');
    const section = $('review-mode');
    ['dragenter', 'dragover'].forEach((type) => section.addEventListener(type, (ev) => {
      if (S.offline) return;
      ev.preventDefault();
      drop.classList.add('dragging');
    }));
    ['dragleave', 'drop'].forEach((type) => section.addEventListener(type, () => drop.classList.remove('dragging')));
    section.addEventListener('drop', (ev) => {
      if (S.offline) return;
      ev.preventDefault();
      const file = ev.dataTransfer && ev.dataTransfer.files[0];
      if (file) loadFile(file);
    });
    drop.addEventListener('click', () => $('review-file').click());
    drop.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); $('review-file').click(); }
    });
    $('review-first').addEventListener('click', () => go(0));
    $('review-prev-trick').addEventListener('click', prevTrick);
    $('review-prev').addEventListener('click', () => step(-1));
    $('review-next').addEventListener('click', () => step(1));
    $('review-next-trick').addEventListener('click', nextTrick);
    $('review-last').addEventListener('click', () => go(decisions().length));
    $('review-viewpoint').addEventListener('change', async (ev) => {
      S.viewpoint = Number(ev.target.value);
      await fetchRecord();
      render();
    });
    $('review-open').addEventListener('change', async (ev) => {
      S.open = ev.target.checked;
      await fetchRecord();
      render();
    });
    $('review-agent').addEventListener('change', (ev) => {
      $('review-agent-custom').hidden = ev.target.value !== '__custom__';
    });
    $('review-threshold').addEventListener('change', () => {
      const v = readThreshold();
      if (v !== null) { S.threshold = v; render(); }
    });
    $('review-analyse').addEventListener('click', analyse);
    $('review-only-differs').addEventListener('change', (ev) => {
      S.onlyDiffers = ev.target.checked;
      render();
    });
    $('review-playon-go').addEventListener('click', playOn);
    /* opened: the seats start from the decision shown now (the seat to move is the person) */
    $('review-playon').addEventListener('toggle', (ev) => {
      if (!ev.target.open || S.offline || !S.data) return;
      renderPlayOn(J.app.presetOf(S.data.rules), S.data.players || 4);
    });
    renderRecords();
  }

  J.review = {
    init, loadEmbedded, loadText, onKey,
    rerender() { renderRecords(); if (S.data) { fillControls(); render(); } },
    get state() { return S; },
  };
})(window.Jass = window.Jass || {});
