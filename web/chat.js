// The chat page's client: talks to the Rasa server's socketio channel with socket.io-client (served
// locally by web/server.py as /socket.io.js; /config.js holds the Rasa URL, the upload limit and the
// reply time-out), draws answers as cards, adds policies through web/server.py's /policies, and shows the chosen
// policy's privacy label in a panel (a frame of web/server.py's /label page).
//
// Every piece of text from the bot, the policy or the user is put on the page with textContent:
// nothing received is ever parsed as HTML. The bot's text replies are Markdown whose untrusted
// punctuation comes as numeric character references (actions/formatting.py); renderMarkdown knows
// the few constructs the actions write (**bold**, *italic*, `code`, "> " quotes, "- " bullets, and the citation
// link [TEXT](/policy?name=…&version=…#s-N)) and decodes the references into plain text afterwards, so a policy's
// own "**", "<b>" or "[x](javascript:…)" stays literal. A link is drawn only for a URL of exactly that form.
(function () {
  "use strict";
  var config = window.CHAT_CONFIG || {};
  var SESSION_KEY = "privacy-assistant.session";
  var POLICY_KEY = "privacy-assistant.policy";
  var TRANSCRIPT_KEY = "privacy-assistant.transcript";  // this tab's conversation as shown: it survives a reload
  var MAX_TRANSCRIPT = 300;  // entries kept, the oldest dropped first
  var REPLY_TIMEOUT_MS = config.replyTimeoutMs || 30000;
  var RELOAD_GRACE_MS = Math.min(REPLY_TIMEOUT_MS, 10000);  // how long a reloaded page waits for a lost answer

  var log = document.getElementById("log");
  var banner = document.getElementById("banner");
  var picker = document.getElementById("policy-picker");
  var activeName = document.getElementById("active-name");
  var askForm = document.getElementById("ask-form");
  var messageField = document.getElementById("message");

  // -- small DOM helpers ---------------------------------------------------------------------------

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function scrollToEnd() { log.scrollTop = log.scrollHeight; }

  function decodeReferences(text) {
    return text.replace(/&#(\d+);/g, function (_, code) { return String.fromCodePoint(Number(code)); });
  }

  // The only URLs a reply may link to: the chat page's own policy page at a sentence, as actions/formatting.py
  // builds them (URL-encoded name, version and sentence numbers). Anything else stays text.
  var CITATION_URL = /^\/policy\?name=[A-Za-z0-9%._~+-]*&version=\d+#s-\d+$/;

  // A citation in a text reply: opens the policy version at the sentence in a new tab, like the cards' links.
  function citationLink(text, url) {
    var query = new URLSearchParams(url.slice("/policy?".length, url.indexOf("#")));
    var sentence = url.slice(url.indexOf("#s-") + 3);
    var link = el("a", "", text);
    link.href = url;
    link.target = "_blank";
    link.rel = "noopener";
    var where = /sentence/.test(text) ? query.get("name") : query.get("name") + ", sentence " + sentence;
    link.setAttribute("aria-label", text + " (" + where + "; opens the policy at this sentence)");
    return link;
  }

  // Inline Markdown of one line into `parent`: the markers are the actions' own (policy text has none left).
  function appendInline(parent, line) {
    var pattern = /\[([^\[\]]+)\]\(([^()\s]+)\)|\*\*(.+?)\*\*|\*(.+?)\*|`([^`]+)`/g;
    var last = 0;
    var match;
    while ((match = pattern.exec(line)) !== null) {
      if (match.index > last) parent.appendChild(document.createTextNode(decodeReferences(line.slice(last, match.index))));
      if (match[1] !== undefined) {
        if (CITATION_URL.test(match[2])) parent.appendChild(citationLink(decodeReferences(match[1]), match[2]));
        else parent.appendChild(document.createTextNode(decodeReferences(match[0])));
      } else if (match[3] !== undefined) appendInline(parent.appendChild(el("strong")), match[3]);
      else if (match[4] !== undefined) appendInline(parent.appendChild(el("em")), match[4]);
      else parent.appendChild(el("code", "", decodeReferences(match[5])));
      last = pattern.lastIndex;
    }
    if (last < line.length) parent.appendChild(document.createTextNode(decodeReferences(line.slice(last))));
  }

  // One message of the bot (its paragraphs separated by blank lines: the channel sends a reply whole) as DOM nodes.
  function renderMarkdown(text) {
    var fragment = document.createDocumentFragment();
    var list = null;
    var quote = null;
    text.split("\n").forEach(function (line) {
      if (/^>/.test(line)) {
        list = null;
        if (!quote) { quote = el("blockquote"); fragment.appendChild(quote); }
        var inner = line.replace(/^> ?/, "");
        if (inner) { var p = el("p"); appendInline(p, inner); quote.appendChild(p); }
        return;
      }
      quote = null;
      if (/^- /.test(line)) {
        if (!list) { list = el("ul"); fragment.appendChild(list); }
        var item = el("li");
        appendInline(item, line.slice(2));
        list.appendChild(item);
        return;
      }
      list = null;
      if (line.trim()) { var paragraph = el("p"); appendInline(paragraph, line); fragment.appendChild(paragraph); }
    });
    return fragment;
  }

  // -- the conversation ------------------------------------------------------------------------------

  var replyBox = null;  // the bot's bubble for the current turn: its messages go together
  var replyTimer = null;
  var cardCount = 0;
  var replaying = false;  // drawing the stored transcript: nothing is stored again
  var labelStale = false;  // a policy was just added: the next policy reply redraws the label panel

  // The transcript: what the conversation showed (the person's messages, the bot's messages as received, the
  // notices worth keeping), in the tab's sessionStorage only — never sent anywhere, gone with the tab.
  function transcript() {
    try { return JSON.parse(sessionStorage.getItem(TRANSCRIPT_KEY) || "[]"); } catch (e) { return []; }
  }
  function keep(entry) {
    if (replaying) return;
    var entries = transcript();
    entries.push(entry);
    try { sessionStorage.setItem(TRANSCRIPT_KEY, JSON.stringify(entries.slice(-MAX_TRANSCRIPT))); } catch (e) { /* full */ }
  }
  function replayTranscript() {
    var entries = transcript();
    replaying = true;
    entries.forEach(function (entry) {
      if (entry.kind === "user") addUser(entry.text);
      else if (entry.kind === "bot") onBotMessage(entry.message);
      else if (entry.kind === "notice") addNotice(entry.text);
    });
    replaying = false;
    replyBox = null;
    clearTimeout(replyTimer);
    if (entries.length && entries[entries.length - 1].kind === "user") awaitLostAnswer();
  }

  // The last message was sent just before a reload: its answer still comes if the assistant sends it after this page
  // joined the conversation (it is delivered to the conversation, not to the page); otherwise it is lost.
  var waitingNotice = null;
  function awaitLostAnswer() {
    waitingNotice = el("div", "msg notice", "Waiting for the answer to your last message…");
    log.appendChild(waitingNotice);
    replyTimer = setTimeout(function () {
      dropWaitingNotice();
      addNotice("The answer to your last message did not arrive before the page was reloaded: please send it again.");
    }, RELOAD_GRACE_MS);
  }
  function dropWaitingNotice() {
    if (waitingNotice && waitingNotice.parentNode) waitingNotice.parentNode.removeChild(waitingNotice);
    waitingNotice = null;
  }

  function addUser(text) {
    keep({ kind: "user", text: text });
    replyBox = null;
    var bubble = el("div", "msg user");
    bubble.appendChild(el("p", "", text));
    log.appendChild(bubble);
    scrollToEnd();
  }

  function botBubble() {
    if (!replyBox) {
      replyBox = el("div", "msg bot");
      log.appendChild(replyBox);
    }
    return replyBox;
  }

  function addNotice(text, kept) {
    if (kept) keep({ kind: "notice", text: text });
    replyBox = null;
    log.appendChild(el("div", "msg notice", text));
    scrollToEnd();
  }

  function policyLink(card, evidence) {
    var link = el("a", "", evidence.citation);
    link.href = "/policy?" + new URLSearchParams({ name: card.policy, version: String(card.version) }).toString() +
                "#s-" + evidence.sentence_id;
    link.target = "_blank";
    link.rel = "noopener";
    link.setAttribute("aria-label", evidence.citation + " (opens the policy at this sentence)");
    return link;
  }

  // The quote of one evidence sentence; `span` (code point offsets) marks the short answer inside it.
  function quoteOf(evidence, span) {
    var block = el("blockquote", "quote");
    var p = el("p");
    var chars = Array.from(evidence.text);
    p.appendChild(document.createTextNode("“"));
    if (span && span.sentence_id === evidence.sentence_id && span.end <= chars.length && span.start < span.end) {
      p.appendChild(document.createTextNode(chars.slice(0, span.start).join("")));
      p.appendChild(el("strong", "", chars.slice(span.start, span.end).join("")));
      p.appendChild(document.createTextNode(chars.slice(span.end).join("")));
    } else {
      p.appendChild(document.createTextNode(evidence.text));
    }
    p.appendChild(document.createTextNode("”"));
    block.appendChild(p);
    return block;
  }

  function citedQuote(parent, card, evidence, span) {
    parent.appendChild(quoteOf(evidence, span));
    var cite = el("p", "cite");
    cite.appendChild(document.createTextNode("— "));
    cite.appendChild(policyLink(card, evidence));
    parent.appendChild(cite);
  }

  // An answer: the headline, the first quote with its citation, and the other passages behind a button.
  function renderCard(card) {
    cardCount += 1;
    var article = el("article", "card");
    article.setAttribute("aria-label", "Answer from " + card.policy);
    var verdict = card.related ? "" : (card.verdict || "");
    if (card.note) article.appendChild(el("p", "note", card.note));
    article.appendChild(el("p", "headline " + verdict, card.headline));
    var evidence = card.evidence || [];
    if (card.topics && card.topics.length) {
      article.appendChild(el("p", "note", "What " + card.policy + " does cover:"));
      var topics = el("ul");
      card.topics.forEach(function (topic) { topics.appendChild(el("li", "", topic)); });
      article.appendChild(topics);
    }
    if (evidence.length && !(card.topics && card.topics.length)) {
      if (card.related) article.appendChild(el("p", "note", "The closest passage (not an answer):"));
      citedQuote(article, card, evidence[0], card.span);
    }
    var rest = card.topics && card.topics.length ? evidence : evidence.slice(1);
    if (rest.length) {
      var listId = "evidence-" + cardCount;
      var more = el("button", "more", (card.topics && card.topics.length ? "Closest passages" : "More evidence") +
                    " (" + rest.length + ")");
      more.type = "button";
      more.setAttribute("aria-expanded", "false");
      more.setAttribute("aria-controls", listId);
      var list = el("ol", "evidence");
      list.id = listId;
      list.hidden = true;
      list.start = card.topics && card.topics.length ? 1 : 2;
      rest.forEach(function (item) { var li = el("li"); citedQuote(li, card, item, null); list.appendChild(li); });
      more.addEventListener("click", function () {
        var open = list.hidden;
        list.hidden = !open;
        more.setAttribute("aria-expanded", String(open));
      });
      article.appendChild(more);
      article.appendChild(list);
    }
    return article;
  }

  function choices(replies) {
    var group = el("div", "choices");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "Choices");
    replies.forEach(function (reply) {
      var button = el("button", "", reply.title);
      button.type = "button";
      button.addEventListener("click", function () { send(reply.payload, reply.title); });
      group.appendChild(button);
    });
    return group;
  }

  function onBotMessage(message) {
    if (!message || typeof message !== "object") return;
    keep({ kind: "bot", message: message });
    clearTimeout(replyTimer);
    dropWaitingNotice();
    var bubble = botBubble();
    var custom = message.custom;
    if (custom && custom.type === "answer") {
      bubble.appendChild(renderCard(custom));
      setActive(custom.policy);
    } else if (custom && custom.type === "policy") {
      bubble.appendChild(renderMarkdown(custom.text || ""));
      setActive(custom.policy, labelStale);
      labelStale = false;
    } else if (typeof message.text === "string") {
      bubble.appendChild(renderMarkdown(message.text));
    }
    var replies = message.quick_replies || message.buttons;
    if (replies && replies.length) bubble.appendChild(choices(replies));
    showReply(bubble);
  }

  // Scroll to the end, but never past the start of a reply taller than the conversation's box.
  function showReply(bubble) {
    var top = bubble.offsetTop - 8;  // #log is the offset parent (position: relative)
    log.scrollTop = bubble.offsetHeight > log.clientHeight ? top : log.scrollHeight;
  }

  // -- the connection --------------------------------------------------------------------------------

  var ready = false;  // connected and the session confirmed
  var socket = window.io(config.socketUrl, {
    path: "/socket.io/", transports: ["polling"], reconnection: true,
    reconnectionDelay: 1000, reconnectionDelayMax: 5000, timeout: 10000
  });

  function unreachable() {
    ready = false;
    document.body.setAttribute("data-connection", "offline");
    banner.textContent = "The assistant is not reachable, retrying…";
  }

  function requestSession() {
    socket.emit("session_request", { session_id: sessionStorage.getItem(SESSION_KEY) });
  }

  socket.on("connect", requestSession);
  socket.on("connect_error", unreachable);
  socket.on("disconnect", unreachable);
  socket.on("session_confirm", function (data) {
    var id = typeof data === "string" ? data : data && data.session_id;
    var kept = id && id === sessionStorage.getItem(SESSION_KEY);
    sessionStorage.setItem(SESSION_KEY, id);
    banner.textContent = "";
    ready = true;
    document.body.setAttribute("data-connection", "ready");  // what send() checks, for styles and tests
    document.body.setAttribute("data-session", kept ? "continued" : "new");
    if (!kept) {
      clearTimeout(replyTimer);
      dropWaitingNotice();
      setActive(null);
      sessionStorage.removeItem(TRANSCRIPT_KEY);
      if (log.children.length) addNotice("The assistant was restarted: this is a new conversation. Choose a policy again.", true);
      else emit("/greet");
    } else if (!log.children.length) {
      addNotice("Your conversation continues" + (activePolicy() ? " on " + activePolicy() : "") + ".");
    }
  });
  socket.on("bot_uttered", onBotMessage);

  function emit(text) {
    replyBox = null;  // a new turn: its reply gets a bubble of its own
    socket.emit("user_uttered", { message: text, session_id: sessionStorage.getItem(SESSION_KEY) });
    clearTimeout(replyTimer);
    replyTimer = setTimeout(function () {
      addNotice("No answer came back within " + Math.round(REPLY_TIMEOUT_MS / 1000) + " seconds: the assistant's " +
                "answering service may be down. Please try again in a moment.");
    }, REPLY_TIMEOUT_MS);
  }

  // Send a message (shown as `shown`, or not at all when empty); false if the assistant is not reachable.
  function send(text, shown) {
    if (!ready) {
      addNotice("Not sent: the assistant is not reachable right now. It is retrying; try again in a moment.");
      return false;
    }
    if (shown) addUser(shown);
    emit(text);
    return true;
  }

  // The question's length as the assistant counts it (runs of whitespace as one), checked before sending: a
  // question over the limit is kept in the box and the note says by how much.
  var maxQuestionChars = config.maxQuestionChars || 1000;
  var lengthNote = document.getElementById("length-note");
  function overLimit() {
    var length = messageField.value.trim().split(/\s+/).join(" ").length;
    var over = length > maxQuestionChars;
    lengthNote.hidden = !over;
    lengthNote.textContent = over ? "Your question is " + length + " characters long; the assistant reads at most " +
      maxQuestionChars + ". Shorten it to send it." : "";
    return over;
  }
  messageField.addEventListener("input", overLimit);

  askForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var text = messageField.value;
    if (!text.trim()) { messageField.focus(); return; }
    if (overLimit()) { messageField.focus(); return; }
    if (send(text, text)) messageField.value = "";
  });

  Array.prototype.forEach.call(document.querySelectorAll("[data-say]"), function (button) {
    button.addEventListener("click", function () { send(button.getAttribute("data-say"), button.getAttribute("data-say")); });
  });

  document.getElementById("new-chat").addEventListener("click", function () {
    sessionStorage.removeItem(SESSION_KEY);
    sessionStorage.removeItem(TRANSCRIPT_KEY);
    log.textContent = "";
    replyBox = null;
    clearTimeout(replyTimer);
    setActive(null);
    if (socket.connected) requestSession();
    messageField.focus();
  });

  // -- the policies: picker and the active one -------------------------------------------------------

  function activePolicy() { return sessionStorage.getItem(POLICY_KEY) || ""; }

  // The label panel: the chosen policy's privacy label, a page of web/server.py (/label, rendered by
  // assistant/frontends/label_html.py) in a frame beside the chat (below it on a narrow screen).
  var labelPanel = document.getElementById("label-panel");
  var labelFrame = document.getElementById("label-frame");
  var labelName = document.getElementById("label-name");
  var labelOpen = document.getElementById("label-open");
  var shownLabel = "";

  function showLabel(name, reload) {
    if (name === shownLabel && !reload) return;
    shownLabel = name;
    document.body.classList.toggle("has-label", Boolean(name));
    labelPanel.hidden = !name;
    if (!name) { labelFrame.src = "about:blank"; return; }
    var url = "/label?" + new URLSearchParams({ name: name }).toString();
    labelName.textContent = name;
    labelFrame.title = "Privacy label of " + name;
    labelOpen.href = url;
    labelFrame.src = url;
  }

  function setActive(name, reloadLabel) {
    if (name) sessionStorage.setItem(POLICY_KEY, name);
    else sessionStorage.removeItem(POLICY_KEY);
    showLabel(name || "", reloadLabel);
    activeName.textContent = name || "no policy chosen yet";
    if (name && !Array.prototype.some.call(picker.options, function (o) { return o.value === name; })) loadPolicies();
    picker.value = name || "";
  }

  function loadPolicies() {
    return fetch("/policies", { cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        var current = activePolicy();
        while (picker.options.length > 1) picker.remove(1);
        (data.policies || []).forEach(function (policy) {
          var option = el("option", "", policy.name + " (version " + policy.version + ", " + policy.sentences + " sentences)");
          option.value = policy.name;
          picker.appendChild(option);
        });
        picker.value = current;
      })
      .catch(function () { /* the picker keeps its options; the chat still lists policies */ });
  }

  // A choice is made with the mouse, or with Enter (or by leaving the picker) after the arrow keys: arrows alone
  // move through the list without switching at every press.
  var movedByKey = false;
  function choosePicked() {
    var name = picker.value;
    movedByKey = false;
    if (!name || name === activePolicy()) return;
    if (!send("/choose_policy" + JSON.stringify({ policy_name: name }), "Use " + name)) picker.value = activePolicy();
  }
  picker.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); choosePicked(); }
    else if (event.key !== "Tab" && event.key !== "Shift") movedByKey = true;
  });
  picker.addEventListener("change", function () { if (!movedByKey) choosePicked(); });
  picker.addEventListener("blur", function () { if (movedByKey) choosePicked(); });

  if (sessionStorage.getItem(SESSION_KEY)) replayTranscript();  // a reload: the conversation as it was
  setActive(activePolicy());
  loadPolicies();

  // -- adding a policy -------------------------------------------------------------------------------
  //
  // Two steps: "Continue" asks the server the name the policy would be stored under (POST /policies/preview:
  // fetched or read and screened, nothing stored) and shows it in an editable field with how it was chosen and
  // whether that name already holds this document (a new version) or another one (then a distinct name such as
  // "Reddit (2)" is proposed); "Add" stores it under the name in the field (POST /policies).

  var form = document.getElementById("add-form");
  var urlField = document.getElementById("add-url");
  var fileField = document.getElementById("add-file");
  var button = document.getElementById("add-button");
  var confirmForm = document.getElementById("add-confirm");
  var nameField = document.getElementById("add-name");
  var nameNote = document.getElementById("add-name-note");
  var confirmButton = document.getElementById("add-confirm-button");
  var cancelButton = document.getElementById("add-cancel");
  var feedback = document.getElementById("add-feedback");
  var status = document.getElementById("add-status");
  var elapsed = document.getElementById("add-elapsed");
  var pending = null;  // the previewed document: {url or file, the server's proposal}

  function show(text, failed) {
    status.textContent = text;
    elapsed.textContent = "";
    feedback.className = failed ? "failed" : "";
  }

  function stageText(progress) {
    if (!progress || !progress.running) return "reading, embedding";
    return progress.total ? progress.stage + " " + progress.done + "/" + progress.total + " sentences" : progress.stage;
  }

  function request(url, file, name) {
    if (url) {
      var data = { url: url };
      if (name) data.name = name;
      return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) };
    }
    var body = new FormData();
    body.append("file", file);
    if (name) body.append("name", name);
    return { method: "POST", body: body };  // the browser sets multipart/form-data with its boundary
  }

  // POST to the page's server while the status line shows `doing` and the engine's stage; the JSON reply.
  function post(path, options, doing, buttons) {
    var started = Date.now();
    var stage = "";
    function tick(progress) {
      var now = doing + " (" + stageText(progress) + ")";
      if (now !== stage) { stage = now; status.textContent = now; }  // the live region hears stage changes only
      elapsed.textContent = Math.round((Date.now() - started) / 1000) + " s";
    }
    buttons.forEach(function (b) { b.disabled = true; });
    feedback.className = "";
    tick(null);
    var timer = setInterval(function () {
      fetch("/policies/progress", { cache: "no-store" })
        .then(function (response) { return response.json(); })
        .then(function (progress) { if (timer) tick(progress); })
        .catch(function () { if (timer) tick(null); });
    }, 1000);
    return fetch(path, options)
      .then(function (response) {
        return response.json()
          .catch(function () { return { error: "The server answered " + response.status + " without a reason." }; })
          .then(function (data) { return { ok: response.ok, data: data }; });
      })
      .catch(function () { return { ok: false, data: { error: "The chat page's server could not be reached." } }; })
      .finally(function () {
        clearInterval(timer);
        timer = null;
        buttons.forEach(function (b) { b.disabled = false; });
      });
  }

  function storedNames() {
    return Array.prototype.map.call(picker.options, function (o) { return o.value; }).filter(Boolean);
  }

  function sentence(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) + ". " : ""; }

  // What adding under the name in the field will do.
  function describeName() {
    var name = nameField.value.trim().split(/\s+/).join(" ");
    var proposal = pending && pending.proposal;
    if (!name) return "Fill in a name for the policy.";
    if (proposal && name.toLowerCase() === proposal.name.toLowerCase()) {
      var text = (proposal.found ? "Found: " + proposal.found + ". " : "") + sentence(proposal.note);
      if (proposal.unchanged) {
        return text + "This document is already stored as version " + proposal.existing + " of “" + proposal.name +
               "”: adding it again changes nothing.";
      }
      if (proposal.existing) return text + "Adding stores it as version " + (proposal.existing + 1) + " of “" + proposal.name + "”.";
      return text + "It will be a new policy.";
    }
    var taken = storedNames().filter(function (n) { return n.toLowerCase() === name.toLowerCase(); })[0];
    if (taken) {
      return "“" + taken + "” already holds a policy: adding stores this document as its next version. " +
             "Choose another name to keep them apart.";
    }
    return "It will be a new policy named “" + name + "”.";
  }

  function closeConfirm() {
    pending = null;
    confirmForm.hidden = true;
    nameField.value = "";
    nameNote.textContent = "";
  }

  function added(data, found) {
    var text = "Added " + data.name + " (" + data.sentences + " sentences" + (data.named ? "; " + data.named : "") + ")";
    if (data.unchanged) text += ", the same as its stored version";
    found = data.found || found;
    text = (found ? "Found: " + found + ". " : "") + text + "." + (data.warning ? " " + data.warning : "");
    show(text, false);
    addNotice(text, true);  // in the conversation too: the add box closes once the policy is in
    form.reset();
    closeConfirm();
    document.getElementById("add-policy").open = false;
    labelStale = true;  // a new version may be stored under the chosen name: its label is drawn again
    loadPolicies().then(function () { send("/choose_policy" + JSON.stringify({ policy_name: data.name }), ""); });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    closeConfirm();
    var url = urlField.value.trim();
    var file = fileField.files.length ? fileField.files[0] : null;
    if (!url && !file) return show("Give the policy's web address or choose its file.", true);
    if (url && file) return show("Give a web address or a file, not both.", true);
    if (file && config.maxUploadBytes && file.size > config.maxUploadBytes) {
      return show("The file is larger than the " + config.maxUploadBytes.toLocaleString("en") +
                  "-byte limit for a policy.", true);
    }
    post("/policies/preview", request(url, file, ""), "Reading it…", [button]).then(function (result) {
      if (!result.ok) return show(result.data.error || "Reading the policy failed.", true);
      loadPolicies();  // the names taken now, for the note on an edited name
      pending = { url: result.data.url || url, file: file, proposal: result.data };
      nameField.value = result.data.name;
      nameNote.textContent = describeName();
      confirmForm.hidden = false;
      show("Nothing is stored yet: check the name it will be added as, then press Add.", false);
      nameField.focus();
    });
  });

  // A changed address or file needs its own preview.
  urlField.addEventListener("input", closeConfirm);
  fileField.addEventListener("change", closeConfirm);
  nameField.addEventListener("input", function () { nameNote.textContent = describeName(); });
  cancelButton.addEventListener("click", function () {
    closeConfirm();
    show("Not added.", false);
    urlField.focus();
  });

  confirmForm.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!pending) return;
    var name = nameField.value.trim();
    if (!name) { nameNote.textContent = describeName(); nameField.focus(); return; }
    var found = pending.proposal.found;
    post("/policies", request(pending.url, pending.file, name), "Adding…", [button, confirmButton, cancelButton])
      .then(function (result) {
        if (result.ok) added(result.data, found);
        else show(result.data.error || "Adding the policy failed.", true);
      });
  });
})();
