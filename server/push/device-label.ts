// A device's name as the member reads it in their list (/account, Download my data): the browser
// and the system, from the User-Agent its browser sent when notifications were turned on there
// ("Chrome on Android", "Safari on iPhone"). Only a label to tell devices apart: nothing decides
// anything by it, and nothing else of the User-Agent is kept.

/** Most specific first: Edge, Opera and Samsung Internet also say Chrome; Chrome says Safari. */
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium|HeadlessChrome)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

const found = (table: ReadonlyArray<[RegExp, string]>, userAgent: string) =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1];

export function deviceLabel(userAgent: string | undefined): string {
  const text = userAgent ?? '';
  const browser = found(BROWSERS, text);
  const system = found(SYSTEMS, text);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return 'A browser';
}
