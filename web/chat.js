// Mounts the rasa-webchat widget (served locally from node_modules by web/server.py) on the page
// and connects it to the Rasa server's socketio channel; web/server.py writes /config.js.
// The "Add a policy" form posts a URL (JSON) or a file (multipart) to web/server.py's /policies,
// shows the ingest's progress, and on success switches the chat to the new policy.
(function () {
  var config = window.CHAT_CONFIG || {};
  var chat = { current: null };  // the widget's handle: sendMessage(payload, shownText)
  window.WebChat.default({
    socketUrl: config.socketUrl,
    socketPath: "/socket.io/",
    initPayload: "/greet",
    embedded: true,
    title: "Privacy assistant",
    subtitle: "Answers quoted from the policy",
    inputTextFieldHint: "Ask about the policy…",
    hideWhenNotConnected: false,
    showFullScreenButton: false,
    customMessageDelay: function () { return 150; },
    params: { storage: "session" },
    innerRef: chat
  }, document.getElementById("webchat"));  // the second argument is the element to mount in

  var form = document.getElementById("add-form");
  var urlField = document.getElementById("add-url");
  var fileField = document.getElementById("add-file");
  var nameField = document.getElementById("add-name");
  var button = document.getElementById("add-button");
  var feedback = document.getElementById("add-feedback");
  var status = document.getElementById("add-status");
  var elapsed = document.getElementById("add-elapsed");

  // Every text the page shows goes through textContent: server messages are never parsed as HTML.
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

  function switchTo(name) {
    if (chat.current && chat.current.sendMessage) {
      chat.current.sendMessage("/choose_policy" + JSON.stringify({ policy_name: name }), "");
    }
  }

  function added(data) {
    var text = "Added " + data.name + " (" + data.sentences + " sentences)";
    if (data.unchanged) text += ", the same as its stored version";
    show(text + "." + (data.warning ? " " + data.warning : ""), false);
    form.reset();
    switchTo(data.name);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var url = urlField.value.trim();
    var file = fileField.files.length ? fileField.files[0] : null;
    var name = nameField.value.trim();
    if (!url && !file) return show("Give the policy's web address or choose its file.", true);
    if (url && file) return show("Give a web address or a file, not both.", true);
    if (file && config.maxUploadBytes && file.size > config.maxUploadBytes) {
      return show("The file is larger than the " + config.maxUploadBytes.toLocaleString("en") +
                  "-byte limit for a policy.", true);
    }
    var started = Date.now();
    var stage = "";
    function tick(progress) {
      var now = "Adding… (" + stageText(progress) + ")";
      if (now !== stage) { stage = now; status.textContent = now; }  // the live region hears stage changes only
      elapsed.textContent = Math.round((Date.now() - started) / 1000) + " s";
    }
    button.disabled = true;
    feedback.className = "";
    tick(null);
    var timer = setInterval(function () {
      fetch("/policies/progress", { cache: "no-store" })
        .then(function (response) { return response.json(); })
        .then(function (progress) { if (timer) tick(progress); })
        .catch(function () { if (timer) tick(null); });
    }, 1000);
    fetch("/policies", request(url, file, name))
      .then(function (response) {
        return response.json()
          .catch(function () { return { error: "The server answered " + response.status + " without a reason." }; })
          .then(function (data) { return { ok: response.ok, data: data }; });
      })
      .then(function (result) {
        if (result.ok) added(result.data);
        else show(result.data.error || "Adding the policy failed.", true);
      })
      .catch(function () { show("The chat page's server could not be reached.", true); })
      .finally(function () {
        clearInterval(timer);
        timer = null;
        button.disabled = false;
      });
  });
})();
