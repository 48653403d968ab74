// The one-core React loop: the yardstick a build's speed is divided by (bench/build-versus.ts), so
// that runs on a machine whose speed varies (other work, turbo, a neighbour's VM) compare. It
// renders a page shaped like a city page (a header, 20 ad cards, a footer) with react-dom/server's
// renderToString on one thread for `seconds` (the first argument, default 20) and prints one JSON
// line: {"loopPagesPerSecond": N}. Run with NODE_ENV=production, as the build renders.
// Plain JavaScript: no loader between the loop and V8.
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';

const seconds = Number(process.argv[2] ?? 20);
const NAV = ['Home', 'States', 'Search', 'Post an ad'];

const card = (n) =>
  h(
    'li',
    { key: n, className: 'ad-card' },
    h('a', { href: `/ads/${100_000 + n}/` }, h('h3', null, `Ad ${n}: looking for friends`)),
    h('p', { className: 'meta' }, `Portland, OR · ${20 + (n % 40)} · posted 2026-11-2${n % 10}`),
    h('p', null, 'A sentence or two about who they are and what they would like to do.'),
  );

const page = (n) =>
  h(
    'html',
    { lang: 'en' },
    h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, `Portland ads ${n}`)),
    h(
      'body',
      null,
      h(
        'header',
        null,
        h('nav', null, ...NAV.map((text) => h('a', { key: text, href: '/' }, text))),
      ),
      h(
        'main',
        null,
        h('h1', null, `Personal ads in Portland, Oregon (${n})`),
        h('ul', null, ...Array.from({ length: 20 }, (_, index) => card(n + index))),
      ),
      h('footer', null, h('p', null, 'Localboard: adults 18+ only.')),
    ),
  );

let pages = 0;
const started = performance.now();
const end = started + seconds * 1000;
while (performance.now() < end) {
  renderToString(page(pages));
  pages += 1;
}
const perSecond = pages / ((performance.now() - started) / 1000);
console.log(JSON.stringify({ loopPagesPerSecond: Math.round(perSecond) }));
