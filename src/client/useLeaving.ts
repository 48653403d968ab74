// A signal for work a form started that should stop when the form goes away: the sign-up dialog
// closed while a busy server was being waited for (submit-json.ts).
import { useEffect, useRef } from 'react';

/** Aborted when the component goes away (made in the effect: StrictMode mounts twice). */
export function useLeaving() {
  const leaving = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);
  return leaving;
}
