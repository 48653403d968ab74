import { MemberAction } from '../components/MemberAction.tsx';
import type { ReactNode } from 'react';
import { LineIcon } from '../components/LineIcon.tsx';
import { Logo } from '../components/Logo.tsx';
import type { PageChrome } from './page-shell.ts';
import {
  aboutPath,
  homePath,
  legalPath,
  safetyNoticePath,
  transparencyPath,
} from '../../core/paths.ts';

/** Header, main landmark and footer shared by every page. */
export function Layout({ chrome, children }: { chrome: PageChrome; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader chrome={chrome} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter chrome={chrome} />
    </>
  );
}

function SiteHeader({ chrome }: { chrome: PageChrome }) {
  const centred = chrome.headerMenu === 'none';
  return (
    <header className={centred ? 'site-header site-header--centred' : 'site-header'}>
      <div className="container site-header__inner">
        <a className="logo" href={homePath()} aria-label={`${chrome.brand} home`}>
          <Logo />
          <span className="logo__text">{chrome.brand}</span>
        </a>
        {chrome.headerMenu === 'dropdown' && (
          <details className="menu">
            <summary className="menu__toggle">
              <span>Menu</span>
              <LineIcon d="M3 5h14M3 10h14M3 15h14" size={16} />
            </summary>
            <nav className="menu__panel" aria-label="Main">
              <a href={homePath()}>Home</a>
              <MemberAction action="join" className="button button--primary">
                Join Free
              </MemberAction>
            </nav>
          </details>
        )}
      </div>
    </header>
  );
}

function SiteFooter({ chrome }: { chrome: PageChrome }) {
  const line = `Personal ads in ${chrome.place} - 18+ only`;
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <nav aria-label="Footer" className="site-footer__links">
          <a href={legalPath('terms')}>Terms</a>
          <a href={legalPath('privacy')}>Privacy</a>
          <a href={aboutPath()}>About</a>
          <a href={safetyNoticePath()}>Safety</a>
          <a href={transparencyPath()}>Transparency</a>
        </nav>
        {chrome.footerButton === 'post' ? (
          <MemberAction action="post" className="button button--primary">
            Post Ad
          </MemberAction>
        ) : (
          <MemberAction action="join" className="button button--primary">
            Join Free
          </MemberAction>
        )}
        <p className="site-footer__line">
          {chrome.brandPrefix ? `${chrome.brand} - ${line}` : line}
        </p>
      </div>
    </footer>
  );
}
