/* Jass web page: talking to the server (JSON over HTTP, the table's websocket, polling).
 *
 * Classic script: defines window.Jass.api. Every failure becomes an ApiError whose message is
 * the server's own {"error": "..."} text when there is one; callers show it (never swallowed).
 */
(function (J) {
  'use strict';
  const t = (k, p) => J.i18n.t(k, p);

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.name = 'ApiError';
      this.status = status;
    }
  }

  async function request(method, path, body) {
    const init = { method, cache: 'no-store', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, init);
    } catch (e) {
      throw new ApiError(t('err.network', { detail: e.message }), 0);
    }
    const text = await resp.text();
    let data = null;
    let parsed = false;
    try { data = text ? JSON.parse(text) : null; parsed = true; } catch (e) { parsed = false; }
    if (!resp.ok) {
      const msg = parsed && data && typeof data.error === 'string'
        ? data.error : t('err.http', { status: resp.status, detail: text.slice(0, 300) || resp.statusText });
      throw new ApiError(msg, resp.status);
    }
    if (!parsed) throw new ApiError(t('err.notJson'), resp.status);
    return data;
  }

  /** Fetch `path` and save it as a file named by the server (content-disposition) or `name`. */
  async function download(path, name) {
    let resp;
    try {
      resp = await fetch(path, { cache: 'no-store' });
    } catch (e) {
      throw new ApiError(t('err.download', { detail: e.message }), 0);
    }
    if (!resp.ok) {
      const text = await resp.text();
      let msg = text.slice(0, 300);
      try { msg = JSON.parse(text).error || msg; } catch (e) { /* not JSON: keep the text */ }
      throw new ApiError(t('err.download', { detail: msg }), resp.status);
    }
    const disp = resp.headers.get('content-disposition') || '';
    const m = /filename="?([^";]+)"?/i.exec(disp);
    const blob = await resp.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = m ? m[1] : name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  const POLL_MS = 2000;
  const WS_REFUSED_FORBIDDEN = 4403;
  const WS_REFUSED_UNKNOWN = 4404;
  const WS_OPEN_TIMEOUT_MS = 4000;

  /**
   * Live link to one table: the websocket pushes views; if it cannot open or drops, the link polls
   * GET /api/tables/{id} instead. `onView(view)`, `onError(message)`, `onMode("ws"|"poll"|"off")`.
   */
  class TableLink {
    constructor({ table, seat, token, onView, onError, onMode }) {
      this.table = table;
      this.seat = seat;
      this.token = token;
      this.onView = onView;
      this.onError = onError;
      this.onMode = onMode || (() => {});
      this.ws = null;
      this.pollTimer = null;
      this.closed = false;
      this.mode = 'off';
    }

    query() {
      if (this.seat === null || this.seat === undefined) return '';
      return `?seat=${encodeURIComponent(this.seat)}&token=${encodeURIComponent(this.token)}`;
    }

    viewPath() { return `/api/tables/${encodeURIComponent(this.table)}${this.query()}`; }

    open() {
      if (!('WebSocket' in window) || location.protocol === 'file:') { this.startPolling(); return; }
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const url = `${proto}//${location.host}/api/tables/${encodeURIComponent(this.table)}/ws${this.query()}`;
      let opened = false;
      let ws;
      try {
        ws = new WebSocket(url);
      } catch (e) {
        this.startPolling(true);
        return;
      }
      this.ws = ws;
      const timer = setTimeout(() => { if (!opened) { ws.close(); } }, WS_OPEN_TIMEOUT_MS);
      ws.addEventListener('open', () => {
        opened = true;
        clearTimeout(timer);
        this.setMode('ws');
      });
      ws.addEventListener('message', (ev) => {
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { this.onError(t('err.notJson')); return; }
        if (msg.type === 'view' && msg.view) this.onView(msg.view);
        else if (msg.type === 'error') this.onError(msg.error || String(ev.data));
      });
      ws.addEventListener('close', (ev) => {
        clearTimeout(timer);
        if (this.ws !== ws) return;
        this.ws = null;
        if (this.closed) return;
        // 4403/4404: the server refused this seat or table (its error message came first)
        if (ev.code === WS_REFUSED_FORBIDDEN || ev.code === WS_REFUSED_UNKNOWN) this.setMode('off');
        else this.startPolling(true);
      });
    }

    setMode(mode) {
      this.mode = mode;
      this.onMode(mode);
    }

    startPolling(failed) {
      if (this.closed || this.pollTimer) return;
      if (failed) this.onError(t('err.ws'));
      this.setMode('poll');
      let lastError = null;
      const tick = async () => {
        if (this.closed) return;
        try {
          this.onView(await request('GET', this.viewPath()));
          lastError = null;
        } catch (e) {
          if (e.message !== lastError) this.onError(e.message);
          lastError = e.message;
          if (e.status === 403 || e.status === 404) { this.pollTimer = null; this.setMode('off'); return; }
        }
        if (!this.closed) this.pollTimer = setTimeout(tick, POLL_MS);
      };
      this.pollTimer = setTimeout(tick, POLL_MS);
    }

    close() {
      this.closed = true;
      if (this.pollTimer) clearTimeout(this.pollTimer);
      this.pollTimer = null;
      if (this.ws) { const ws = this.ws; this.ws = null; ws.close(); }
      this.setMode('off');
    }
  }

  J.api = {
    ApiError,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body === undefined ? {} : body),
    download,
    TableLink,
  };
})(window.Jass = window.Jass || {});
