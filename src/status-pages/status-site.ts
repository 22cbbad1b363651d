import { encodeXML, escapeUTF8 } from 'entities';
import type { DayStatus, PublicStatusPageDto, ServiceStatus } from './dto/status-pages.dto';

/** The stylesheet's address: `-` is never a slug, so it cannot shadow a page. */
export const STATUS_STYLESHEET_PATH = '/status/-/status.css';

const STATUS_WORDS: Record<ServiceStatus, string> = {
  operational: 'Operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  under_maintenance: 'Under maintenance',
};
const DAY_WORDS: Record<DayStatus, string> = {
  operational: STATUS_WORDS.operational,
  degraded: STATUS_WORDS.degraded,
  partial_outage: STATUS_WORDS.partial_outage,
  major_outage: STATUS_WORDS.major_outage,
  no_data: 'No data',
};
const INCIDENT_WORDS = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

const html = escapeUTF8;
const percent = (value: number | null) => (value === null ? 'no data' : `${value.toFixed(2)} %`);
const when = (iso: string) => `<time datetime="${html(iso)}">${html(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;

/**
 * 90 days as a bar of squares, drawn as one path per status (a rect and tooltip per day would make a page of 20
 * components 300 KB); the bar's text alternative counts the days, and the table below it names them.
 */
function dayBar(days: PublicStatusPageDto['components'][number]['days'], label: string): string {
  const width = 4;
  const gap = 1;
  const squares = new Map<DayStatus, string[]>();
  days.forEach((day, index) => {
    const list = squares.get(day.status) ?? [];
    list.push(`M${index * (width + gap)} 0h${width}v24h-${width}z`);
    squares.set(day.status, list);
  });
  const paths = [...squares.entries()]
    .map(([status, parts]) => `<path class="day day-${status}" d="${parts.join('')}"/>`)
    .join('');
  const bad = days.filter((day) => day.status !== 'operational' && day.status !== 'no_data').length;
  const summary = `${label}: ${days.length} days, ${bad} with reduced uptime`;
  return (
    `<svg class="days" viewBox="0 0 ${days.length * (width + gap) - gap} 24" preserveAspectRatio="none" ` +
    `role="img" aria-label="${html(summary)}">${paths}</svg>`
  );
}

/** The days that were not fully up, as a table anyone can reach (the bar's squares are for the eye). */
function dayDetails(days: PublicStatusPageDto['components'][number]['days']): string {
  const notable = days.filter((day) => day.status !== 'operational' && day.status !== 'no_data');
  if (!notable.length) return '';
  const rows = notable
    .map((day) => `<tr><td>${html(day.date)}</td><td>${DAY_WORDS[day.status]}</td><td>${percent(day.uptime)}</td></tr>`)
    .join('');
  return `<details><summary>${notable.length} day${notable.length === 1 ? '' : 's'} with reduced uptime</summary>
        <table><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Status</th><th scope="col">Uptime</th></tr></thead>
        <tbody>${rows}</tbody></table></details>`;
}

/**
 * A short page of the status site for people: a heading, a sentence, and optionally a form with one button that posts
 * back to the same address (confirming or unsubscribing is a POST, so a mail scanner following links changes nothing).
 */
export function renderStatusMessage(title: string, sentence: string, button: string | null = null): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title>
<link rel="stylesheet" href="${STATUS_STYLESHEET_PATH}">
</head>
<body>
<main>
  <h1>${html(title)}</h1>
  <p>${html(sentence)}</p>
  ${button ? `<form method="post"><button type="submit">${html(button)}</button></form>` : ''}
</main>
</body>
</html>
`;
}

