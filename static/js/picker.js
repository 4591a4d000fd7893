/* Card picker: tap-friendly entry of card notation ("10H QS JK") for inputs marked data-card-picker.
 * Progressive enhancement: the input stays the source of truth and is what the form submits.
 * See docs/picker.md for the markup contract. */
(function () {
  "use strict";

  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const WORDS = "Ace Two Three Four Five Six Seven Eight Nine Ten Jack Queen King".split(" ");
  const RANK_WORDS = Object.fromEntries(RANKS.map((rank, index) => [rank, WORDS[index]]));
  const SUITS = [
    { code: "S", symbol: "♠", name: "Spades", red: false },
    { code: "H", symbol: "♥", name: "Hearts", red: true },
    { code: "D", symbol: "♦", name: "Diamonds", red: true },
    { code: "C", symbol: "♣", name: "Clubs", red: false },
    { code: "R", symbol: "★", name: "Stars", red: false, star: true, also: ["☆", "⭐"] },
  ];
  const SUIT_BY_CODE = Object.fromEntries(SUITS.map((suit) => [suit.code, suit]));
  const SUIT_BY_TOKEN = Object.fromEntries(
    SUITS.flatMap((suit) => [suit.code, suit.symbol, ...(suit.also || [])].map((token) => [token, suit.code])),
  );
  // A game's deck, unless the field names its own (data-suits, data-ranks): four suits, Ace to King.
  const STANDARD_SUITS = ["S", "H", "D", "C"];
  const JOKER_TOKENS = new Set(["JK", "JOKER", "*", "🃏"]);
  // Phones often add emoji presentation selectors after a typed suit symbol.
  const INVISIBLE = /[\uFE0E\uFE0F\u200D]/g;
  const DEFAULTS = { decks: 3, jokers: 0, maxCards: 15 };
  let pickerCount = 0;

  /* ---------- Notation ---------- */

  function makeCard(rank, suit, role) {
    const joker = rank === null;
    const code = joker ? "JK" : rank + suit;
    return { code, rank, suit, joker, role: role || null };
  }

  function parseRank(token) {
    if (token === "T") return "10";
    return RANKS.includes(token) ? token : null;
  }

  function parsePlain(text) {
    const token = text.replace(INVISIBLE, "").trim().toUpperCase();
    if (JOKER_TOKENS.has(token)) return makeCard(null, null);
    const chars = Array.from(token);
    if (chars.length < 2) return null;
    const suit = SUIT_BY_TOKEN[chars[chars.length - 1]];
    const rank = parseRank(chars.slice(0, -1).join(""));
    return suit && rank ? makeCard(rank, suit) : null;
  }

  // One token: a card, or (with roles allowed) a card and the card it stands for, "JK=7H".
  function parseToken(token, position, allowRoles) {
    const [cardText, ...rest] = token.split("=");
    const card = parsePlain(cardText);
    const notCard = { raw: token, error: `"${token}" at position ${position} is not a card` };
    if (!card) return notCard;
    if (rest.length === 0) return { raw: token, card };
    if (!allowRoles) {
      return { raw: token, error: `"${token}" at position ${position}: a hand takes plain cards, not wild roles` };
    }
    const role = rest.length === 1 ? parsePlain(rest[0]) : null;
    if (!role || role.joker) return notCard;
    return { raw: token, card: makeCard(card.rank, card.suit, role) };
  }

  function parseItems(text, allowRoles) {
    const tokens = String(text).split(/[\s,]+/).filter(Boolean);
    return tokens.map((token, index) => parseToken(token, index + 1, allowRoles));
  }

  function parse(text, options) {
    const items = parseItems(text, Boolean(options && options.roles));
    return {
      cards: items.filter((item) => item.card).map((item) => item.card),
      errors: items.filter((item) => item.error).map((item) => item.error),
    };
  }

  function cardCode(card) {
    if (typeof card === "string") return card;
    return card.role ? `${card.code}=${cardCode(card.role)}` : card.code;
  }

  function format(cards) {
    return cards.map(cardCode).join(" ");
  }

  function symbolOf(card) {
    const face = card.joker ? "🃏" : card.rank + SUIT_BY_CODE[card.suit].symbol;
    return card.role ? `${face}=${symbolOf(card.role)}` : face;
  }

  function nameOf(card) {
    const face = card.joker ? "Joker" : `${RANK_WORDS[card.rank]} of ${SUIT_BY_CODE[card.suit].name.toLowerCase()}`;
    return card.role ? `${face} as ${nameOf(card.role).toLowerCase()}` : face;
  }

  function toneOf(card) {
    if (card.joker) return "cp-jk";
    const suit = SUIT_BY_CODE[card.suit];
    return suit.star ? "cp-star" : suit.red ? "cp-red" : "cp-black";
  }

  function inDeck(card, config) {
    return card.joker || (config.suits.has(card.suit) && config.ranks.has(card.rank));
  }

  // A card the game's deck does not hold (an ace in Five Crowns, a star elsewhere), as the server words it.
  function deckProblem(cards, config) {
    const card = cards.find((each) => !inDeck(each, config));
    if (!card) return null;
    const problem = `"${card.code}" is not a card of this game: its deck`;
    if (!config.suits.has(card.suit)) return `${problem} has no ${SUIT_BY_CODE[card.suit].name.toLowerCase()}`;
    const ranks = RANKS.filter((rank) => config.ranks.has(rank));
    return `${problem} runs from ${ranks[0]} to ${ranks[ranks.length - 1]}`;
  }

  function decksPhrase(decks) {
    return decks === 1 ? "1 deck holds only 1" : `${decks} decks hold only ${decks}`;
  }

  // The first way the cards break the game's limits, worded like the server's messages; null when fine.
  function limitProblem(cards, config) {
    if (cards.length > config.maxCards) return `${cards.length} cards, but a hand holds at most ${config.maxCards}`;
    const counts = new Map();
    cards.forEach((card) => counts.set(card.code, (counts.get(card.code) || 0) + 1));
    for (const [code, count] of counts) {
      if (code === "JK" && count > config.jokers) {
        if (config.jokers === 0) return '"JK" cannot be played: this game uses no jokers';
        return `"JK" appears ${count} times, but only ${config.jokers} jokers are in play`;
      }
      if (code !== "JK" && count > config.decks) {
        return `"${code}" appears ${count} times, but ${decksPhrase(config.decks)}`;
      }
    }
    return null;
  }

  /* ---------- Configuration from attributes (read on every use, so pages may change them) ---------- */

  function intAttribute(input, name, fallback) {
    const value = parseInt(input.getAttribute(name), 10);
    return Number.isFinite(value) && value >= 0 ? value : fallback;
  }

  function listAttribute(input, name) {
    return (input.getAttribute(name) || "").toUpperCase().split(/[\s,]+/).filter(Boolean);
  }

  function readConfig(input) {
    const wild = listAttribute(input, "data-wild-ranks");
    const suits = listAttribute(input, "data-suits").filter((code) => SUIT_BY_CODE[code]);
    const ranks = listAttribute(input, "data-ranks").map(parseRank).filter(Boolean);
    return {
      suits: new Set(suits.length ? suits : STANDARD_SUITS),
      ranks: new Set(ranks.length ? ranks : RANKS),
      decks: Math.max(1, intAttribute(input, "data-decks", DEFAULTS.decks)),
      jokers: intAttribute(input, "data-jokers", DEFAULTS.jokers),
      maxCards: Math.max(1, intAttribute(input, "data-max-cards", DEFAULTS.maxCards)),
      wildRanks: new Set(wild.map(parseRank).filter(Boolean)),
      roles: input.hasAttribute("data-roles"),
    };
  }

  /* ---------- DOM building ---------- */

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function actionButton(className, action, text, label) {
    const button = element("button", `cp-btn ${className}`, text);
    button.type = "button";
    button.dataset.action = action;
    if (label) button.setAttribute("aria-label", label);
    return button;
  }

  function buildSuitButtons() {
    return SUITS.map((suit) => {
      const tone = suit.star ? "cp-star" : suit.red ? "cp-red" : "cp-black";
      const button = actionButton(`cp-suit ${tone}`, "suit", suit.symbol, suit.name);
      button.dataset.suit = suit.code;
      return button;
    });
  }

  function buildRankButtons() {
    return RANKS.map((rank) => {
      const button = actionButton("cp-rank", "rank", "");
      button.dataset.rank = rank;
      button.append(element("span", "cp-rank-text", rank), element("span", "cp-rank-suit"));
      return button;
    });
  }

  function buildPanel(messageId) {
    const ui = {
      panel: element("div", "cp-panel"),
      count: element("span", "cp-count"),
      chips: element("div", "cp-chips"),
      message: element("p", "cp-msg"),
      mode: element("p", "cp-mode"),
      suitButtons: buildSuitButtons(),
      rankButtons: buildRankButtons(),
      joker: actionButton("cp-joker", "joker", "🃏", "Joker"),
      back: actionButton("cp-back", "backspace", "⌫", "Remove last card"),
    };
    ui.panel.setAttribute("role", "group");
    ui.panel.setAttribute("aria-label", "Card picker");
    ui.message.id = messageId;
    ui.message.setAttribute("role", "status");
    ui.message.setAttribute("aria-live", "polite");
    const head = element("div", "cp-head");
    head.append(ui.count, actionButton("cp-clear", "clear", "Clear", "Clear all cards"));
    const suits = element("div", "cp-suits");
    suits.append(...ui.suitButtons);
    const ranks = element("div", "cp-ranks");
    ranks.append(...ui.rankButtons, ui.joker, ui.back);
    ui.panel.append(head, ui.chips, ui.message, ui.mode, suits, ranks);
    return ui;
  }

  function chipFor(card, index, wildRanks) {
    const tone = toneOf(card);
    const wild = !card.joker && wildRanks.has(card.rank) ? " cp-wild" : "";
    const chip = element("button", `cp-chip ${tone}${wild}`);
    chip.type = "button";
    chip.dataset.action = "remove";
    chip.dataset.index = String(index);
    chip.dataset.card = cardCode(card);
    chip.setAttribute("aria-label", `${symbolOf(card)}: remove ${nameOf(card).toLowerCase()}`); // the name starts with the card shown
    const x = element("span", "cp-x", "×");
    x.setAttribute("aria-hidden", "true");
    chip.append(element("span", "cp-face", symbolOf(card)), x);
    return chip;
  }

  /* ---------- One picker ---------- */

  function Picker(input) {
    pickerCount += 1;
    this.input = input;
    this.items = [];
    this.stickySuit = null;
    this.pendingRank = null;
    this.notice = "";
    this.ui = buildPanel(`cp-msg-${pickerCount}`);
    input.insertAdjacentElement("afterend", this.ui.panel);
    const described = input.getAttribute("aria-describedby");
    input.setAttribute("aria-describedby", described ? `${described} ${this.ui.message.id}` : this.ui.message.id);
    input.addEventListener("input", () => this.syncFromInput());
    if (input.form) input.form.addEventListener("reset", () => setTimeout(() => this.syncFromInput(), 0));
    this.ui.panel.addEventListener("click", (event) => this.onClick(event));
    this.syncFromInput();
  }

  Picker.prototype.config = function () {
    return readConfig(this.input);
  };

  Picker.prototype.cards = function () {
    return this.items.filter((item) => item.card).map((item) => item.card);
  };

  Picker.prototype.syncFromInput = function () {
    this.items = parseItems(this.input.value, this.config().roles);
    this.pendingRank = null;
    this.notice = "";
    this.render();
  };

  // Writes canonical notation; tokens that did not parse are kept as typed so nothing the user wrote is lost.
  Picker.prototype.writeInput = function () {
    this.input.value = this.items.map((item) => (item.card ? cardCode(item.card) : item.raw)).join(" ");
    this.input.dispatchEvent(new Event("input", { bubbles: true }));
  };

  Picker.prototype.refusal = function (card) {
    const config = this.config();
    const cards = this.cards();
    if (cards.length >= config.maxCards) return `A hand holds at most ${config.maxCards} cards`;
    const copies = cards.filter((other) => other.code === card.code).length;
    if (card.joker && copies >= config.jokers) {
      return config.jokers === 0 ? "This game uses no jokers" : `Only ${config.jokers} jokers are in play`;
    }
    if (!card.joker && copies >= config.decks) return `No more ${symbolOf(card)}: ${decksPhrase(config.decks)}`;
    return "";
  };

  Picker.prototype.add = function (card) {
    this.notice = this.refusal(card);
    if (this.notice) return this.render();
    this.items.push({ raw: card.code, card });
    this.writeInput();
  };

  Picker.prototype.removeCard = function (cardIndex) {
    let seen = -1;
    const at = this.items.findIndex((item) => item.card && ++seen === cardIndex);
    if (at < 0) return;
    this.items.splice(at, 1);
    this.writeInput();
  };

  const ACTIONS = {
    rank: (picker, button) => picker.tapRank(button.dataset.rank),
    suit: (picker, button) => picker.tapSuit(button.dataset.suit),
    joker: (picker) => picker.add(makeCard(null, null)),
    backspace: (picker) => picker.backspace(),
    clear: (picker) => picker.clear(),
    remove: (picker, button) => picker.removeChip(Number(button.dataset.index)),
  };

  Picker.prototype.onClick = function (event) {
    const button = event.target.closest("button[data-action]");
    if (button && !button.disabled) ACTIONS[button.dataset.action](this, button);
  };

  // With a sticky suit a rank adds a card at once; otherwise the rank waits for a suit.
  Picker.prototype.tapRank = function (rank) {
    if (this.stickySuit) return this.add(makeCard(rank, this.stickySuit));
    this.pendingRank = this.pendingRank === rank ? null : rank;
    this.notice = "";
    this.render();
  };

  Picker.prototype.tapSuit = function (suit) {
    if (this.pendingRank) {
      const rank = this.pendingRank;
      this.pendingRank = null;
      return this.add(makeCard(rank, suit));
    }
    this.stickySuit = this.stickySuit === suit ? null : suit;
    this.notice = "";
    this.render();
  };

  Picker.prototype.backspace = function () {
    if (this.pendingRank) {
      this.pendingRank = null;
      return this.render();
    }
    const count = this.cards().length;
    if (count > 0) this.removeCard(count - 1);
  };

  Picker.prototype.clear = function () {
    this.pendingRank = null;
    if (this.items.length === 0) return this.render();
    this.items = [];
    this.writeInput();
  };

  // Rebuilding the chips drops the focused one, so keyboard users land on its neighbour.
  Picker.prototype.removeChip = function (index) {
    this.removeCard(index);
    const chips = this.ui.chips.querySelectorAll(".cp-chip");
    // Never the input: focusing it would pop up the phone keyboard.
    (chips[Math.min(index, chips.length - 1)] || this.ui.back).focus();
  };

  /* ---------- Rendering ---------- */

  Picker.prototype.render = function () {
    const config = this.config();
    const cards = this.cards();
    this.renderChips(cards, config);
    this.renderButtons(cards, config);
    this.renderMessage(cards, config);
  };

  Picker.prototype.renderChips = function (cards, config) {
    const chips = cards.map((card, index) => chipFor(card, index, config.wildRanks));
    if (chips.length === 0) chips.push(element("span", "cp-empty", "No cards yet"));
    this.ui.chips.replaceChildren(...chips);
    this.ui.count.textContent = cards.length === 1 ? "1 card" : `${cards.length} cards`;
  };

  Picker.prototype.renderButtons = function (cards, config) {
    if (this.stickySuit && !config.suits.has(this.stickySuit)) this.stickySuit = null;
    const suit = this.stickySuit ? SUIT_BY_CODE[this.stickySuit] : null;
    this.ui.panel.classList.toggle("cp-adding-red", Boolean(suit && suit.red));
    this.ui.panel.classList.toggle("cp-adding-star", Boolean(suit && suit.star));
    this.ui.suitButtons.forEach((button) => {
      button.hidden = !config.suits.has(button.dataset.suit);
      button.setAttribute("aria-pressed", String(button.dataset.suit === this.stickySuit));
    });
    this.ui.rankButtons.forEach((button) => {
      const rank = button.dataset.rank;
      button.hidden = !config.ranks.has(rank);
      const word = suit ? `${RANK_WORDS[rank]} of ${suit.name.toLowerCase()}` : RANK_WORDS[rank];
      const wild = config.wildRanks.has(rank);
      // The name starts with what the button shows (10, K), then says it in words.
      button.setAttribute("aria-label", `${rank} (${word.toLowerCase()}${wild ? ", wild" : ""})`);
      button.classList.toggle("cp-wild", wild);
      button.querySelector(".cp-rank-suit").textContent = suit ? suit.symbol : "";
      if (suit) button.removeAttribute("aria-pressed");
      else button.setAttribute("aria-pressed", String(rank === this.pendingRank));
    });
    const jokers = cards.filter((card) => card.joker).length;
    this.ui.joker.hidden = config.jokers === 0;
    this.ui.joker.disabled = jokers >= config.jokers;
    this.ui.mode.textContent = this.modeText(suit);
  };

  Picker.prototype.modeText = function (suit) {
    if (this.pendingRank) return `${this.pendingRank} chosen: tap its suit`;
    if (suit) return `Adding ${suit.symbol} ${suit.name.toLowerCase()}: tap ranks`;
    return "Tap a suit, then ranks (or a rank, then its suit)";
  };

  Picker.prototype.renderMessage = function (cards, config) {
    const errors = this.items.filter((item) => item.error).map((item) => item.error);
    const problem = errors.length ? errors[0] : deckProblem(cards, config) || limitProblem(cards, config);
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
    const text = this.notice || (problem ? problem + more : "");
    this.ui.message.textContent = text;
    this.ui.message.classList.toggle("cp-msg-notice", Boolean(this.notice));
    if (problem) this.input.setAttribute("aria-invalid", "true");
    else this.input.removeAttribute("aria-invalid");
  };

  /* ---------- Public API and auto-attach ---------- */

  const pickers = new WeakMap();

  function attach(input) {
    if (!pickers.has(input)) pickers.set(input, new Picker(input));
    return pickers.get(input);
  }

  function attachAll() {
    document.querySelectorAll("[data-card-picker]").forEach((node) => {
      if (node.tagName === "TEXTAREA" || (node.tagName === "INPUT" && node.type === "text")) attach(node);
    });
  }

  window.CardPicker = { attach, parse, format, attachAll };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", attachAll);
  else attachAll();
})();
