import { saveServer, serveCommand, serverAddress } from "./settings.js";

const field = document.getElementById("server");
const saved = document.getElementById("saved");

document.getElementById("command").textContent = serveCommand();
field.value = await serverAddress();

document.getElementById("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    field.value = await saveServer(field.value);
    field.removeAttribute("aria-invalid");
    saved.className = "";
    saved.textContent = `Saved: the extension now uses ${field.value}.`;
  } catch (error) {
    field.setAttribute("aria-invalid", "true");
    saved.className = "error";
    saved.textContent = error.message;
  }
});