/** What a visitor sees at an address with no published page: a page, not a problem document. */
export function renderStatusNotFound(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Status page not found</title>
<link rel="stylesheet" href="${STATUS_STYLESHEET_PATH}">
</head>
<body>
<main>
  <h1>Status page not found</h1>
  <p>No published status page has this address. Check the link, or ask the site's owners for their status page.</p>
</main>
</body>
</html>
`;
}

/** The page for people: complete without script, in plain HTML and one stylesheet. */
export function renderStatusHtml(page: PublicStatusPageDto, slug: string): string {
  const components = page.components
    .map(
      (component) => `
      <li class="component">
        <div class="component-head">
          <h3>${html(component.name)}</h3>
          <span class="status status-${component.status}">${
            component.uptime_90d === null && component.status === 'operational'
              ? 'No data yet'
              : STATUS_WORDS[component.status]
          }</span>
        </div>
        ${component.maintenance ? `<p class="maintenance-note">Maintenance until ${when(component.maintenance.ends_at)}: ${html(component.maintenance.name)}</p>` : ''}
        ${dayBar(component.days, component.name)}
        <p class="uptime">${
          component.uptime_90d === null
            ? 'No checks in the last 90 days'
            : `${percent(component.uptime_90d)} uptime over the last 90 days`
        }</p>
        ${dayDetails(component.days)}
      </li>`,
    )
    .join('');
  const maintenance = page.maintenance
    .map(
      (shown) => `
      <article class="maintenance">
        <h3>${html(shown.name)}</h3>
        <p class="incident-meta">${when(shown.starts_at)} to ${when(shown.ends_at)} · ${html(shown.components.join(', '))}</p>
        ${shown.message ? `<p>${html(shown.message)}</p>` : ''}
      </article>`,
    )
    .join('');
  const incidents = page.incidents.length
    ? page.incidents
        .map(
          (incident) => `
      <article class="incident">
        <h3>${html(incident.title)}</h3>
        <p class="incident-meta">${html(incident.impact)} impact · ${INCIDENT_WORDS[incident.status]} · opened ${when(incident.created_at)}</p>
        <ol class="updates">${incident.updates
          .map(
            (update) =>
              `<li><strong>${INCIDENT_WORDS[update.status]}</strong> ${when(update.created_at)}<p>${html(update.message)}</p></li>`,
          )
          .join('')}</ol>
      </article>`,
        )
        .join('')
    : '<p>No incidents in the last 90 days.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(page.title)} status</title>
<link rel="stylesheet" href="${STATUS_STYLESHEET_PATH}">
<link rel="alternate" type="application/atom+xml" title="${html(page.title)} incidents" href="/status/${html(slug)}/feed.atom">
</head>
<body>
<main>
  <header>
    <h1>${html(page.title)}</h1>
    ${page.description ? `<p>${html(page.description)}</p>` : ''}
  </header>
  <p class="overall status-${page.status}">${STATUS_WORDS[page.status]}</p>
  ${
    maintenance
      ? `<section aria-labelledby="maintenance-heading">
    <h2 id="maintenance-heading">Maintenance</h2>${maintenance}
  </section>`
      : ''
  }
  <section aria-labelledby="components-heading">
    <h2 id="components-heading">Components</h2>
    <ul class="components">${components}</ul>
    <p class="method">${html(page.method)} Days are UTC. Updated ${when(page.updated_at)}.</p>
  </section>
  <section aria-labelledby="incidents-heading">
    <h2 id="incidents-heading">Incidents</h2>
    ${incidents}
    <p><a href="/status/${html(slug)}/feed.atom">Incidents as an Atom feed</a></p>
  </section>
  <section aria-labelledby="subscribe-heading">
    <h2 id="subscribe-heading">Get updates by e-mail</h2>
    <form class="subscribe" method="post" action="/status/${html(slug)}/subscribe">
      <label for="subscribe-email">E-mail address</label>
      <input id="subscribe-email" name="email" type="email" required maxlength="254" autocomplete="email">
      <button type="submit">Subscribe</button>
    </form>
  </section>
</main>
</body>
</html>
`;
}

/** The text without the characters XML 1.0 forbids even escaped (control characters but tab and newlines). */
function xmlCharacters(text: string): string {
  return [...text]
    .filter((character) => {
      const code = character.codePointAt(0)!;
      return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);
    })
    .join('');
}

/**
 * The incidents as an Atom feed (RFC 4287); an entry per incident, updated when its latest update was posted. Ids do
 * not depend on the host the feed was read through (an incident is named by its page and opening time).
 */
