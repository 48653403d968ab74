// The haproxy configuration in front of the site in a bucket (docs/product.md section 12, README
// "Serving it"): one host name, two kinds of answer.
// - The instances: the API (/api/…), the pages rendered on request (the pages of src/pages/ that
//   have no +prerenderUrls.ts, and /signin or /signup with ?next=), a search's feed, unsubscribe
//   links, and the probes. Round robin among those whose /readyz answers 200; a request that
//   found an instance gone (connection refused) is sent to another.
// - The buckets, read anonymously, path-style (`/{bucket}/{prefix}{key}`): everything else, the
//   prerendered pages (a path without a file name is its folder's index.html) and the assets from
//   SITE_BUCKET, the published photos from PHOTOS_BUCKET. Cookies are not sent there; what the
//   world may read there is the buckets' policy's to say (public-read.ts).
// `npm run haproxy:config` prints it for the settings of this machine (scripts/haproxy-config.ts);
// tests/e2e/bucket-instances.test.ts runs it.
import type { BucketLocation } from '../../store/object-storage/bucket-url.ts';
import { join } from 'node:path';
import { SITE_FILE_ENDINGS } from './public-read.ts';

export interface HaproxySettings {
  /** Where haproxy listens: `127.0.0.1:8080`, `:80`. */
  listen: string;
  /** The instances' host:port. */
  instances: readonly string[];
  /** The S3 server's host:port (http). */
  bucketServer: string;
  /** SITE_BUCKET and PHOTOS_BUCKET. */
  site: BucketLocation;
  photos: BucketLocation;
  /** Where haproxy reads haproxy-not-found.lua (default: this checkout's, NOT_FOUND_SCRIPT). */
  notFoundScript?: string;
}

/** The site's not-found screens for haproxy (a Lua action: haproxy-not-found.lua says how). */
export const NOT_FOUND_SCRIPT = join(import.meta.dirname, 'haproxy-not-found.lua');

/**
 * The first segments of the paths the instances answer (the API, and every page of src/pages/
 * without +prerenderUrls.ts: tests/unit/server/operations/haproxy-config.test.ts keeps it so).
 */
export const INSTANCE_PATHS = [
  'api',
  'account',
  'forgot',
  'messages',
  'moderate',
  'post',
  'report',
  'reset',
  'search',
  'unsubscribe',
  'verify',
  'verify-age',
  'healthz',
  'readyz',
] as const;

export function haproxyConfig(settings: HaproxySettings): string {
  const { site, photos } = settings;
  const servers = settings.instances.map(
    (address, index) =>
      `  server instance-${index + 1} ${address} check inter 1s fall 2 rise 1 observe layer4`,
  );
  return `# Localboard: the instances and the site's bucket behind one host name.
# Made by npm run haproxy:config (server/operations/haproxy-config.ts).
global
  maxconn 4096
  lua-load ${settings.notFoundScript ?? NOT_FOUND_SCRIPT}

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  option http-server-close
  retries 2
  retry-on conn-failure empty-response
  option redispatch

frontend site
  bind ${settings.listen}
  acl to_instances path_reg ^/(${INSTANCE_PATHS.join('|')})(/|$)
  acl return_after_sign_in path /signin /signup
  acl has_next url_param(next) -m found
  acl to_search path_reg ^/search(/|$)
  # A new instance makes its search index after it is ready: /search goes to those that have one.
  use_backend searching if to_search { nbsrv(searching) gt 0 }
  use_backend instances if to_instances
  use_backend instances if return_after_sign_in has_next
  default_backend bucket

backend instances
  balance roundrobin
  option forwardfor
  option httpchk GET /readyz
  http-check expect status 200
${servers.join('\n')}

backend searching
  balance roundrobin
  option forwardfor
  option httpchk GET /readyz/search
  http-check expect status 200
${servers.join('\n')}

backend bucket
  # Only reads; no cookie or credential goes to the bucket.
  http-request deny deny_status 405 unless METH_GET || METH_HEAD
  # The path as asked, for the not-found screens.
  http-request set-var(txn.asked) path
  http-request del-header Cookie
  http-request del-header Authorization
  # The published photos (/photos/…) from the photos' prefix; the rest is the site's.
  http-request set-var(txn.photo) bool(true) if { path_beg /photos/ }
  acl photo var(txn.photo) -m bool
  http-request set-path %[path]index.html if !photo { path_end / }
  http-request set-path %[path]/index.html if !photo !{ path_end / } !{ path_reg \\.(${SITE_FILE_ENDINGS.join('|')})$ }
  http-request set-path /${photos.bucket}/${photos.prefix}%[path,regsub(^/,)] if photo
  http-request set-path /${site.bucket}/${site.prefix}%[path,regsub(^/,)] unless photo
  # No query string: S3 reads some (?acl, ?list-type) as other requests.
  http-request set-uri %[path]
  http-request set-header Host ${settings.bucketServer}
  # A key the bucket does not have (anonymous readers may not list it: 403) is a page not found:
  # a page's answer is the site's not-found screen for its path (haproxy-not-found.lua).
  http-response lua.localboard_not_found http://${settings.bucketServer}/${site.bucket}/${site.prefix} if !photo { status 403 404 }
  http-response set-status 404 if { status 403 }
  server bucket ${settings.bucketServer}
`;
}
