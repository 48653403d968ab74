// What the poster seeks, apart from the ad schema (ad.ts), so that pages can show the labels
// without loading zod: the prerenderer loads the pages in each render thread, and zod costs each
// about 15 MB.

/** What the poster seeks, written the way personal ads write it, with the label shown beside it. */
export const SEEKS_LABELS = {
  w4m: 'Woman seeking man',
  m4w: 'Man seeking woman',
  m4m: 'Man seeking man',
  w4w: 'Woman seeking woman',
  t4m: 'Trans person seeking man',
  m4t: 'Man seeking trans person',
  t4w: 'Trans person seeking woman',
  w4t: 'Woman seeking trans person',
  t4t: 'Trans person seeking trans person',
} as const;
export type Seeks = keyof typeof SEEKS_LABELS;
