// `node scripts/pinned-node.mjs`: the pinned Node.js of `.node-version` in .node/, fetched from the
// npm registry when it is not there yet (core/node-runtime.mjs); prints its folder (bin/node,
// include/node). CI (.ci/run) runs everything on it: PATH="$dir/bin:$PATH".
import { ensurePinnedNode } from '../core/node-runtime.mjs';

const pinned = ensurePinnedNode();
if ('problem' in pinned) {
  console.error(`The pinned Node.js is not here and ${pinned.problem}.`);
  process.exit(1);
}
if (pinned.fetched) console.error(`Fetched Node.js ${pinned.version} from the npm registry.`);
console.log(pinned.dir);
