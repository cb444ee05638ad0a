// The snapds status page: reads /api/datasets (the overview) or /api/datasets/NS/NAME (?dataset=NS:NAME)
// and renders them. Every string from the server goes into the DOM as a text node or an attribute
// value (el() below), never as markup: dataset names, writers and tags are user input.
'use strict';

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function time(iso) {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-';
}

function bytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return (i === 0 ? v : v.toFixed(1)) + ' ' + units[i];
}

function table(caption, headers, rows, attrs) {
  const t = el('table', attrs || {}, el('caption', {class: 'muted'}, caption));
  t.append(el('thead', {}, el('tr', {}, headers.map(h => el('th', {scope: 'col', class: h.num ? 'num' : null}, h.label || h)))));
  t.append(el('tbody', {}, rows));
  return t;
}

function datasetLink(name) {
  return el('a', {href: '/?dataset=' + encodeURIComponent(name)}, name);
}

function attentionList(items, id) {
  if (!items.length) return el('p', {class: 'ok', id: id}, 'Nothing needs attention.');
  return el('div', {class: 'attention'}, el('strong', {}, 'ATTENTION'),
      el('ul', {id: id}, items.map(a => el('li', {}, a))));
}

async function api(path) {
  const r = await fetch(path, {credentials: 'same-origin', cache: 'no-store'});
  const body = await r.json().catch(() => ({error: r.status + ' ' + r.statusText}));
  if (!r.ok) throw new Error(body.error || (r.status + ' ' + r.statusText));
  return body;
}

async function overview(main) {
  const data = await api('/api/datasets');
  document.getElementById('at').textContent = 'as of ' + time(data.at);
  const rows = data.datasets.map(d => d.error
    ? el('tr', {'data-dataset': d.dataset}, el('td', {}, datasetLink(d.dataset)), el('td', {colspan: 6, class: 'error'}, 'unreadable: ' + d.error))
    : el('tr', {'data-dataset': d.dataset},
        el('td', {}, datasetLink(d.dataset)),
        el('td', {class: 'num'}, d.current ? d.current.id : 'none'),
        el('td', {class: 'num'}, d.current ? d.current.rows : '-'),
        el('td', {}, d.current ? time(d.current.committedAt) : '-'),
        el('td', {class: 'num'}, d.building.length),
        el('td', {class: 'num'}, d.awaitingCleanup.length),
        el('td', {class: d.attention.length ? 'bad' : 'ok'}, d.attention.length ? d.attention.length + ' item(s)' : 'ok')));
  main.replaceChildren(
    el('h2', {}, 'Datasets (' + data.datasets.length + ')'),
    data.datasets.length ? table('Every dataset: its current snapshot, writers building, snapshots awaiting cleanup',
        ['Dataset', {label: 'Current', num: true}, {label: 'Rows', num: true}, 'Published', {label: 'Building', num: true},
         {label: 'Awaiting cleanup', num: true}, 'Attention'], rows, {id: 'datasets'})
      : el('p', {}, 'No datasets (create one with: snapds create NAMESPACE:NAME).'),
    el('h2', {}, 'Attention'),
    attentionList(data.datasets.flatMap(d => d.error ? [d.dataset + ': unreadable: ' + d.error]
        : d.attention.map(a => d.dataset + ': ' + a)), 'attention'));
}

function chart(container, timeline) {
  const points = timeline.filter(c => c.snapshot);
  const xs = points.map(c => Date.parse(c.at) / 1000);
  const rows = points.map(c => c.snapshot.rows);
  const size = points.map(c => c.snapshot.bytes);
  const width = Math.max(400, Math.min(1200, container.clientWidth || 900));
  new uPlot({
    width: width, height: 260, title: 'Rows and size of the current snapshot after each publish or rollback',
    series: [
      {label: 'time'},
      {label: 'rows', stroke: '#0969da', width: 2, points: {show: true, size: 7}, scale: 'rows'},
      {label: 'bytes', stroke: '#bf8700', width: 2, points: {show: true, size: 7}, scale: 'bytes', value: (u, v) => v == null ? '-' : bytes(v)},
    ],
    axes: [{}, {scale: 'rows', label: 'rows'}, {scale: 'bytes', side: 1, label: 'bytes', values: (u, vs) => vs.map(v => bytes(v)), grid: {show: false}}],
  }, [xs, rows, size], container);
  container.setAttribute('data-points', String(xs.length));
}

