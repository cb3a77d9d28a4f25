// The extension's one setting, the local server's address, and the per-site memory (chrome.storage.local).
// Nothing here talks to any host but the configured local server.

export const api = globalThis.browser ?? globalThis.chrome;  // Firefox's promise API, else Chromium's
export const DEFAULT_SERVER = "http://127.0.0.1:8765";
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost"]);

// The server's address as an origin ("http://127.0.0.1:8765"), or an Error saying why not: only an http address
// on this machine is accepted, so the extension never sends a site's address anywhere else.
export function checkServer(text) {
  let url;
  try {
    url = new URL(String(text).trim());
  } catch {
    throw new Error("Write the address as http://127.0.0.1:8765 (the address `assistant serve` prints).");
  }
  if (url.protocol !== "http:" || !LOCAL_HOSTS.has(url.hostname)) {
    throw new Error("The assistant must run on this computer: use http://127.0.0.1:PORT or http://localhost:PORT.");
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username || url.password) {
    throw new Error("Give the server's address only, without a path: http://127.0.0.1:8765.");
  }
  return url.origin;
}

export async function serverAddress() {
  const { server } = await api.storage.local.get("server");
  try {
    return checkServer(server ?? DEFAULT_SERVER);
  } catch {
    return DEFAULT_SERVER;
  }
}

export async function saveServer(text) {
  const server = checkServer(text);
  await api.storage.local.set({ server });
  return server;
}

// What was last seen of a site's policy: {name, version, found, seenAt}, or null.
export async function remembered(site) {
  const key = "site:" + site;
  const stored = await api.storage.local.get(key);
  return stored[key] ?? null;
}

export async function remember(site, seen) {
  await api.storage.local.set({ ["site:" + site]: seen });
}

// The command that lets this extension use the server.
export function serveCommand() {
  return `assistant serve --extension-origin ${location.origin}`;
}
