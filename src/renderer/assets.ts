// Stylesheets and scripts a rendered page links to. In development Vike injects its own.
export interface PageAssets {
  stylesheets: string[];
  scripts: string[];
}

export const NO_ASSETS: PageAssets = { stylesheets: [], scripts: [] };