export function renderStatusAtom(page: PublicStatusPageDto, slug: string, origin: string): string {
  const xml = (text: string) => encodeXML(xmlCharacters(text));
  const pageUrl = `${origin}/status/${slug}`;
  const updated = page.incidents
    .flatMap((incident) => incident.updates.map((update) => update.created_at))
    .sort()
    .at(-1);
  const entries = page.incidents
    .map((incident) => {
      const latest = incident.updates.at(-1)?.created_at ?? incident.created_at;
      const body = incident.updates
        .map((update) => `${INCIDENT_WORDS[update.status]} (${update.created_at}): ${update.message}`)
        .join('\n\n');
      return `  <entry>
    <id>${xml(`urn:vigil:status:${slug}:incident:${incident.created_at}`)}</id>
    <title>${xml(`${incident.title} (${INCIDENT_WORDS[incident.status]})`)}</title>
    <updated>${xml(latest)}</updated>
    <published>${xml(incident.created_at)}</published>
    <link rel="alternate" type="text/html" href="${xml(pageUrl)}"/>
    <content type="text">${xml(body)}</content>
  </entry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(`urn:vigil:status:${slug}`)}</id>
  <title>${xml(`${page.title} incidents`)}</title>
  <updated>${xml(updated ?? page.updated_at)}</updated>
  <author><name>${xml(page.title)}</name></author>
  <link rel="self" type="application/atom+xml" href="${xml(`${pageUrl}/feed.atom`)}"/>
  <link rel="alternate" type="text/html" href="${xml(pageUrl)}"/>
${entries}
</feed>
`;
}

/** Colours meet WCAG AA contrast on white (text 4.5:1, the day squares 3:1); status is always said in words too. */
export const STATUS_STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
main{max-width:56rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.75rem;margin:0 0 .25rem}
h2{font-size:1.25rem;margin:2rem 0 .75rem}
h3{font-size:1rem;margin:0}
.overall{padding:.75rem 1rem;border-radius:.375rem;font-weight:600;color:#fff}
.overall.status-operational{background:#146c2e}
.overall.status-degraded{background:#8a5a00}
.overall.status-partial_outage{background:#a43c00}
.overall.status-major_outage{background:#b00020}
.overall.status-under_maintenance{background:#0b57d0}
.components{list-style:none;margin:0;padding:0}
.component{padding:.75rem 0;border-bottom:1px solid #ddd}
.component-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem}
.status{font-weight:600}
.status.status-operational{color:#146c2e}
.status.status-degraded{color:#7a4f00}
.status.status-partial_outage{color:#a43c00}
.status.status-major_outage{color:#b00020}
.status.status-under_maintenance{color:#0b57d0}
.maintenance{padding:.75rem 0;border-bottom:1px solid #ddd}
.maintenance p,.maintenance-note{overflow-wrap:anywhere}
.maintenance-note{color:#0b57d0;font-size:.875rem;margin:.25rem 0 0}
.days{display:block;width:100%;height:24px;margin:.5rem 0 .25rem}
.day-operational{fill:#2e9e4f}
.day-degraded{fill:#b07800}
.day-partial_outage{fill:#cc5500}
.day-major_outage{fill:#c62828}
.day-no_data{fill:#8c8c8c}
.uptime,.method,.incident-meta{color:#4a4a4a;font-size:.875rem;margin:0}
.method{margin-top:.75rem}
.incident{padding:.75rem 0;border-bottom:1px solid #ddd}
.updates{margin:.5rem 0 0;padding-left:1.25rem}
.updates p{margin:.125rem 0 .5rem;overflow-wrap:anywhere}
details{margin:.25rem 0 0;font-size:.875rem}
summary{cursor:pointer;color:#0b57d0}
table{border-collapse:collapse;margin:.5rem 0}
th,td{text-align:left;padding:.125rem .75rem .125rem 0;border-bottom:1px solid #ddd}
a{color:#0b57d0}
.subscribe{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.subscribe input{flex:1 1 14rem;min-width:0;padding:.375rem .5rem;font:inherit;border:1px solid #767676;border-radius:.25rem}
button{font:inherit;padding:.375rem .875rem;border:0;border-radius:.25rem;background:#0b57d0;color:#fff;cursor:pointer}
`;
