// "Scan my card" on a seat's page (issue 13): when the table waits for a card from this
// seat, a large button opens the phone's camera through a file input (this works on plain
// http, unlike live video), shrinks the photo in the browser (long side 1,600 px, JPEG)
// and uploads it; the server finds the card and plays it as this seat's scan.
//
// An ES module on its own: it reads window.COMPANION (table, token, role), or the page's
// address, and follows the page's body[data-version] to know when to look at the table
// again.

const LONG_SIDE = 1600;
const QUALITY = 0.85;

// The page's config; under a CSP without inline scripts it may be missing, and the seat
// page's own address says the same: /t/<table>/seat/<n>. The token is in the address only
// until app.js moves it into the tab's sessionStorage (issue 18 §5), where it is read back.
function config() {
  if (window.COMPANION && window.COMPANION.table) return window.COMPANION;
  const m = location.pathname.match(/^\/t\/([^/]+)\/seat\/(\d+)$/);
  if (!m) return {};
  let token = new URLSearchParams(location.search).get("token");
  try { token = token || sessionStorage.getItem(`companion.seat:${decodeURIComponent(m[1])}:${m[2]}`); }
  catch (e) { /* storage off: the token stays in the address */ }
  return token ? { table: m[1], seat: Number(m[2]), token, role: "seat" } : {};
}

const cfg = config();

function zoneToScan(snapshot) {
  // The first action that asks this seat for a card, and the zone the card goes to.
  for (const action of snapshot.actions || []) {
    if (action.disabled) continue;
    for (const field of action.fields || []) {
      if (field.kind === "card" && typeof field.zone === "string") {
        return { zone: field.zone, label: action.label || field.label || "" };
      }
    }
  }
  return null;
}

async function shrink(file) {
  // createImageBitmap applies the photo's EXIF orientation; fall back to an <img>.
  let source;
  try {
    source = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch (e) {
    source = await new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error("the phone gave a picture this browser cannot open"));
      img.src = URL.createObjectURL(file);
    });
  }
  const w = source.width, h = source.height;
  const k = Math.min(1, LONG_SIDE / Math.max(w, h));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(w * k));
  canvas.height = Math.max(1, Math.round(h * k));
  canvas.getContext("2d").drawImage(source, 0, 0, canvas.width, canvas.height);
  return await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
}

function scanId() {
  const a = new Uint8Array(12);
  crypto.getRandomValues(a);
  return "photo-" + Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}

function mount() {
  if (cfg.role !== "seat" || !cfg.table || !cfg.token) return;
  const box = document.createElement("section");
  box.className = "card-box scan-my-card";
  box.hidden = true;
  box.innerHTML = `
    <label class="scan-button">
      <span class="scan-label">Scan my card</span>
      <input type="file" accept="image/*" capture="environment" hidden>
    </label>
    <p class="scan-why muted small"></p>
    <p class="scan-result" role="status" aria-live="polite"></p>`;
  // Styled through the CSSOM, not inline attributes (a strict CSP allows this).
  Object.assign(box.querySelector(".scan-button").style, {
    display: "block", textAlign: "center", fontSize: "1.4rem", fontWeight: "700",
    padding: "1rem", borderRadius: "12px", background: "#2f5d8a", color: "#fff",
    cursor: "pointer",
  });
  for (const p of box.querySelectorAll("p")) p.style.margin = "0.4rem 0 0";
  const anchor = document.querySelector("#actions");
  const section = anchor ? anchor.closest("section") : null;
  if (section && section.parentNode) section.parentNode.insertBefore(box, section);
  else (document.querySelector("main") || document.body).prepend(box);
  const input = box.querySelector("input");
  const why = box.querySelector(".scan-why");
  const result = box.querySelector(".scan-result");
  let wanted = null;
  let busy = false;

  function say(text, kind) {
    result.textContent = text;
    result.dataset.kind = kind;
    result.style.color = kind === "error" ? "#b3261e" : kind === "ok" ? "#2e7d32" : "";
  }

  async function refresh() {
    try {
      const r = await fetch(`/api/tables/${cfg.table}`, {
        headers: { Authorization: `Bearer ${cfg.token}` },
      });
      if (!r.ok) return;
      wanted = zoneToScan(await r.json());
    } catch (e) {
      return; // offline for a moment: the next version change tries again
    }
    box.hidden = wanted === null;
    why.textContent = wanted ? wanted.label : "";
  }

  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file || !wanted || busy) return;
    busy = true;
    box.dataset.busy = "1";
    say("Reading the card…", "info");
    try {
      const photo = await shrink(file);
      const url = `/api/tables/${cfg.table}/photos?zone=${encodeURIComponent(wanted.zone)}` +
        `&scan_id=${scanId()}`;
      const r = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${cfg.token}`, "Content-Type": "image/jpeg" },
        body: photo,
      });
      const answer = await r.json();
      if (r.ok) {
        const name = answer.name ? `${answer.name}: ` : "";
        // C-9: a card already in its pile is no play ("ruling" is then the id, not words).
        say(`${name}${answer.already_there ? "already there, nothing to do" : answer.ruling || "played"}`, "ok");
      } else if (answer.code === "no_card_found") {
        say(answer.hint || "No card found. Try again closer, with more light.", "error");
      } else {
        say(answer.error || "The referee refused that photo.", "error");
      }
      box.dataset.answer = answer.code || "ok";
    } catch (e) {
      say(`Could not send the photo: ${e.message}. Check the Wi-Fi and try again.`, "error");
      box.dataset.answer = "offline";
    } finally {
      busy = false;
      delete box.dataset.busy;
      refresh();
    }
  });

  new MutationObserver(refresh).observe(document.body, {
    attributes: true, attributeFilter: ["data-version"],
  });
  refresh();
}

mount();
