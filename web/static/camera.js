// A phone propped above the table as its camera (issue 13, web/photos.py).
//
// About 5 times a second the page uploads the video frame as a JPEG (long side at most
// 1,280 px); where the browser decodes QR codes itself (BarcodeDetector) it sends only the
// codes and their corners, and every 10th frame as a JPEG so the server finds the mat's
// markers. The server's tracker (the one `companion watch` uses) sends each card once it
// lies still; every answer says what to draw: zones, cards, what the referee said.

const root = document.getElementById("camera");
const table = root.dataset.table;
const token = root.dataset.token;
const video = document.getElementById("video");
const overlay = document.getElementById("overlay");
const statusLine = document.getElementById("cam-status");
const help = document.getElementById("cam-help");
const zoneSelect = document.getElementById("cam-zone");
const sentList = document.getElementById("sent");

const FPS = 5;
const LONG_SIDE = 1280;
const FRAME_EVERY = 10; // with BarcodeDetector: a JPEG every 10th frame, for the mat

const grab = document.createElement("canvas");
let detector = null;
let seq = 0;
let busy = false;
let sentShown = 0;
let accepted = 0;
const seen = new Set();

function say(text, bad = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("bad", bad);
}

async function start() {
  if (!window.isSecureContext || !navigator.mediaDevices ||
      !navigator.mediaDevices.getUserMedia) {
    say("This page needs https for live video.", true);
    help.hidden = false;
    return;
  }
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 },
               height: { ideal: 720 } },
    });
  } catch (e) {
    say(cameraTrouble(e), true);
    return;
  }
  video.srcObject = stream;
  try { await video.play(); } catch (e) { /* autoplay of a muted video: it plays anyway */ }
  if ("BarcodeDetector" in window) {
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (formats.includes("qr_code")) {
        detector = new window.BarcodeDetector({ formats: ["qr_code"] });
      }
    } catch (e) { detector = null; }
  }
  root.dataset.mode = detector ? "codes" : "frames";
  say("Looking for the mat and the cards…");
  setInterval(tick, 1000 / FPS);
}

function frameSize() {
  const w = video.videoWidth, h = video.videoHeight;
  const k = Math.min(1, LONG_SIDE / Math.max(w, h));
  return [Math.round(w * k), Math.round(h * k)];
}

function query() {
  const zone = zoneSelect.value;
  return zone ? `&zone=${encodeURIComponent(zone)}` : "";
}

async function post(path, body, type) {
  const r = await fetch(`/api/tables/${table}/camera/${path}`, {
    method: "POST", body,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": type },
  });
  const answer = await r.json();
  if (!r.ok) throw new Error(answer.error || `the server answered ${r.status}`);
  return answer;
}

async function tick() {
  if (busy || video.readyState < 2 || !video.videoWidth) return;
  busy = true;
  seq += 1;
  const t = performance.now() / 1000;
  const [w, h] = frameSize();
  grab.width = w;
  grab.height = h;
  grab.getContext("2d").drawImage(video, 0, 0, w, h);
  try {
    let state;
    if (detector && seq % FRAME_EVERY !== 1) {
      const found = await detector.detect(grab);
      const codes = found.slice(0, 32).map((c) => ({
        text: c.rawValue, corners: c.cornerPoints.map((p) => [p.x, p.y]),
      }));
      const zone = zoneSelect.value ? `?zone=${encodeURIComponent(zoneSelect.value)}` : "";
      state = await post(`codes${zone}`, JSON.stringify({ seq, t, size: [w, h], codes }),
                         "application/json");
    } else {
      const blob = await new Promise((resolve) => grab.toBlob(resolve, "image/jpeg", 0.8));
      state = await post(`frames?seq=${seq}&t=${t.toFixed(3)}${query()}`, blob, "image/jpeg");
    }
    root.dataset.frames = String(seq);
    draw(state);
  } catch (e) {
    say(`Cannot reach the referee: ${e.message}`, true);
  } finally {
    busy = false;
  }
}

// Why the camera did not start, in words a player acts on (C-8: never "NotFoundError").
function cameraTrouble(e) {
  const name = e && e.name;
  if (name === "NotFoundError" || name === "OverconstrainedError")
    return "This phone has no camera the page can use. Use another phone as the table camera, or let each player use Scan my card.";
  if (name === "NotAllowedError" || name === "SecurityError")
    return "The camera is not allowed for this page. Allow the camera in the browser's settings for this site, then reload.";
  if (name === "NotReadableError" || name === "AbortError")
    return "Another app is using the camera. Close it, then reload this page.";
  return "The camera did not start. Allow the camera for this page and reload.";
}

function draw(state) {
  const [fw, fh] = state.size;
  const box = video.getBoundingClientRect();
  overlay.width = Math.round(box.width);
  overlay.height = Math.round(box.height);
  const ctx = overlay.getContext("2d");
  ctx.clearRect(0, 0, overlay.width, overlay.height);
  if (!fw || !fh) return;
  const kx = overlay.width / fw, ky = overlay.height / fh;
  const path = (pts) => {
    ctx.beginPath();
    pts.forEach(([x, y], i) => (i ? ctx.lineTo(x * kx, y * ky) : ctx.moveTo(x * kx, y * ky)));
    ctx.closePath();
  };
  ctx.lineWidth = 1.5;
  ctx.font = "12px sans-serif";
  for (const z of state.zones) {
    ctx.strokeStyle = "rgba(255,255,255,0.7)";
    path(z.outline);
    ctx.stroke();
    const [x, y] = z.outline[0];
    ctx.fillStyle = "rgba(255,255,255,0.9)";
    ctx.fillText(z.zone, x * kx + 4, y * ky + 14);
  }
  ctx.lineWidth = 3;
  for (const c of state.cards) {
    if (!c.outline.length) continue;
    ctx.strokeStyle = c.state === "placed" ? "#3ddc5c" : "#ffd02b";
    path(c.outline);
    ctx.stroke();
  }
  root.dataset.mat = state.mat ? "1" : "0";
  root.dataset.cards = String(state.cards.length);
  for (const s of state.sent) {
    const key = `${s.serial}|${s.zone}|${s.at}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const li = document.createElement("li");
    const ok = s.status < 400;
    li.className = ok ? "accepted" : "refused";
    li.textContent = `${ok ? "Accepted" : "Refused"}: card ${s.serial} in ${s.zone}` +
      (s.message ? `: ${s.message}` : "");
    sentList.prepend(li);
    sentShown += 1;
    if (ok) accepted += 1;
  }
  root.dataset.accepted = String(accepted);
  root.dataset.sent = String(sentShown);
  if (!state.mat && !zoneSelect.value) {
    say("Looking for the mat's four corner markers: get them all in view.");
  } else {
    const n = state.cards.length;
    say(n ? `${n} card${n === 1 ? "" : "s"} in view` : "Watching the table: no card in view.");
  }
}

start();

// Played again with the same players (the referee's "Play again"): this camera follows to
// the new table's camera page, which the table's snapshot names for the camera token.
const FOLLOW_MS = 10000;
async function followNext() {
  try {
    const r = await fetch(`/api/tables/${table}`, {headers: {Authorization: `Bearer ${token}`}});
    if (!r.ok) return;
    const next = (await r.json()).next_table;
    if (next && typeof next.url === "string" && next.url.startsWith("/t/")) location.assign(next.url);
  } catch (e) {
    // offline for a moment: the next look tries again
  }
}
setInterval(followNext, FOLLOW_MS);
