document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest('a[data-member-action]');
  if (!link) return;
  event.preventDefault();
  void import('./signup-dialog.tsx').then((m) => m.open());
});
