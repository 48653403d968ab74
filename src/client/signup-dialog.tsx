import { createRoot } from 'react-dom/client';
export function open() { const d = document.createElement('div'); document.body.append(d); createRoot(d).render(<p>hi</p>); }
