/**
 * Markdown rendered at compile time. The HTML was sanitised by remark-html (no raw HTML, scripts
 * or event handlers), which is why it may be inserted as is.
 */
export function Prose({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={className ? `prose ${className}` : 'prose'}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
