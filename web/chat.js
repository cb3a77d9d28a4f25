// Mounts the rasa-webchat widget (served locally from node_modules by web/server.py) on the page
// and connects it to the Rasa server's socketio channel; web/server.py writes /config.js.
(function () {
  var config = window.CHAT_CONFIG || {};
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
    params: { storage: "session" }
  }, document.getElementById("webchat"));  // the second argument is the element to mount in
})();
