// The web desk's only script (fatecraft serve): the receipt as you type, "line N" moving to the line, and
// zoom and pan for the maps. Every page works without it: the form's buttons post and the page comes back.

const form = document.getElementById('orders-form');
const sheet = document.getElementById('sheet');
const receipt = document.getElementById('receipt');

/** Moves the caret to a line of the order form and shows it. */
function goToLine(n) {
  if (!sheet) return;
  const lines = sheet.value.split('\n');
  const line = Math.max(1, Math.min(n, lines.length));
  let start = 0;
  for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
  sheet.focus();
  sheet.setSelectionRange(start, start + lines[line - 1].length);
  const height = sheet.scrollHeight / Math.max(1, lines.length);
  sheet.scrollTop = Math.max(0, (line - 3) * height);
}

if (form && sheet && receipt) {
  let timer;
  let sent = 0;
  const check = async () => {
    const mine = ++sent;
    receipt.setAttribute('aria-busy', 'true');
    const body = new URLSearchParams({ csrf: form.elements.csrf.value, turn: form.elements.turn.value, text: sheet.value });
    try {
      const response = await fetch(form.dataset.check, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, credentials: 'same-origin' });
      const html = await response.text();
      // An answer to an older text is dropped: only the latest text's receipt is shown.
      if (mine === sent) receipt.innerHTML = response.ok ? html : `<p class="verdict refused">${response.status === 429 ? 'Checking too often: the receipt will come back in a moment.' : 'The receipt could not be made just now; press Check.'}</p>`;
    } catch {
      if (mine === sent) receipt.innerHTML = '<p class="verdict refused">The desk did not answer; press Check to try again.</p>';
    } finally {
      if (mine === sent) receipt.removeAttribute('aria-busy');
    }
  };
  sheet.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(check, 600);
  });
  if (!receipt.querySelector('.verdict') && sheet.value.trim() !== '') check();
}

document.addEventListener('click', (event) => {
  const link = event.target.closest('a.line[data-line]');
  if (link && sheet) {
    event.preventDefault();
    goToLine(Number(link.dataset.line));
  }
});

/** Zoom and pan by the SVG's viewBox: buttons, the wheel, dragging, two fingers, and the keyboard. */
function zoomable(box) {
  const svg = box.querySelector('svg');
  if (!svg || !svg.viewBox || !svg.viewBox.baseVal || svg.viewBox.baseVal.width === 0) return;
  const base = { x: svg.viewBox.baseVal.x, y: svg.viewBox.baseVal.y, w: svg.viewBox.baseVal.width, h: svg.viewBox.baseVal.height };
  let view = { ...base };
  const MAX = 8;
  const apply = () => svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  const clamp = () => {
    view.w = Math.min(base.w, Math.max(base.w / MAX, view.w));
    view.h = view.w * (base.h / base.w);
    view.x = Math.min(base.x + base.w - view.w, Math.max(base.x, view.x));
    view.y = Math.min(base.y + base.h - view.h, Math.max(base.y, view.y));
  };
  /** Zooms by `factor` around a point given as fractions of the map's box. */
  const zoom = (factor, fx = 0.5, fy = 0.5) => {
    const w = view.w / factor;
    const h = view.h / factor;
    view = { x: view.x + (view.w - w) * fx, y: view.y + (view.h - h) * fy, w, h };
    clamp();
    apply();
  };
  const pan = (dx, dy) => {
    view.x += dx;
    view.y += dy;
    clamp();
    apply();
  };
  const tools = document.createElement('div');
  tools.className = 'map-tools';
  tools.setAttribute('role', 'group');
  tools.setAttribute('aria-label', 'Map zoom');
  const button = (label, title, act) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small';
    b.textContent = label;
    b.setAttribute('aria-label', title);
    b.addEventListener('click', act);
    tools.appendChild(b);
  };
  button('+', 'Zoom in', () => zoom(1.5));
  button('−', 'Zoom out', () => zoom(1 / 1.5));
  button('Whole map', 'Show the whole map', () => {
    view = { ...base };
    apply();
  });
  const hint = document.createElement('span');
  hint.className = 'muted';
  hint.textContent = 'Drag to move; arrow keys and + − when the map has focus.';
  tools.appendChild(hint);
  box.parentNode.insertBefore(tools, box);
  box.classList.add('zoomable');
  box.tabIndex = 0;
  box.setAttribute('aria-label', `${svg.getAttribute('aria-label') || 'Map'} (zoomable)`);
  box.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = box.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.25 : 0.8, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
  }, { passive: false });
  box.addEventListener('keydown', (e) => {
    const step = view.w / 8;
    const keys = { ArrowLeft: () => pan(-step, 0), ArrowRight: () => pan(step, 0), ArrowUp: () => pan(0, -step), ArrowDown: () => pan(0, step), '+': () => zoom(1.5), '=': () => zoom(1.5), '-': () => zoom(1 / 1.5), '0': () => { view = { ...base }; apply(); } };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
  const pointers = new Map();
  let pinch = 0;
  box.addEventListener('pointerdown', (e) => {
    box.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  box.addEventListener('pointermove', (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    const r = box.getBoundingClientRect();
    if (pointers.size === 1) {
      pan(((last.x - e.clientX) / r.width) * view.w, ((last.y - e.clientY) / r.height) * view.h);
    } else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const other = a === last ? b : a;
      const before = Math.hypot(last.x - other.x, last.y - other.y);
      const after = Math.hypot(e.clientX - other.x, e.clientY - other.y);
      if (pinch++ > 0 && before > 0) zoom(after / before, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = 0;
  };
  box.addEventListener('pointerup', up);
  box.addEventListener('pointercancel', up);
}

for (const box of document.querySelectorAll('.map')) zoomable(box);
