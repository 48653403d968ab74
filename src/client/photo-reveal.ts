// "Show photo" in the moderation queue with JavaScript (docs/product.md section 6): the
// same post as the plain form, sent with fetch, and the photo shown in place, without a reload.
// The server keeps the choice, as for the form; if the post fails, the form is sent as it is.

/** What the reveal endpoint answers a script: the photo's sizes. */
interface RevealedPhoto {
  src: string;
  srcSet: string;
}

export function enhancePhotoReveals(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.matches('form[data-photo-reveal]') || event.defaultPrevented) return;
    event.preventDefault();
    void reveal(form);
  });
}

async function reveal(form: HTMLFormElement): Promise<void> {
  const button = form.querySelector('button');
  if (button) button.disabled = true;
  const revealed = await post(form.action);
  const shield = form.closest<HTMLElement>('[data-photo-shield]');
  const image = shield?.querySelector('img');
  if (!revealed || !shield || !image) {
    form.submit();
    return;
  }
  image.sizes = '(min-width: 1000px) 640px, 100vw';
  image.srcset = revealed.srcSet;
  image.src = revealed.src;
  image.alt = image.dataset.alt ?? image.alt;
  image.classList.remove('queue-photo__image--blurred');
  form.remove();
  // Keyboard use: the focus was on the button, now gone; it goes to the photo shown.
  shield.closest<HTMLElement>('figure')?.focus();
}

async function post(url: string): Promise<RevealedPhoto | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: '{}',
    });
    if (!response.ok) return undefined;
    const answer = (await response.json()) as Partial<RevealedPhoto>;
    return typeof answer.src === 'string' && typeof answer.srcSet === 'string'
      ? { src: answer.src, srcSet: answer.srcSet }
      : undefined;
  } catch {
    return undefined;
  }
}
