// Each page of the list as its page component and the data it renders (the prerender worker
// hashes the data and renders what changed), and the not-found screens.
import type { ComponentType } from 'react';
import AboutPage from '../../pages/about/+Page.tsx';
import { aboutData } from '../../pages/about/aboutData.ts';
import AdPage from '../../pages/ad/+Page.tsx';
import { adData } from '../../pages/ad/adData.ts';
import CityPage from '../../pages/city/+Page.tsx';
import { cityData } from '../../pages/city/cityData.ts';
import ErrorPage from '../../pages/_error/+Page.tsx';
import { notFoundData } from '../../pages/_error/errorPageData.ts';
import type { NotFoundKind } from '../../pages/_error/not-found.ts';
import GuidePage from '../../pages/guide/+Page.tsx';
import { guideData } from '../../pages/guide/guideData.ts';
import LandingPage from '../../pages/index/+Page.tsx';
import { landingData } from '../../pages/index/landingData.ts';
import LegalPage from '../../pages/legal/+Page.tsx';
import { legalData } from '../../pages/legal/legalData.ts';
import SigninPage from '../../pages/signin/+Page.tsx';
import { signinData } from '../../pages/signin/signinData.ts';
import SignupPage from '../../pages/signup/+Page.tsx';
import { signupData } from '../../pages/signup/signupData.ts';
import StatePage from '../../pages/state/+Page.tsx';
import { stateData } from '../../pages/state/stateData.ts';
import SuccessPage from '../../pages/success/+Page.tsx';
import { successData } from '../../pages/success/successData.ts';
import type { PageAssets } from '../../../renderer/assets.ts';
import type { PageShell } from '../../../renderer/page-shell.ts';
import { renderPageHtml } from '../../../renderer/renderPageHtml.tsx';
import type { PageJob } from './page-list.ts';

/** The page component of a job and the data it renders: everything the page is made from. */
export function pageAndData(job: PageJob): [ComponentType, PageShell] {
  switch (job.kind) {
    case 'landing':
      return [LandingPage, landingData()];
    case 'state':
      return [StatePage, stateData(job.state)];
    case 'city':
      return [CityPage, cityData(job.state, job.city, job.page)];
    case 'ad':
      return [AdPage, adData(job.state, job.city, String(job.adId))];
    case 'about':
      return [AboutPage, aboutData()];
    case 'guide':
      return [GuidePage, guideData(job.slug)];
    case 'legal':
      return [LegalPage, legalData(job.slug)];
    case 'signup':
      return [SignupPage, signupData()];
    case 'signin':
      return [SigninPage, signinData()];
    case 'success':
      return [SuccessPage, successData()];
  }
}

/** Whether the page's robots directive lets search engines index it (sitemap entries). */
export const isIndexable = (data: PageShell) => data.head.robots.startsWith('index');

export function renderNotFound(kind: NotFoundKind, assets: PageAssets): string {
  return renderPageHtml(ErrorPage, notFoundData(kind), assets);
}
