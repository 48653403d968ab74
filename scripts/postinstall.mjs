// npm's postinstall (after every `npm install` and `npm ci`): on a supported Node, nothing to do
// but drop a link an earlier install on an older Node left. On an older Node (this workplace's
// machines carry 20, past its end of life; or a 22 before 22.14), fetch the pinned Node 24 from the npm registry into
// .node/ and link it as node_modules/.bin/node, so that `npm start`, `npm test` and every `npm run`
// script run on it; say so in one line. Where it cannot be fetched, stop with one line saying
// which Node to install (core/node-runtime.mjs).
import {
  compiledAddons,
  ensurePinnedNode,
  isSupportedNode,
  linkPinnedNode,
  nodePackageName,
  rebuildForPinnedNode,
  SUPPORTED_NODE,
  unlinkPinnedNode,
} from '../core/node-runtime.mjs';

const machine = process.versions.node;
if (isSupportedNode(machine)) {
  unlinkPinnedNode();
} else {
  const pinned = ensurePinnedNode();
  if ('problem' in pinned) {
    console.error(
      `Localboard runs on ${SUPPORTED_NODE}, and this is Node.js ${machine}; ${pinned.problem}: install Node.js 24 LTS, then run npm install again.`,
    );
    process.exit(1);
  }
  linkPinnedNode(pinned.dir);
  const rebuilt = rebuildForPinnedNode(pinned.dir, compiledAddons());
  if (rebuilt.status !== 0) {
    console.error(`Rebuilding native addons for Node.js ${pinned.version} failed (above).`);
    process.exit(1);
  }
  console.log(
    `Node.js ${machine} is older than ${SUPPORTED_NODE}: ${pinned.fetched ? 'fetched' : 'using'} Node.js ${pinned.version} from the npm registry (${nodePackageName()}) in .node/${pinned.version}, which npm start, npm test and npm run use.`,
  );
}