async function dataset(main, name) {
  const colon = name.indexOf(':');
  const path = colon < 0 ? ['default', name] : [name.slice(0, colon), name.slice(colon + 1)];
  const data = await api('/api/datasets/' + path.map(encodeURIComponent).join('/'));
  const s = data.status;
  document.getElementById('where').textContent = s.dataset;
  document.getElementById('at').textContent = 'as of ' + time(s.at);
  const c = s.current;
  const parts = [
    el('h2', {}, 'Current snapshot'),
    c ? el('p', {id: 'current', 'data-snapshot': c.id}, 'Snapshot ' + c.id + ', ' + c.rows + ' rows, ' + bytes(c.bytes)
        + ', published ' + time(c.committedAt) + ' by ' + c.writer + (c.tags.length ? ', tags: ' + c.tags.join(', ') : ''))
      : el('p', {id: 'current'}, 'None published.'),
    el('h2', {}, 'Attention'),
    attentionList(s.attention, 'attention'),
    el('h2', {}, 'Timeline'),
    el('p', {class: 'muted'}, 'The latest ' + data.timeline.length + ' changes of the current snapshot (at most '
        + data.timelineLimit + ' are shown), oldest first.'),
    el('div', {id: 'chart'}),
    table('Publishes and rollbacks, oldest first', ['Time', {label: 'Snapshot', num: true}, 'Change', {label: 'Rows', num: true},
        {label: 'Size (bytes)', num: true}, 'Snapshot written by', 'Tags'],
      data.timeline.map(t => el('tr', {'data-snapshot': t.id, class: t.rollback ? 'rollback' : null},
        el('td', {}, time(t.at)), el('td', {class: 'num'}, t.id), el('td', {}, t.reason),
        el('td', {class: 'num'}, t.snapshot ? t.snapshot.rows : '-'),
        el('td', {class: 'num'}, t.snapshot ? t.snapshot.bytes : '-'),
        el('td', {}, t.snapshot ? t.snapshot.writer : '(record past the history horizon)'),
        el('td', {}, t.snapshot ? t.snapshot.tags.map(g => el('span', {class: 'tag'}, g)) : []))), {id: 'timeline'}),
    el('h2', {}, 'Writers building'),
    s.building.length ? table('Snapshots being built and whether their writers live', ['Snapshot', 'Lock', 'Writer', 'Started', 'Writer alive'],
        s.building.map(b => el('tr', {'data-snapshot': b.id}, el('td', {}, b.id), el('td', {}, b.lock), el('td', {}, b.writer),
          el('td', {}, time(b.createdAt)),
          el('td', {class: b.transactionOpen && b.leaseHeld ? 'ok' : 'bad'}, b.transactionOpen && b.leaseHeld ? 'yes'
            : !b.transactionOpen ? 'no (transaction ended)' : 'no (lease not held)'))), {id: 'building'})
      : el('p', {class: 'muted'}, 'None.'),
    el('h2', {}, 'Locks and waiters'),
    s.locks.length ? table('The lock table', ['Lock', 'Holder', {label: 'Token', num: true}, 'Lease until', {label: 'Waiters', num: true}],
        s.locks.map(l => el('tr', {}, el('td', {}, l.name),
          el('td', {class: l.lease && l.lease.expired ? 'bad' : null}, l.lease ? l.lease.owner + (l.lease.expired ? ' (expired)' : '') : '-'),
          el('td', {class: 'num'}, l.lastToken), el('td', {}, l.lease ? time(l.lease.expiresAt) : '-'),
          el('td', {class: 'num'}, l.waiters))), {id: 'locks'})
      : el('p', {class: 'muted'}, 'No lock rows.'),
    el('h2', {}, 'Cleanup backlog'),
    s.awaitingCleanup.length ? table('Snapshots awaiting cleanup and what they wait for', ['Snapshot', 'State', 'Waits for', {label: 'Pins', num: true}],
        s.awaitingCleanup.map(b => el('tr', {}, el('td', {}, b.id), el('td', {}, b.state), el('td', {}, b.waitsFor.toLowerCase()),
          el('td', {class: 'num'}, b.livePins))), {id: 'backlog'})
      : el('p', {class: 'muted'}, 'Nothing awaits cleanup.'),
    el('h2', {}, 'Relays'),
    s.deliveries.length ? table('Undelivered outbox events per relay (last event ' + s.lastEventSequence + ')',
        ['Relay', {label: 'Delivered up to', num: true}, {label: 'Lag (events)', num: true}, 'Behind the window'],
        s.deliveries.map(d => el('tr', {}, el('td', {}, d.name), el('td', {class: 'num'}, d.position),
          el('td', {class: 'num'}, d.undelivered), el('td', {class: d.behindWindow ? 'bad' : null}, d.behindWindow ? 'yes' : 'no'))), {id: 'relays'})
      : el('p', {class: 'muted'}, 'No relay has delivered events yet (last event ' + s.lastEventSequence + ').'),
  ];
  main.replaceChildren(...parts);
  chart(document.getElementById('chart'), data.timeline);
}

async function render() {
  const main = document.getElementById('main');
  const name = new URLSearchParams(location.search).get('dataset');
  try {
    if (name) {
      await dataset(main, name);
    } else {
      await overview(main);
    }
  } catch (e) {
    main.replaceChildren(el('p', {class: 'error', id: 'error'}, 'Cannot load: ' + e.message));
  }
  document.body.setAttribute('data-ready', 'true');
}

render();
