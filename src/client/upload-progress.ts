// The upload's progress under the posting form while its photos are sent (send-with-progress.ts
// reports it): a bar and its words, said to screen readers every quarter, not every percent.
/** The upload's bar and its words ("Uploading… 45 %"), said to screen readers every quarter. */
export function uploadProgress(form: HTMLFormElement) {
  const box = document.createElement('div');
  box.className = 'photo-upload';
  box.dataset.photoProgress = '';
  box.hidden = true;
  const bar = document.createElement('progress');
  bar.max = 100;
  bar.value = 0;
  bar.setAttribute('aria-label', 'Upload progress');
  const text = document.createElement('p');
  text.className = 'photo-upload__text';
  text.setAttribute('aria-hidden', 'true');
  const status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  box.append(bar, text, status);
  const button = form.querySelector('button[type="submit"]');
  if (button) button.before(box);
  else form.append(box);
  let said = -1;
  return {
    start() {
      box.hidden = false;
      said = -1;
      this.show(0);
    },
    show(sent: number) {
      const percent = Math.round(sent * 100);
      bar.value = percent;
      const words = percent >= 100 ? 'Uploaded. Checking your photos…' : `Uploading… ${percent} %`;
      text.textContent = words;
      const quarter = Math.floor(percent / 25);
      if (quarter !== said) {
        said = quarter;
        status.textContent = words;
      }
    },
    stop() {
      box.hidden = true;
      status.textContent = '';
    },
  };
}
