// https://vike.dev/error-page
import { NotFound } from '../../components/NotFound.tsx';
import { homePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { screen } = useData<Data>();
  if (screen.kind !== 'error')
    return (
      <NotFound heading={screen.heading} message={screen.message} linkText={screen.linkText} />
    );
  return (
    <section className="container status-screen" role="alert">
      <h1>Unexpected Application Error!</h1>
      <pre className="status-screen__message">{screen.message}</pre>
      <a className="button button--primary" href={homePath()}>
        Return Home
      </a>
    </section>
  );
}
