/* Jass web page: the modes (Play, Watch, Review), the lobby, the live table session, settings
 * and the keyboard. Classic script, loaded last: it defines window.Jass.app and starts the page.
 */
(function (J) {
  'use strict';
  const t = (k, p) => J.i18n.t(k, p);
  const h = (...a) => J.h(...a);
  const $ = (id) => document.getElementById(id);

  /* Pause between two agent moves, by the speed slider's value 1 (slow) .. 10 (fast), in ms. */
  const DELAYS_MS = [3000, 2200, 1600, 1200, 900, 650, 450, 300, 150, 40];
  const DEFAULT_SPEED = 6;
  /* Watching a match: the least pause on a finished round before the next one starts, in ms. */
  const NEXT_ROUND_PAUSE_MS = 2500;
  const MAX_ALERTS = 4;
  const CUSTOM = '__custom__';

  const state = {
    mode: 'play',
    server: true,
    games: null,
    sessions: { play: null, watch: null },
    lobby: { play: true, watch: true },
    speed: DEFAULT_SPEED,
    lastError: null,
  };

  function store(key, value) {
    try { localStorage.setItem(key, value); } catch (e) { /* storage blocked: the setting lasts for this page */ }
  }

  function stored(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }

  /* ---------- messages ---------- */

  /** Show an error on the page (role=alert); it stays until dismissed. */
  function showError(message) {
    const box = $('alert');
    const text = String(message || 'error');
    const last = box.lastElementChild;
    if (last && last.firstChild.textContent === text) return;
    const item = h('p', { class: 'alert-item' }, h('span', null, text),
      h('button', { type: 'button', class: 'dismiss', onclick: () => item.remove() }, t('alert.dismiss')));
    box.append(item);
    while (box.children.length > MAX_ALERTS) box.firstElementChild.remove();
  }

  function announce(text) {
    const live = $('live');
    if (!text) return;
    live.textContent = '';
    setTimeout(() => { live.textContent = text; }, 30);
  }

  /* ---------- lobby and seats ---------- */

  function presetOf(name) {
    return state.games && Array.isArray(state.games.presets)
      ? state.games.presets.find((p) => p.name === name) || null : null;
  }

  function defaultAgent(agents) {
    return agents.includes('heuristic') ? 'heuristic' : agents[0];
  }

  /**
   * Fill `box` with one row per seat of `preset`: a select (human, the preset's agents, other) and a
   * text field for a path or spec. opts: mode ("play": `human` seat is human; "watch": no human),
   * idPrefix for unique ids.
   */
  function seatEditor(box, preset, opts) {
    const o = opts || {};
    const agents = Array.isArray(preset.agents) && preset.agents.length ? preset.agents : ['random'];
    const n = preset.players || 4;
    const rows = [];
    for (let s = 0; s < n; s += 1) {
      const id = `${o.idPrefix || 'seat'}-${s}`;
      const side = Array.isArray(preset.side_of) ? preset.side_of[s] : s;
      const sideText = preset.teams ? t('table.team', { n: side }) : t('table.player', { n: s });
      const options = [];
      if (o.mode !== 'watch') options.push(h('option', { value: 'human' }, t('lobby.human')));
      agents.forEach((a) => options.push(h('option', { value: a }, a)));
      options.push(h('option', { value: CUSTOM }, t('lobby.customOpt')));
      const select = h('select', { id, dataset: { seat: s } }, options);
      select.value = o.mode !== 'watch' && s === (o.human ?? 0) ? 'human' : defaultAgent(agents);
      const custom = h('input', {
        type: 'text', id: `${id}-custom`, class: 'seat-custom', hidden: true, spellcheck: 'false',
        placeholder: t('lobby.custom'), 'aria-label': `${t('lobby.seatLabel', { seat: s, side: sideText })}: ${t('lobby.custom')}`,
      });
      select.addEventListener('change', () => {
        custom.hidden = select.value !== CUSTOM;
        if (!custom.hidden) custom.focus();
      });
      rows.push(h('div', { class: 'seat-row' },
        h('label', { for: id }, t('lobby.seatLabel', { seat: s, side: sideText })), select, custom));
    }
    box.replaceChildren(...rows);
  }

  /** The seats chosen in a seat editor, or null (and an error shown) when one is incomplete. */
  function readSeats(box) {
    const seats = [];
    for (const select of box.querySelectorAll('select')) {
      if (select.value === CUSTOM) {
        const text = $(`${select.id}-custom`).value.trim();
        if (!text) {
          showError(t('err.customEmpty', { seat: select.dataset.seat }));
          $(`${select.id}-custom`).focus();
          return null;
        }
        seats.push(text);
      } else {
        seats.push(select.value);
      }
    }
    return seats;
  }

  function renderLobby() {
    const mode = state.mode;
    $('lobby-heading').textContent = t(`lobby.heading.${mode}`);
    $('lobby-resume').hidden = !state.sessions[mode];
    $('lobby-watch-note').hidden = mode !== 'watch';
    if (!state.games) return;
    const sel = $('lobby-preset');
    if (!sel.options.length) {
      state.games.presets.forEach((p) => sel.append(h('option', { value: p.name },
        `${p.title || p.name} (${p.name}, ${p.players})`)));
      sel.value = state.games.default || state.games.presets[0]?.name;
    }
    $('agent-help').textContent = state.games.agent_help || '';
    presetChanged();
  }

  function presetChanged() {
    const preset = presetOf($('lobby-preset').value);
    if (!preset) return;
    seatEditor($('lobby-seats-rows'), preset, { mode: state.mode, human: 0, idPrefix: 'seat' });
    const match = $('lobby-match');
    match.disabled = preset.match === false;
    match.checked = !match.disabled && preset.default_match === true;
    const info = [preset.game, preset.teams ? `${preset.sides} teams` : null,
      preset.shipped_policy ? t('lobby.shipped') : null].filter(Boolean).join(' · ');
    $('preset-info').textContent = info;
  }

  async function startFromLobby(ev) {
    ev.preventDefault();
    const rules = $('lobby-preset').value;
    const seats = readSeats($('lobby-seats-rows'));
    if (!seats) return;
    const body = { rules, seats, match: $('lobby-match').checked };
    const seedText = $('lobby-seed').value.trim();
    if (seedText) {
      if (!/^\d+$/.test(seedText)) { showError(t('err.seed', { value: seedText })); $('lobby-seed').focus(); return; }
      body.seed = Number(seedText);
    }
    const button = $('lobby-start');
    button.disabled = true;
    try {
      startFromTable(state.mode, await J.api.post('/api/tables', body));
    } catch (e) {
      showError(e.message);
    } finally {
      button.disabled = false;
    }
  }

  /* ---------- a live table ---------- */

  function sameView(a, b) {
    return a && b && JSON.stringify(a) === JSON.stringify(b);
  }

  function newLogLines(prev, next) {
    if (!Array.isArray(prev) || !Array.isArray(next)) return [];
    for (let k = Math.min(prev.length, next.length); k > 0; k -= 1) {
      let same = true;
      for (let i = 0; i < k && same; i += 1) same = prev[prev.length - k + i] === next[i];
      if (same) return next.slice(k);
    }
    return next.slice(-3);
  }

  class Session {
    constructor(mode, resp) {
      this.mode = mode;
      this.table = resp.table;
      this.tokens = resp.tokens || {};
      const humans = Object.keys(this.tokens).map(Number).sort((a, b) => a - b);
      this.seat = humans.length ? humans[0] : null;
      this.view = null;
      this.busy = null;
      this.timer = null;
      this.paused = false;
      this.closed = false;
      this.link = null;
      if (resp.view) this.accept(resp.view);
      this.connect();
    }

    get token() { return this.seat === null ? null : this.tokens[String(this.seat)]; }

    connect() {
      if (this.link) this.link.close();
      this.link = new J.api.TableLink({
        table: this.table, seat: this.seat, token: this.token,
        onView: (v) => this.accept(v),
        onError: (msg) => showError(msg),
        onMode: (m) => { if (this.isShown()) $('conn').textContent = t(`table.connection.${m}`); },
      });
      this.link.open();
    }

    isShown() { return !this.closed && state.sessions[state.mode] === this && !state.lobby[state.mode]; }

    accept(view) {
      if (this.closed || !view) return;
      const old = this.view;
      const stale = old && typeof view.version === 'number' && typeof old.version === 'number' && view.version < old.version;
      if (stale || sameView(old, view)) { this.schedule(); return; }
      this.view = view;
      if (view.error && view.error !== state.lastError) { state.lastError = view.error; showError(view.error); }
      if (this.isShown()) {
        renderTable();
        this.announce(old, view);
      }
      this.schedule();
    }

    announce(old, view) {
      const said = newLogLines(old && old.log, view.log).slice(-4);
      if (view.round_over && !(old && old.round_over) && !said.includes(view.result)) {
        said.push(t('announce.roundOver', { result: view.result || '' }));
      }
      else if (Array.isArray(view.legal) && view.legal.length && view.seat === view.to_move
        && !(old && Array.isArray(old.legal) && old.legal.length)) said.push(t('announce.turn'));
      announce(said.join(' '));
    }

    schedule() {
      clearTimeout(this.timer);
      this.timer = null;
      if (this.closed || this.busy || this.paused || !this.view) return;
      const delay = DELAYS_MS[state.speed - 1];
      if (this.view.waiting_for === 'agent') {
        this.timer = setTimeout(() => this.advance(), delay);
      } else if (this.mode === 'watch' && this.view.match && this.view.next_round) {
        this.timer = setTimeout(() => this.next(), Math.max(NEXT_ROUND_PAUSE_MS, 3 * delay));
      }
    }

    /* One request at a time; `this.busy` is the one in flight (a promise), else null. */
    async call(path, body) {
      if (this.busy) return;
      clearTimeout(this.timer);
      this.busy = this.send(path, body);
      await this.busy;
    }

    async send(path, body) {
      try {
        const view = await J.api.post(`/api/tables/${encodeURIComponent(this.table)}/${path}`, body);
        this.busy = null;
        this.accept(view);
      } catch (e) {
        this.busy = null;
        showError(e.message);
        if (path === 'advance') { this.paused = true; updateToolbar(); }
      }
    }

    /* A person's choice is never dropped: the pushed view can show their turn while the request
     * that led to it (an agent's step) is still in flight; the choice then waits for that answer
     * and is sent if the board it was made on is still the current one (a second click on a card
     * already played is not). */
    async act(action) {
      const chosenOn = this.view;
      while (this.busy) await this.busy;
      if (this.closed || !sameView(chosenOn, this.view)) return;
      await this.call('action', { seat: this.seat, token: this.token, action });
    }

    /* advance and next carry the seat's token at tables with people (only they set the pace). */
    seatBody(extra) {
      return this.seat === null ? { ...extra } : { ...extra, seat: this.seat, token: this.token };
    }

    advance() { return this.call('advance', this.seatBody({ steps: 1 })); }

    next() { return this.call('next', this.seatBody({})); }

    setSeat(seat) {
      this.seat = seat;
      this.view = null;
      this.connect();
      J.api.get(this.link.viewPath()).then((v) => this.accept(v), (e) => showError(e.message));
    }

    close() {
      this.closed = true;
      clearTimeout(this.timer);
      if (this.link) this.link.close();
    }
  }

  function current() { return state.sessions[state.mode]; }

  function startFromTable(mode, resp) {
    if (state.sessions[mode]) state.sessions[mode].close();
    state.lobby[mode] = false;
    state.sessions[mode] = new Session(mode, resp);
    setMode(mode);
    const s = state.sessions[mode];
    // the address names the table (and the seat's token), so a reload or a bookmark comes back to it
    const seatPart = s.seat !== null ? `&seat=${s.seat}&token=${encodeURIComponent(s.token)}` : '';
    history.replaceState(null, '', `#mode=${mode}&table=${encodeURIComponent(s.table)}${seatPart}`);
    const focus = document.querySelector('#board .hand button.card[tabindex="0"], #board .phase-actions button') || $('btn-new');
    focus.focus();
  }

  function seatLinks(s) {
    const others = Object.keys(s.tokens).map(Number).filter((k) => k !== s.seat);
    if (!others.length) return null;
    const base = location.href.split('#')[0];
    return h('details', { class: 'seat-links' }, h('summary', null, t('table.seatLinks')),
      h('ul', null, others.map((k) => h('li', null, h('a', {
        href: `${base}#mode=play&table=${encodeURIComponent(s.table)}&seat=${k}&token=${encodeURIComponent(s.tokens[k])}`,
        target: '_blank', rel: 'noopener',
      }, t('table.player', { n: k }))))));
  }

  function updateToolbar() {
    const s = current();
    if (!s) return;
    const v = s.view || {};
    $('btn-pause').textContent = s.paused ? t('table.resume') : t('table.pause');
    $('btn-pause').setAttribute('aria-pressed', s.paused ? 'true' : 'false');
    $('btn-step').disabled = v.waiting_for !== 'agent';
    $('btn-next').hidden = typeof v.next_round === 'boolean' ? !v.next_round : !(v.round_over && !v.match_over);
    const n = v.records || 0;
    $('btn-download').disabled = !n;
    $('btn-download').textContent = n ? t('table.download', { n }) : t('table.downloadNone');
    $('conn').textContent = t(`table.connection.${s.link ? s.link.mode : 'off'}`);
    const humans = Object.keys(s.tokens).map(Number);
    const seatSel = $('seat-switch');
    $('seat-switch-row').hidden = humans.length < 2;
    if (humans.length >= 2 && seatSel.options.length !== humans.length) {
      seatSel.replaceChildren(...humans.map((k) => h('option', { value: k }, t('table.player', { n: k }))));
    }
    seatSel.value = String(s.seat);
  }

  function renderTable() {
    const s = current();
    if (!s || !s.view) return;
    const v = s.view;
    $('table-title').textContent = `${v.title || v.rules || ''}${v.round_no ? ` · ${t('table.round', { n: v.round_no })}` : ''}`
      + (v.seat === null || v.seat === undefined ? ` · ${t('table.watcher')}` : '');
    J.table.renderBoard($('board'), v, {
      interactive: v.seat !== null && v.seat !== undefined,
      onAction: (a) => s.act(a),
      openHands: true,
    });
    J.table.renderInfo($('info'), v, { controls: seatLinks(s) });
    updateToolbar();
  }

  /* ---------- modes ---------- */

  function renderGamePanel() {
    const mode = state.mode;
    const s = state.sessions[mode];
    const showLobby = state.lobby[mode] || !s;
    $('lobby').hidden = !showLobby;
    $('table-view').hidden = showLobby;
    if (showLobby) renderLobby();
    else renderTable();
  }

  function setMode(mode) {
    state.mode = mode;
    ['play', 'watch', 'review'].forEach((m) => {
      const tab = $(`tab-${m}`);
      tab.setAttribute('aria-selected', m === mode ? 'true' : 'false');
      tab.tabIndex = m === mode ? 0 : -1;
    });
    const game = mode !== 'review';
    $('game-panel').hidden = !game;
    $('review-mode').hidden = game;
    if (game) {
      $('game-panel').setAttribute('aria-labelledby', `tab-${mode}`);
      renderGamePanel();
    }
    document.body.dataset.mode = mode;
  }

  function initTabs() {
    const tabs = ['play', 'watch', 'review'].map((m) => $(`tab-${m}`));
    tabs.forEach((tab) => {
      tab.addEventListener('click', () => setMode(tab.dataset.mode));
      tab.addEventListener('keydown', (ev) => {
        const visible = tabs.filter((x) => !x.hidden);
        const i = visible.indexOf(tab);
        let j = null;
        if (ev.key === 'ArrowRight') j = (i + 1) % visible.length;
        else if (ev.key === 'ArrowLeft') j = (i - 1 + visible.length) % visible.length;
        else if (ev.key === 'Home') j = 0;
        else if (ev.key === 'End') j = visible.length - 1;
        if (j === null) return;
        ev.preventDefault();
        ev.stopPropagation();
        visible[j].focus();
        setMode(visible[j].dataset.mode);
      });
    });
  }

  /* ---------- settings and keys ---------- */

  function initSettings() {
    const langSel = $('lang');
    Object.entries(J.i18n.LANGS).forEach(([code, name]) => langSel.append(h('option', { value: code }, name)));
    langSel.value = J.i18n.lang;
    langSel.addEventListener('change', () => J.i18n.setLang(langSel.value));
    J.i18n.onChange(() => {
      renderGamePanel();
      J.review.rerender();
    });
    const four = $('four-colour');
    four.checked = stored('jass.fourColour') === '1';
    document.body.classList.toggle('four-colour', four.checked);
    four.addEventListener('change', () => {
      document.body.classList.toggle('four-colour', four.checked);
      store('jass.fourColour', four.checked ? '1' : '0');
    });
    const speed = $('speed');
    const saved = Number(stored('jass.speed'));
    state.speed = saved >= 1 && saved <= DELAYS_MS.length ? saved : DEFAULT_SPEED;
    speed.value = String(state.speed);
    speed.addEventListener('input', () => {
      state.speed = Number(speed.value);
      store('jass.speed', speed.value);
      const s = current();
      if (s) s.schedule();
    });
    $('keys-button').addEventListener('click', openKeys);
    $('keys-close').addEventListener('click', () => $('keys-dialog').close());
  }

  function openKeys() {
    const dialog = $('keys-dialog');
    if (!dialog.open) dialog.showModal();
  }

  function isTyping(el) {
    if (!el || !el.closest) return false;
    if (el.closest('select, textarea')) return true;
    const input = el.closest('input');
    return !!input && !['checkbox', 'radio', 'button', 'submit', 'file'].includes(input.type);
  }

  function onKeydown(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if ($('keys-dialog').open) return;
    const typing = isTyping(ev.target);
    if (ev.key === '?' && !typing) { ev.preventDefault(); openKeys(); return; }
    if (state.mode === 'review') {
      if (J.review.onKey(ev)) ev.preventDefault();
      return;
    }
    const s = current();
    if (!s || state.lobby[state.mode] || !s.view || typing) return;
    const v = s.view;
    if (/^[1-9]$/.test(ev.key) && Array.isArray(v.legal) && v.seat === v.to_move) {
      const option = v.legal[Number(ev.key) - 1];
      if (option) { ev.preventDefault(); s.act(option.action); }
      return;
    }
    /* Space is a control's own key (it presses a button or a card); elsewhere (the table, which a
     * click focuses as #main) it pauses. S steps wherever the focus is, when an agent is to move. */
    const onControl = ev.target.closest && ev.target.closest('button, a, input, select, textarea, summary');
    if (ev.key === ' ' && !onControl) { ev.preventDefault(); togglePause(); return; }
    if ((ev.key === 's' || ev.key === 'S') && v.waiting_for === 'agent') { ev.preventDefault(); s.advance(); }
  }

  function togglePause() {
    const s = current();
    if (!s) return;
    s.paused = !s.paused;
    updateToolbar();
    s.schedule();
  }

  function initTableControls() {
    $('btn-new').addEventListener('click', () => {
      state.lobby[state.mode] = true;
      renderGamePanel();
      $('lobby-preset').focus();
    });
    $('lobby-resume').addEventListener('click', () => {
      state.lobby[state.mode] = false;
      renderGamePanel();
      $('btn-new').focus();
    });
    $('btn-pause').addEventListener('click', togglePause);
    $('btn-step').addEventListener('click', () => { const s = current(); if (s) s.advance(); });
    $('btn-next').addEventListener('click', () => { const s = current(); if (s) s.next(); });
    $('btn-download').addEventListener('click', async () => {
      const s = current();
      if (!s) return;
      try {
        await J.api.download(`/api/tables/${encodeURIComponent(s.table)}/record`, `jass-${s.table}.jsonl`);
      } catch (e) {
        showError(e.message);
      }
    });
    $('seat-switch').addEventListener('change', (ev) => { const s = current(); if (s) s.setSeat(Number(ev.target.value)); });
    $('lobby').addEventListener('submit', startFromLobby);
    $('lobby-preset').addEventListener('change', presetChanged);
  }

  /* ---------- start ---------- */

  function readEmbedded() {
    const el = document.getElementById('embedded-review');
    if (!el) return undefined;
    try {
      return JSON.parse(el.textContent);
    } catch (e) {
      showError(t('err.embedded', { detail: e.message }));
      return null;
    }
  }

  async function loadGames() {
    try {
      state.games = await J.api.get('/api/games');
      if (!state.games || !Array.isArray(state.games.presets)) throw new Error('/api/games: no presets');
    } catch (e) {
      state.games = null;
      $('lobby-status').textContent = '';
      showError(e.message);
      return;
    }
    $('lobby-status').textContent = '';
    $('lobby-fields').disabled = false;
    if (!$('game-panel').hidden) renderGamePanel();
  }

  async function resumeFromHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const table = params.get('table');
    if (!table) return;
    const mode = params.get('mode') === 'watch' ? 'watch' : 'play';
    const seat = params.get('seat');
    const token = params.get('token');
    const query = seat !== null ? `?seat=${encodeURIComponent(seat)}&token=${encodeURIComponent(token || '')}` : '';
    try {
      const view = await J.api.get(`/api/tables/${encodeURIComponent(table)}${query}`);
      startFromTable(mode, { table, tokens: seat !== null ? { [seat]: token } : {}, view });
    } catch (e) {
      showError(e.message);
    }
  }

  function init() {
    J.i18n.translateStatic(document);
    document.documentElement.lang = J.i18n.lang;
    initSettings();
    initTabs();
    initTableControls();
    J.review.init();
    document.addEventListener('keydown', onKeydown);
    const embedded = readEmbedded();
    if (embedded !== undefined || location.protocol === 'file:') {
      state.server = false;
      $('tab-play').hidden = true;
      $('tab-watch').hidden = true;
      setMode('review');
      if (embedded) J.review.loadEmbedded(embedded);
      else if (embedded === undefined) {
        $('review-offline').textContent = t('lobby.noServer');
        $('review-offline').hidden = false;
        $('review-load').hidden = true;
      }
      return;
    }
    setMode('play');
    loadGames().then(resumeFromHash);
  }

  window.addEventListener('error', (ev) => showError(`${ev.message}`));
  window.addEventListener('unhandledrejection', (ev) => {
    showError(ev.reason && ev.reason.message ? ev.reason.message : String(ev.reason));
  });

  J.app = { showError, announce, isTyping, presetOf, seatEditor, readSeats, startFromTable, get state() { return state; } };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})(window.Jass = window.Jass || {});
