// The policy scanner as posting uses it (product.md section 6): a refusal sends the form back with
// the message beside its field and stores nothing; marks (ambiguous terms) go to the moderator.
// The scanner itself and its terms are src/policy/ and content/policy/.

export interface AdScanMark {
  field: 'title' | 'description';
  term: string;
  start: number;
  end: number;
}

export interface AdScanResult {
  refusal?: { field: 'title' | 'description'; message: string };
  marks: AdScanMark[];
}

export type AdScanner = (ad: {
  state: string;
  city: string;
  title: string;
  description: string;
}) => AdScanResult;

/** Until the scanner lands: nothing refused, nothing marked. */
export const scanAdForPosting: AdScanner = () => ({ marks: [] });
