/* Jass web page: languages, card names and the text of every label.
 *
 * Classic script (no module): it defines window.Jass.i18n; the other scripts use it.
 * English and German are complete. French and Italian are prepared: their dictionaries have the
 * card names and some labels; every key missing there falls back to English (t() looks up the
 * chosen language, then English, then shows the key itself).
 */
(function (J) {
  'use strict';

  const LANGS = { en: 'English', de: 'Deutsch', fr: 'Français', it: 'Italiano' };
  const SUIT_SYMBOL = { D: '♦', H: '♥', S: '♠', C: '♣' };
  const SUIT_LETTER = { '♦': 'D', '♥': 'H', '♠': 'S', '♣': 'C' };

  /* Card names: suits (genitive-free forms) and ranks by the engine's rank letters. */
  const CARDS = {
    en: {
      suits: { D: 'diamonds', H: 'hearts', S: 'spades', C: 'clubs' },
      ranks: { A: 'Ace', K: 'King', Q: 'Queen', J: 'Jack', 10: 'Ten', 9: 'Nine', 8: 'Eight', 7: 'Seven', 6: 'Six' },
      card: (rank, suit) => `${rank} of ${suit}`,
    },
    de: {
      suits: { D: 'Ecke', H: 'Herz', S: 'Schaufel', C: 'Kreuz' },
      ranks: { A: 'Ass', K: 'König', Q: 'Dame', J: 'Bauer', 10: 'Zehn', 9: 'Neun', 8: 'Acht', 7: 'Sieben', 6: 'Sechs' },
      card: (rank, suit) => `${suit}-${rank}`,
    },
    fr: {
      suits: { D: 'carreau', H: 'cœur', S: 'pique', C: 'trèfle' },
      ranks: { A: 'As', K: 'Roi', Q: 'Dame', J: 'Valet', 10: 'Dix', 9: 'Neuf', 8: 'Huit', 7: 'Sept', 6: 'Six' },
      card: (rank, suit) => `${rank} de ${suit}`,
    },
    it: {
      suits: { D: 'quadri', H: 'cuori', S: 'picche', C: 'fiori' },
      ranks: { A: 'Asso', K: 'Re', Q: 'Donna', J: 'Fante', 10: 'Dieci', 9: 'Nove', 8: 'Otto', 7: 'Sette', 6: 'Sei' },
      card: (rank, suit) => `${rank} di ${suit}`,
    },
  };

  const EN = {
    'app.title': 'Jass', 'app.skip': 'Skip to the content', 'app.modes': 'Modes',
    'tab.play': 'Play', 'tab.watch': 'Watch', 'tab.review': 'Review',
    'settings.language': 'Language', 'settings.fourColour': 'Four colours',
    'settings.keys': 'Keys (?)',
    'alert.dismiss': 'Dismiss',
    'lobby.heading.play': 'New game', 'lobby.heading.watch': 'Watch agents play',
    'lobby.preset': 'Game', 'lobby.seats': 'Seats', 'lobby.seed': 'Seed (empty: random)',
    'lobby.match': 'Whole game (match)', 'lobby.start': 'Start', 'lobby.agentHelp': 'Agent specs',
    'lobby.loading': 'Loading the games…', 'lobby.human': 'human',
    'lobby.custom': 'checkpoint / ONNX path or spec', 'lobby.customOpt': 'other (path or spec) …',
    'lobby.seatLabel': 'Seat {seat} ({side})', 'lobby.noHumanWatch': 'Watch: every seat is an agent.',
    'lobby.noServer': 'No server: this page shows an exported review only.',
    'lobby.shipped': 'a trained policy ships for this game',
    'lobby.resume': 'Back to the table', 'lobby.newGame': 'New game',
    'table.you': 'You', 'table.player': 'Player {n}', 'table.team': 'Team {n}',
    'table.cardsLeft': '{n} cards', 'table.cardsLeft1': '1 card',
    'table.dealer': 'dealer', 'table.forehand': 'forehand', 'table.toMove': 'to move',
    'table.yourTurn': 'Your turn', 'table.turnOf': '{name} to move', 'table.waitAgent': '{name} (agent) to move',
    'table.roundOver': 'Round over', 'table.matchOver': 'Game over',
    'table.trick': 'Trick', 'table.trickEmpty': 'No card on the table yet.',
    'table.lastTrick': 'Last trick', 'table.wonBy': 'won by {name}, {points} points',
    'table.trump': 'Trump', 'table.contract': 'Contract', 'table.hand': 'Your hand ({n} cards)',
    'table.handOf': 'Hand of {name}', 'table.choices': 'Choices', 'table.choose': 'Choose',
    'table.chooseAmong': 'Choose among {n} options',
    'table.info': 'Game information', 'table.lines': 'The game', 'table.scores': 'Scores', 'table.log': 'Events',
    'table.points': 'Card points', 'table.tricks': 'Tricks', 'table.score': 'Round score',
    'table.match': 'Game total', 'table.round': 'Round {n}',
    'table.download': 'Download record ({n})', 'table.downloadNone': 'Download record (after the first round)',
    'table.next': 'Next round', 'table.speed': 'Agent speed', 'table.pause': 'Pause',
    'table.resume': 'Resume', 'table.step': 'Step', 'table.slow': 'slow', 'table.fast': 'fast',
    'table.connection.ws': 'live', 'table.connection.poll': 'polling', 'table.connection.off': 'offline',
    'table.seatLinks': 'Links for the other human seats',
    'table.watcher': 'Watching', 'table.seatView': 'Seat view',
    'table.chosen': 'chosen', 'table.best': 'agent’s choice', 'table.legal': 'legal',
    'announce.turn': 'Your turn.',
    'announce.roundOver': 'Round over. {result}',
    'review.heading': 'Review', 'review.file': 'Open a record file', 'review.drop': 'or drop a file here',
    'review.format': 'Format', 'review.format.auto': 'detect', 'review.format.records': 'project records',
    'review.format.jasskit': 'jass-kit log', 'review.records': 'Records',
    'review.problems': 'Lines that cannot be reviewed', 'review.notes': 'Checker notes',
    'review.stopped': 'Replay stopped early',
    'review.navigation': 'Step through the record', 'review.first': 'First', 'review.prevTrick': 'Previous trick', 'review.prev': 'Previous',
    'review.next': 'Next', 'review.nextTrick': 'Next trick', 'review.last': 'Last',
    'review.position': 'Decision {d} of {n}', 'review.positionTrick': 'trick {t}',
    'review.final': 'End of the round', 'review.viewpoint': 'Viewpoint',
    'review.open': 'Open hands', 'review.agent': 'Agent', 'review.threshold': 'Threshold',
    'review.analyse': 'Analyse', 'review.analysing': 'Analysing… (this may take a while)',
    'review.onlyDiffers': 'Only decisions where the player differed',
    'review.differs': '{n} decisions differ', 'review.noDiffers': 'No decision differs by more than the threshold.',
    'review.decision': '{name} to move — chose {label}',
    'review.playOn': 'Play on from here', 'review.playOnSeats': 'Seats for playing on',
    'review.choiceOnly': 'choice only (this agent gives no probabilities)',
    'review.empty': 'Open a file of records (one JSON record per line) or a jass-kit log.',
    'review.offline': 'Exported review (no server): play on is not available.',
    'review.value': 'value {v}', 'review.moreOptions': '{n} more legal options',
    'keys.title': 'Keyboard',
    'keys.play': 'Play: Tab moves between areas; ←/→ move within your hand; Enter or Space plays the focused card or option; digits 1–9 choose the n-th legal option.',
    'keys.watch': 'Watch: Space pauses or resumes (when no button has focus), S steps one move.',
    'keys.review': 'Review: ←/→ one decision, ↑/↓ or PageUp/PageDown one trick, Home/End the first and last decision.',
    'keys.general': '? shows this help; Escape closes it.',
    'keys.close': 'Close',
    'err.network': 'Cannot reach the server: {detail}', 'err.http': 'The server answered {status}: {detail}',
    'err.notJson': 'The server answered something that is not JSON.',
    'err.embedded': 'The embedded review cannot be read: {detail}',
    'err.file': 'Cannot read the file: {detail}', 'err.ws': 'The live connection failed; the page now asks the server every few seconds.',
    'err.customEmpty': 'Seat {seat}: enter a checkpoint path or agent spec, or choose an agent.',
    'err.seed': 'The seed must be a whole number 0 or above, not “{value}”.',
    'err.threshold': 'The threshold must be a number from 0 to 1, not “{value}”.',
    'err.noRecord': 'Choose a record first.',
    'err.endOfRound': 'Play on needs a decision; the end of the round has none left.',
    'err.download': 'Download failed: {detail}',
  };

  const DE = {
    'app.title': 'Jass', 'app.skip': 'Zum Inhalt springen', 'app.modes': 'Modi',
    'tab.play': 'Spielen', 'tab.watch': 'Zuschauen', 'tab.review': 'Analyse',
    'settings.language': 'Sprache', 'settings.fourColour': 'Vier Farben',
    'settings.keys': 'Tasten (?)',
    'alert.dismiss': 'Schliessen',
    'lobby.heading.play': 'Neues Spiel', 'lobby.heading.watch': 'Agenten beim Spielen zuschauen',
    'lobby.preset': 'Spiel', 'lobby.seats': 'Plätze', 'lobby.seed': 'Seed (leer: zufällig)',
    'lobby.match': 'Ganze Partie', 'lobby.start': 'Starten', 'lobby.agentHelp': 'Agenten-Angaben',
    'lobby.loading': 'Die Spiele werden geladen …', 'lobby.human': 'Mensch',
    'lobby.custom': 'Checkpoint- / ONNX-Pfad oder Angabe', 'lobby.customOpt': 'andere (Pfad oder Angabe) …',
    'lobby.seatLabel': 'Platz {seat} ({side})', 'lobby.noHumanWatch': 'Zuschauen: Auf jedem Platz spielt ein Agent.',
    'lobby.noServer': 'Kein Server: Diese Seite zeigt nur eine exportierte Analyse.',
    'lobby.shipped': 'für dieses Spiel gibt es eine trainierte Policy',
    'lobby.resume': 'Zurück zum Tisch', 'lobby.newGame': 'Neues Spiel',
    'table.you': 'Du', 'table.player': 'Spieler {n}', 'table.team': 'Team {n}',
    'table.cardsLeft': '{n} Karten', 'table.cardsLeft1': '1 Karte',
    'table.dealer': 'gibt', 'table.forehand': 'Vorhand', 'table.toMove': 'am Zug',
    'table.yourTurn': 'Du bist am Zug', 'table.turnOf': '{name} ist am Zug', 'table.waitAgent': '{name} (Agent) ist am Zug',
    'table.roundOver': 'Runde fertig', 'table.matchOver': 'Partie fertig',
    'table.trick': 'Stich', 'table.trickEmpty': 'Noch keine Karte auf dem Tisch.',
    'table.lastTrick': 'Letzter Stich', 'table.wonBy': 'gewonnen von {name}, {points} Punkte',
    'table.trump': 'Trumpf', 'table.contract': 'Ansage', 'table.hand': 'Deine Karten ({n})',
    'table.handOf': 'Karten von {name}', 'table.choices': 'Auswahl', 'table.choose': 'Wählen',
    'table.chooseAmong': 'Eine von {n} Möglichkeiten wählen',
    'table.info': 'Angaben zum Spiel', 'table.lines': 'Das Spiel', 'table.scores': 'Punkte', 'table.log': 'Verlauf',
    'table.points': 'Kartenpunkte', 'table.tricks': 'Stiche', 'table.score': 'Punkte der Runde',
    'table.match': 'Total der Partie', 'table.round': 'Runde {n}',
    'table.download': 'Aufzeichnung herunterladen ({n})', 'table.downloadNone': 'Aufzeichnung herunterladen (nach der ersten Runde)',
    'table.next': 'Nächste Runde', 'table.speed': 'Tempo der Agenten', 'table.pause': 'Pause',
    'table.resume': 'Weiter', 'table.step': 'Ein Zug', 'table.slow': 'langsam', 'table.fast': 'schnell',
    'table.connection.ws': 'live', 'table.connection.poll': 'Abfrage', 'table.connection.off': 'getrennt',
    'table.seatLinks': 'Links für die anderen menschlichen Plätze',
    'table.watcher': 'Zuschauer', 'table.seatView': 'Sicht von',
    'table.chosen': 'gespielt', 'table.best': 'Wahl des Agenten', 'table.legal': 'erlaubt',
    'announce.turn': 'Du bist am Zug.',
    'announce.roundOver': 'Runde fertig. {result}',
    'review.heading': 'Analyse', 'review.file': 'Aufzeichnung öffnen', 'review.drop': 'oder eine Datei hierher ziehen',
    'review.format': 'Format', 'review.format.auto': 'erkennen', 'review.format.records': 'Aufzeichnungen des Projekts',
    'review.format.jasskit': 'jass-kit-Log', 'review.records': 'Aufzeichnungen',
    'review.problems': 'Zeilen, die sich nicht analysieren lassen', 'review.notes': 'Hinweise der Prüfung',
    'review.stopped': 'Die Wiedergabe endet vorzeitig',
    'review.navigation': 'Durch die Aufzeichnung gehen', 'review.first': 'Anfang', 'review.prevTrick': 'Stich zurück', 'review.prev': 'Zurück',
    'review.next': 'Vor', 'review.nextTrick': 'Stich vor', 'review.last': 'Ende',
    'review.position': 'Entscheidung {d} von {n}', 'review.positionTrick': 'Stich {t}',
    'review.final': 'Ende der Runde', 'review.viewpoint': 'Sicht von',
    'review.open': 'Offene Karten', 'review.agent': 'Agent', 'review.threshold': 'Schwelle',
    'review.analyse': 'Analysieren', 'review.analysing': 'Analyse läuft … (das kann dauern)',
    'review.onlyDiffers': 'Nur Entscheidungen, bei denen der Spieler abwich',
    'review.differs': '{n} Entscheidungen weichen ab', 'review.noDiffers': 'Keine Entscheidung weicht um mehr als die Schwelle ab.',
    'review.decision': '{name} am Zug — spielte {label}',
    'review.playOn': 'Ab hier weiterspielen', 'review.playOnSeats': 'Plätze zum Weiterspielen',
    'review.choiceOnly': 'nur die Wahl (dieser Agent gibt keine Wahrscheinlichkeiten)',
    'review.empty': 'Eine Datei mit Aufzeichnungen (ein JSON-Datensatz pro Zeile) oder ein jass-kit-Log öffnen.',
    'review.offline': 'Exportierte Analyse (kein Server): Weiterspielen geht hier nicht.',
    'review.value': 'Wert {v}', 'review.moreOptions': '{n} weitere erlaubte Möglichkeiten',
    'keys.title': 'Tastatur',
    'keys.play': 'Spielen: Tab wechselt zwischen den Bereichen; ←/→ wandern durch deine Karten; Enter oder Leertaste spielt die Karte oder Auswahl; Ziffern 1–9 wählen die n-te erlaubte Möglichkeit.',
    'keys.watch': 'Zuschauen: Leertaste hält an oder spielt weiter (wenn kein Knopf den Fokus hat), S spielt einen Zug.',
    'keys.review': 'Analyse: ←/→ eine Entscheidung, ↑/↓ oder Bild↑/Bild↓ ein Stich, Pos1/Ende die erste und letzte Entscheidung.',
    'keys.general': '? zeigt diese Hilfe; Escape schliesst sie.',
    'keys.close': 'Schliessen',
    'err.network': 'Der Server ist nicht erreichbar: {detail}', 'err.http': 'Der Server antwortete {status}: {detail}',
    'err.notJson': 'Die Antwort des Servers ist kein JSON.',
    'err.embedded': 'Die eingebettete Analyse lässt sich nicht lesen: {detail}',
    'err.file': 'Die Datei lässt sich nicht lesen: {detail}', 'err.ws': 'Die Live-Verbindung ist gescheitert; die Seite fragt den Server nun alle paar Sekunden.',
    'err.customEmpty': 'Platz {seat}: einen Checkpoint-Pfad oder eine Agenten-Angabe eingeben oder einen Agenten wählen.',
    'err.seed': 'Der Seed muss eine ganze Zahl ab 0 sein, nicht «{value}».',
    'err.threshold': 'Die Schwelle muss eine Zahl von 0 bis 1 sein, nicht «{value}».',
    'err.noRecord': 'Zuerst eine Aufzeichnung wählen.',
    'err.endOfRound': 'Weiterspielen braucht eine Entscheidung; am Ende der Runde gibt es keine mehr.',
    'err.download': 'Herunterladen gescheitert: {detail}',
  };

  /* French: prepared. Keys not listed here fall back to English. */
  const FR = {
    'tab.play': 'Jouer', 'tab.watch': 'Regarder', 'tab.review': 'Analyse',
    'settings.language': 'Langue', 'settings.fourColour': 'Quatre couleurs',
    'lobby.preset': 'Jeu', 'lobby.seats': 'Places', 'lobby.start': 'Commencer', 'lobby.human': 'humain',
    'table.you': 'Vous', 'table.player': 'Joueur {n}', 'table.team': 'Équipe {n}',
    'table.trump': 'Atout', 'table.trick': 'Pli', 'table.lastTrick': 'Dernier pli',
    'table.yourTurn': 'À vous de jouer', 'table.next': 'Manche suivante',
    'review.prev': 'Précédent', 'review.next': 'Suivant',
  };

  /* Italian: prepared. Keys not listed here fall back to English. */
  const IT = {
    'tab.play': 'Gioca', 'tab.watch': 'Guarda', 'tab.review': 'Analisi',
    'settings.language': 'Lingua', 'settings.fourColour': 'Quattro colori',
    'lobby.preset': 'Gioco', 'lobby.seats': 'Posti', 'lobby.start': 'Inizia', 'lobby.human': 'umano',
    'table.you': 'Tu', 'table.player': 'Giocatore {n}', 'table.team': 'Squadra {n}',
    'table.trump': 'Briscola', 'table.trick': 'Presa', 'table.lastTrick': 'Ultima presa',
    'table.yourTurn': 'Tocca a te', 'table.next': 'Prossima mano',
    'review.prev': 'Indietro', 'review.next': 'Avanti',
  };

  const DICTS = { en: EN, de: DE, fr: FR, it: IT };

  /* Phase-action labels from the server (the game's action names: "choose H", "push", "predict 40")
   * as shown: whole-label patterns per language, tried in order; a label no pattern matches (and
   * every label in a language without patterns: French, Italian) is shown as the server sent it. */
  const LABEL_RULES = {
    en: [
      [/^push$/i, 'Push'],
      [/^(?:choose|declare) (obenabe|undenufe)$/i, (m, c) => cap(c)],
      [/^(?:choose|declare) ([DHSC])$/i, (m, s) => `${sym(s)} trump`],
      [/^predict (\d+)$/i, 'Predict $1'],
      [/^declare (Joker-\d+) as ([DHSC])$/i, (m, j, s) => `${j} as ${sym(s)} trump`],
      [/^declare (Joker-\d+) as (obenabe|undenufe)$/i, (m, j, c) => `${j} as ${cap(c)}`],
      [/^declare (Slalom|Guschti) from (obenabe|undenufe)$/i, (m, g, c) => `${g} from ${cap(c)}`],
      [/^exchange trump 6$/i, 'Exchange the trump 6'],
    ],
    de: [
      [/^push$/i, 'Schieben'],
      [/^(?:choose|declare) (obenabe|undenufe)$/i, (m, c) => cap(c)],
      [/^(?:choose|declare) ([♦♥♠♣DHSC])$/i, (m, s) => `Trumpf ${sym(s)}`],
      [/^([♦♥♠♣]) trump$/i, (m, s) => `Trumpf ${s}`],
      [/^(obenabe|undenufe)$/i, (m, c) => cap(c)],
      [/^predict (\d+)$/i, 'Ansage $1'],
      [/^declare (Joker-\d+) as ([♦♥♠♣DHSC])$/i, (m, j, s) => `${j} als Trumpf ${sym(s)}`],
      [/^declare (Joker-\d+) as (obenabe|undenufe)$/i, (m, j, c) => `${j} als ${cap(c)}`],
      [/^declare (Slalom|Guschti) from (obenabe|undenufe)$/i, (m, g, c) => `${g} ab ${cap(c)}`],
      [/^exchange trump 6$/i, 'Trumpf-6 tauschen'],
    ],
  };

  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(); }
  function sym(s) { return SUIT_SYMBOL[s.toUpperCase()] || s; }

  const STORE_KEY = 'jass.lang';
  let lang = 'en';
  const listeners = [];

  function storedLang() {
    try { return localStorage.getItem(STORE_KEY); } catch (e) { return null; }
  }

  function initialLang() {
    const saved = storedLang();
    if (saved && DICTS[saved]) return saved;
    const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
    return DICTS[nav] ? nav : 'en';
  }

  /** Translate `key` with `{name}` placeholders filled from `params`. */
  function t(key, params) {
    let text = DICTS[lang][key];
    if (text === undefined) text = EN[key];
    if (text === undefined) text = key;
    if (params) {
      text = text.replace(/\{(\w+)\}/g, (m, name) => (params[name] !== undefined ? String(params[name]) : m));
    }
    return text;
  }

  function setLang(code) {
    if (!DICTS[code]) return;
    lang = code;
    try { localStorage.setItem(STORE_KEY, code); } catch (e) { /* storage blocked: keep it for this page */ }
    document.documentElement.lang = code;
    translateStatic(document);
    listeners.forEach((fn) => fn(code));
  }

  /** Fill every element with data-i18n (text) and data-i18n-attr ("attr:key;attr:key"). */
  function translateStatic(root) {
    root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    root.querySelectorAll('[data-i18n-attr]').forEach((el) => {
      el.dataset.i18nAttr.split(';').forEach((pair) => {
        const [attr, key] = pair.split(':');
        if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
      });
    });
  }

  /** Parse an engine card name ("HA", "C10") into {suit, rank}; null if it is not one. */
  function parseCard(name) {
    if (typeof name !== 'string') return null;
    const m = /^([DHSC])(10|[AKQJ6789])$/.exec(name.trim().toUpperCase());
    return m ? { suit: m[1], rank: m[2] } : null;
  }

  /** Spoken name of a card in the chosen language: "Ace of hearts", "Herz-Ass". */
  function cardName(name) {
    const c = parseCard(name);
    if (!c) return String(name);
    const names = CARDS[lang] || CARDS.en;
    return names.card(names.ranks[c.rank], names.suits[c.suit]);
  }

  /** Short visible form of a card: "♥A". */
  function cardShort(name) {
    const c = parseCard(name);
    return c ? SUIT_SYMBOL[c.suit] + c.rank : String(name);
  }

  /** A suit given as letter or symbol, or a contract word, as shown on the page. */
  function trumpText(trump) {
    if (trump === null || trump === undefined || trump === '') return null;
    const s = String(trump);
    if (SUIT_SYMBOL[s.toUpperCase()]) return SUIT_SYMBOL[s.toUpperCase()];
    if (/^(obenabe|undenufe)$/i.test(s)) return cap(s);
    return s;
  }

  /** An action label of the server in the chosen language (patterns above), else as sent. */
  function actionLabel(label) {
    const text = String(label);
    const rules = LABEL_RULES[lang] || LABEL_RULES.en;
    for (const [re, rep] of rules) {
      if (re.test(text)) return text.replace(re, rep);
    }
    return text;
  }

  lang = initialLang();

  J.i18n = {
    LANGS, SUIT_SYMBOL, SUIT_LETTER, t, setLang, translateStatic, parseCard, cardName, cardShort,
    trumpText, actionLabel,
    get lang() { return lang; },
    onChange(fn) { listeners.push(fn); },
  };
})(window.Jass = window.Jass || {});
