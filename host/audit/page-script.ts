import { createHash } from 'node:crypto';

/**
 * The audit page's one script: it reads the rows the page carries (JSON blocks, never executed) and
 * fills the investigation table, filtered by agent, workspace, tool, hook, decision, time window and
 * text. Every value reaches the page as text (`textContent`), never as markup. The page's
 * Content-Security-Policy allows this script by its hash and nothing else.
 */
export const PAGE_SCRIPT = `(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const strings = JSON.parse($('audit-strings').textContent);
  const meta = JSON.parse($('audit-meta').textContent);
  const rows = [];
  for (const block of document.querySelectorAll('script.audit-rows')) for (const row of JSON.parse(block.textContent)) rows.push(row);
  rows.sort((a, b) => b[0] - a[0]);
  const DECISIONS = ['allow', 'deny', 'modify', 'replace'];
  const SHADOW = 1, FAILURE = 2;
  const PAGE = 200;
  const str = (i) => (i < 0 ? '' : strings[i]);

  function fill(select, index, label) {
    const counts = new Map();
    for (const row of rows) counts.set(row[index], (counts.get(row[index]) || 0) + 1);
    const entries = [...counts.entries()].sort((a, b) => b[1] - a[1] || str(a[0]).localeCompare(str(b[0])));
    for (const [id, n] of entries) {
      const option = document.createElement('option');
      option.value = String(id);
      option.textContent = (id < 0 ? label : str(id)) + ' (' + n + ')';
      select.appendChild(option);
    }
  }
  fill($('f-agent'), 1, '');
  fill($('f-workspace'), 2, '');
  fill($('f-tool'), 3, '');
  fill($('f-hook'), 5, '(no hook: an allowed call)');

  let shown = PAGE;
  function matches() {
    const agent = $('f-agent').value, workspace = $('f-workspace').value, tool = $('f-tool').value, hook = $('f-hook').value;
    const decision = $('f-decision').value;
    const windowMs = Number($('f-window').value);
    const since = windowMs > 0 ? meta.last - windowMs : -Infinity;
    const shadow = $('f-shadow').checked;
    const text = $('f-search').value.trim().toLowerCase();
    return rows.filter((r) => {
      if (agent !== '' && String(r[1]) !== agent) return false;
      if (workspace !== '' && String(r[2]) !== workspace) return false;
      if (tool !== '' && String(r[3]) !== tool) return false;
      if (hook !== '' && String(r[5]) !== hook) return false;
      if (r[0] < since) return false;
      if (!shadow && (r[7] & SHADOW)) return false;
      const failed = (r[7] & FAILURE) !== 0;
      if (decision === 'notable' && r[6] === 0 && !failed) return false;
      if (decision === 'failure' && !failed) return false;
      if (decision !== 'notable' && decision !== 'all' && decision !== 'failure' && DECISIONS[r[6]] !== decision) return false;
      if (text !== '') {
        const hay = [str(r[1]), str(r[2]), str(r[3]), str(r[5]), str(r[8]), r[9]].join('\\u0000').toLowerCase();
        if (!hay.includes(text)) return false;
      }
      return true;
    });
  }

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
  }

  function render() {
    const found = matches();
    const tally = { allow: 0, deny: 0, modify: 0, replace: 0, failure: 0, shadow: 0 };
    for (const r of found) {
      if (r[7] & SHADOW) tally.shadow++;
      else tally[DECISIONS[r[6]]]++;
      if (r[7] & FAILURE) tally.failure++;
    }
    $('f-count').textContent = found.length + ' of ' + rows.length + ' rows: ' + tally.deny + ' denied, ' + tally.modify + ' modified, ' + tally.replace + ' replaced, ' + tally.allow + ' allowed, ' + tally.failure + ' failures, ' + tally.shadow + ' shadow' + (found.length > shown ? ' (the newest ' + shown + ' shown)' : '');
    const body = $('f-rows');
    body.replaceChildren();
    for (const r of found.slice(0, shown)) {
      const tr = document.createElement('tr');
      const failed = (r[7] & FAILURE) !== 0;
      const decision = DECISIONS[r[6]];
      tr.dataset.decision = decision;
      if (failed) tr.dataset.failure = str(r[10]);
      if (r[7] & SHADOW) tr.dataset.shadow = 'true';
      cell(tr, new Date(r[0]).toISOString().replace('T', ' ').slice(0, 23));
      cell(tr, str(r[1]), 'name');
      cell(tr, str(r[2]), 'name');
      cell(tr, str(r[3]), 'name');
      cell(tr, r[4] === 0 ? 'pre' : 'post');
      cell(tr, str(r[5]), 'name');
      cell(tr, decision + (failed ? ' (failed)' : '') + ((r[7] & SHADOW) ? ' (shadow)' : ''), decision === 'deny' ? 'deny' : decision === 'allow' && !failed ? '' : 'rewrite');
      cell(tr, str(r[8]), 'reason');
      cell(tr, r[9], 'name');
      body.appendChild(tr);
    }
    $('f-more').hidden = found.length <= shown;
  }

  const again = () => { shown = PAGE; render(); };
  for (const id of ['f-agent', 'f-workspace', 'f-tool', 'f-hook', 'f-decision', 'f-window', 'f-shadow']) $(id).addEventListener('change', again);
  $('f-search').addEventListener('input', again);
  $('f-more').addEventListener('click', () => { shown += PAGE; render(); });
  $('investigate').hidden = false;
  $('no-script').hidden = true;
  render();
})();
`;

/** The script's CSP source (`'sha256-…'`), allowing it and no other script. */
export const PAGE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(PAGE_SCRIPT, 'utf8').digest('base64')}'`;
