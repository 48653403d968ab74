-- The site's not-found screens, for haproxy in front of the site's bucket (haproxy-config.ts loads
-- this file). A page the bucket does not have (403 to an anonymous reader, or 404) answers 404 with
-- the prerendered screen the Node server sends for that path (server/http/static-site.ts,
-- notFoundKindFor), read from the bucket itself, instead of the S3 server's XML:
--   /state/X                      State not found
--   /city/S/C, /city/S/C/page/N   State not found when S has no page, City not found when C has
--                                 none, else the site's 404.html
--   /city/S/C/ad/N                the same, and Ad not found when the city has a page
--   anything else                 404.html
-- Its one argument: the site's place on the S3 server, http://host:port/bucket/prefix/. The path
-- asked for is in txn.asked (set before the backend rewrote it). When the screen cannot be read,
-- the bucket's own answer goes on (haproxy-config.ts turns a 403 into a 404).

local NOT_FOUND = {
  page = "404.html",
  state = "_not-found/state.html",
  city = "_not-found/city.html",
  ad = "_not-found/ad.html",
}

-- Whether the page at `path` (as asked, URL-encoded, "/state/Ohio") is in the bucket.
local function has_page(site, path)
  local answer = core.httpclient():head({ url = site .. path:sub(2) .. "/index.html" })
  return answer ~= nil and answer.status == 200
end

local function kind_of(site, path)
  if path:match("^/state/[^/]+/?$") then
    return "state"
  end
  local state, city, rest = path:match("^/city/([^/]+)/([^/]+)(.*)$")
  if not state then
    return "page"
  end
  local ad = rest:match("^/ad/[^/]+/?$") ~= nil
  local listing = rest == "" or rest == "/" or rest:match("^/page/[^/]+/?$") ~= nil
  if not ad and not listing then
    return "page"
  end
  if not has_page(site, "/state/" .. state) then
    return "state"
  end
  if not has_page(site, "/city/" .. state .. "/" .. city) then
    return "city"
  end
  return ad and "ad" or "page"
end

core.register_action("localboard_not_found", { "http-res" }, function(txn, site)
  local path = txn:get_var("txn.asked") or "/"
  local answer = core.httpclient():get({ url = site .. NOT_FOUND[kind_of(site, path)] })
  if answer == nil or answer.status ~= 200 then
    return
  end
  txn:done(txn:reply({
    status = 404,
    headers = {
      ["content-type"] = { "text/html; charset=utf-8" },
      ["cache-control"] = { "no-cache" },
    },
    body = answer.body,
  }))
end, 1)
